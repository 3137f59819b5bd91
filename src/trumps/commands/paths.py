"""Files of the commands: output files checked before the work starts (a game or an arena
run is never lost to a folder that does not exist, found only when the result is written),
and input files read with one clear line when they cannot be."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

__all__ = ["check_writable", "read_text", "writable_problem"]


def writable_problem(path: Path) -> str | None:
    """Why ``path`` cannot be written as a file, or None when it can (as far as can be
    known before writing: its folder exists and may be written in, and it is not itself
    a folder nor a file without write permission)."""
    if path.is_dir():
        return f"{path} is a folder"
    folder = path.parent
    if not folder.exists():
        return f"the folder {folder} does not exist"
    if not folder.is_dir():
        return f"{folder} is not a folder"
    if path.exists() and not os.access(path, os.W_OK):
        return f"{path} is not writable"
    if not path.exists() and not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is not writable"
    return None


def check_writable(path: Path | None, option: str) -> None:
    """Raise ``click.ClickException`` (exit 1: a file that cannot be written, see
    ``trumps.cli``) naming ``option`` when ``path`` cannot be written."""
    if path is None:
        return
    problem = writable_problem(path)
    if problem is not None:
        raise click.ClickException(f"cannot write {path} ({option}): {problem}")


def read_text(path: str) -> str:
    """The text of the file at ``path`` (``-``: standard input), without a byte-order mark
    as some editors write; ``click.ClickException`` (exit 1) when it cannot be read or is
    not UTF-8 text."""
    try:
        if path == "-":
            return sys.stdin.read().removeprefix("\ufeff")
        return Path(path).read_text(encoding="utf-8-sig")
    except OSError as e:
        raise click.ClickException(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise click.ClickException(f"cannot read {path}: not a text (UTF-8) file") from None
