"""The page's static files, served so that a reload of an unchanged page fetches none.

All files are served under a versioned prefix, ``/static/v-<hash>/…``, where the hash is
taken over every file's name and bytes when the server starts: a changed file changes the
prefix, so a browser may keep anything under it for a year (``immutable``).  The page
(``index.html``) is the one file fetched each time (``no-cache``, with an ETag, so a reload
gets a 304); it names the versioned prefix, and everything else is reached relative to it —
ES module imports, ``import.meta.url`` in scripts, ``url()`` in the style sheet.
The files are read once, when the server starts, and answered from memory, each
gzip-compressed once when first asked for (text and SVG; fonts and images, compressed
already, as they are).  The unversioned ``/static/…`` still
answers, revalidated each time, for links kept from older pages.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Final

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import Receive, Scope, Send

from trumps.server.limits.httpsafety import CSP

__all__ = ["IMMUTABLE", "REVALIDATE", "Assets", "takes_gzip"]

IMMUTABLE: Final = "public, max-age=31536000, immutable"
REVALIDATE: Final = "no-cache"
#: The page's own engine runs in a Web Worker (``offline/worker.js``) whose policy is its
#: own script's: it compiles Pyodide's WebAssembly, which the page's policy does not allow.
WORKER_CSP: Final = CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")
_OWN_POLICY: Final = {"offline/worker.js": WORKER_CSP}


def _files(root: Path, extra: Path | None) -> dict[str, Path]:
    """The page's files by name: ``root``'s, and those of ``extra`` beside them."""
    found = {p.relative_to(root).as_posix(): p for p in root.rglob("*") if p.is_file()}
    if extra is not None:
        found |= {p.name: p for p in extra.iterdir() if p.is_file()}
    return dict(sorted(found.items()))


def _version(files: Mapping[str, Path]) -> str:
    digest = hashlib.sha256()
    for name, path in files.items():
        digest.update(name.encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def takes_gzip(request: Request) -> bool:
    """Whether the request's Accept-Encoding takes gzip (``gzip;q=0`` refuses it)."""
    for part in request.headers.get("accept-encoding", "").split(","):
        coding, _, params = part.partition(";")
        if coding.strip().lower() in ("gzip", "*"):
            name, _, value = params.replace(" ", "").lower().partition("=")
            try:
                return name != "q" or float(value) > 0
            except ValueError:
                return False
    return False


# Kinds of file worth compressing (fonts and images are compressed already).
_COMPRESSIBLE: Final = frozenset({".js", ".css", ".svg", ".html", ".json", ".txt", ".map"})


@dataclass(eq=False)
class _File:
    """A file answered from memory. Its gzipped copy is made when it is first asked for and
    kept: a server starts without compressing the page's hundred-odd files (a tenth of a
    second at each start, most of them card faces a given deck never shows)."""

    body: bytes
    media_type: str
    etag: str
    compressible: bool

    @cached_property
    def gzipped(self) -> bytes | None:
        """The gzipped body, or None where it is sent as it is (compressed already, or
        gzip saves under a tenth)."""
        if not self.compressible:
            return None
        packed = gzip.compress(self.body, compresslevel=9, mtime=0)
        return packed if len(packed) < len(self.body) * 0.9 else None


def _load(path: Path) -> _File:
    body = path.read_bytes()
    media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    if media_type.startswith("text/") or media_type.endswith("javascript"):
        media_type += "; charset=utf-8"
    etag = f'"{hashlib.sha256(body).hexdigest()[:16]}"'
    return _File(body, media_type, etag, path.suffix in _COMPRESSIBLE)


class _MemoryFiles:
    """The page's files, read once when the server starts (each compressed once) and
    answered from memory with one ``Cache-Control`` (an ASGI app mounted under a prefix).

    A page asks for some thirty modules at once; answered from memory each costs a
    fraction of a millisecond instead of a file read in a worker thread and a compression
    per request."""

    def __init__(self, files: Mapping[str, _File], cache_control: str) -> None:
        self.files, self.cache_control = files, cache_control

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope)
        if request.method not in ("GET", "HEAD"):
            response: Response = PlainTextResponse(
                "Method Not Allowed", 405, {"allow": "GET, HEAD"}
            )
            await response(scope, receive, send)
            return
        path, mount = scope["path"], scope.get("root_path", "")
        # ("cards/../app.js" is app.js; a path that climbs out names no file here)
        name = path[len(mount) :].lstrip("/") if path.startswith(mount) else ""
        found = self.files.get(posixpath.normpath(name)) if name else None
        if found is None:
            await PlainTextResponse("Not Found", 404)(scope, receive, send)
            return
        headers = {
            "cache-control": self.cache_control,
            "etag": found.etag,
            "vary": "Accept-Encoding",
        }
        if (policy := _OWN_POLICY.get(posixpath.normpath(name))) is not None:
            headers["content-security-policy"] = policy
        if request.headers.get("if-none-match") == found.etag:
            await Response(status_code=304, headers=headers)(scope, receive, send)
            return
        body = found.body
        if found.gzipped is not None and takes_gzip(request):
            body = found.gzipped
            headers["content-encoding"] = "gzip"
        if request.method == "HEAD":
            headers["content-length"] = str(len(body))
            body = b""
        await Response(body, media_type=found.media_type, headers=headers)(scope, receive, send)


class Assets:
    """The page and its files from ``root`` (``trumps.web.STATIC``), with the files of
    ``extra`` beside them (the icons rendered from its SVG: ``trumps.web.icons``)."""

    def __init__(self, root: Path, extra: Path | None = None) -> None:
        self.root = root
        found = _files(root, extra)
        self.version = _version(found)
        self.prefix = f"/static/v-{self.version}"
        page = (root / "index.html").read_text(encoding="utf-8")
        # Every module of the page asked for at once, not import by import (three rounds
        # of requests before the first message could be sent).
        preload = "".join(
            f'\n  <link rel="modulepreload" href="/static/{path.name}">'
            for path in sorted(root.glob("*.js"))
            if path.name != "app.js"
        )
        page = page.replace(
            '<script type="module"', preload.lstrip() + '\n  <script type="module"', 1
        )
        self.page = page.replace('"/static/', f'"{self.prefix}/').encode()
        self.etag = f'"{hashlib.sha256(self.page).hexdigest()[:16]}"'
        files = {name: _load(path) for name, path in found.items()}
        self.versioned = _MemoryFiles(files, IMMUTABLE)
        self.plain = _MemoryFiles(files, REVALIDATE)

    def wire_sizes(self) -> dict[str, int]:
        """Each file's bytes on the wire (gzipped where it is served so)."""
        return {
            name: len(file.gzipped if file.gzipped is not None else file.body)
            for name, file in self.versioned.files.items()
        }

    async def index(self, request: Request) -> Response:
        headers = {"cache-control": REVALIDATE, "etag": self.etag}
        if request.headers.get("if-none-match") == self.etag:
            return Response(status_code=304, headers=headers)
        return Response(self.page, media_type="text/html; charset=utf-8", headers=headers)
