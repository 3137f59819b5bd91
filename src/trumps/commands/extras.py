"""Optional parts of ``trumps``: a command whose extra (pyproject.toml) is not installed
says in one line which to install, never a traceback."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import click

__all__ = ["EXTRA_OF", "missing_extra", "needs_extra"]

# The install extra (pyproject.toml) of an optional package that a command imports late.
EXTRA_OF = {"matplotlib": ("plot", "trumps arena --plot")}


def missing_extra(extra: str, command: str, module: str | None) -> SystemExit:
    click.echo(
        f"Error: {command} needs the '{extra}' extra ({module} is not installed): "
        f"pip install 'trumps[{extra}]' (in a checkout: pip install '.[{extra}]')",
        err=True,
    )
    return SystemExit(1)


@contextlib.contextmanager
def needs_extra(extra: str, command: str) -> Iterator[None]:
    """Imports for ``command``: a missing third-party package becomes one line naming the
    extra to install, not a traceback."""
    try:
        yield
    except ModuleNotFoundError as e:
        if (e.name or "trumps").partition(".")[0] == "trumps":
            raise
        raise missing_extra(extra, command, e.name) from None
