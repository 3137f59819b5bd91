"""The page's static files, served so that a reload of an unchanged page fetches none.

All files are served under a versioned prefix, ``/static/v-<hash>/…``, where the hash is
taken over every file's name and bytes when the server starts: a changed file changes the
prefix, so a browser may keep anything under it for a year (``immutable``).  The page
(``index.html``) is the one file fetched each time (``no-cache``, with an ETag, so a reload
gets a 304); it names the versioned prefix, and everything else is reached relative to it —
ES module imports, ``import.meta.url`` in scripts, ``url()`` in the style sheet.
Text and SVG go out gzip-compressed (``GZipMiddleware`` in the app; fonts and images that
are compressed already are left as they are).  The unversioned ``/static/…`` still
answers, revalidated each time, for links kept from older pages.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Final

from starlette.requests import Request
from starlette.responses import Response
from starlette.staticfiles import StaticFiles

__all__ = ["IMMUTABLE", "Assets"]

IMMUTABLE: Final = "public, max-age=31536000, immutable"
REVALIDATE: Final = "no-cache"


def _version(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


class _CachedFiles(StaticFiles):
    """Static files with one ``Cache-Control`` for all of them."""

    def __init__(self, *, directory: Path, cache_control: str) -> None:
        super().__init__(directory=directory)
        self.cache_control = cache_control

    def file_response(self, *args: object, **kwargs: object) -> Response:
        response = super().file_response(*args, **kwargs)  # type: ignore[arg-type]
        response.headers["cache-control"] = self.cache_control
        return response


class Assets:
    """The page and its files from ``root`` (``trumps.web.STATIC``)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.version = _version(root)
        self.prefix = f"/static/v-{self.version}"
        page = (root / "index.html").read_text(encoding="utf-8")
        self.page = page.replace('"/static/', f'"{self.prefix}/').encode()
        self.etag = f'"{hashlib.sha256(self.page).hexdigest()[:16]}"'
        self.versioned = _CachedFiles(directory=root, cache_control=IMMUTABLE)
        self.plain = _CachedFiles(directory=root, cache_control=REVALIDATE)

    async def index(self, request: Request) -> Response:
        headers = {"cache-control": REVALIDATE, "etag": self.etag}
        if request.headers.get("if-none-match") == self.etag:
            return Response(status_code=304, headers=headers)
        return Response(self.page, media_type="text/html; charset=utf-8", headers=headers)
