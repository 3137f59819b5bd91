"""The page's own engine, offered by a server for play with no network (``trumps serve
--offline``, issue 28).

A server started with a device folder (``trumps.web.offline.device_folder``: Pyodide,
the engine's zip, the page's languages) serves

- ``/offline/<version>/…``: Pyodide and the engine, from the folder, kept by browsers for a
  year (the version is the folder's: a new engine is a new address);
- ``/sw.js``: the service worker (``static/offline/sw.js``) with this server's list
  written first — the page, the catalog and the translations (asked of the server first),
  the page's versioned files, Pyodide and the engine;
- and adds ``device`` to ``GET /api/catalog``: where the page finds its engine, the
  service worker, and the bytes keeping it all costs, which the page names before the
  player agrees ("about N MB").

Nothing is kept on a device until its player agrees: the page registers the service worker
only then (``static/offline/keep.js``).
"""

from __future__ import annotations

import hashlib
import json
import posixpath
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.types import Receive, Scope, Send

from trumps.server.transport.assets import IMMUTABLE, REVALIDATE, Assets, takes_gzip

__all__ = ["Device"]

# Files that browsers must be told the type of (a wasm module streams only as
# application/wasm; .mjs is not in every mimetypes table).
_TYPES: Final = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".zip": "application/zip",
}
#: Files of the page's folder not kept on a device (licences and notes, the page's own
#: copy of the service worker).
_NOT_KEPT: Final = frozenset({"LICENSE.md", "README.md", "OFL.txt", "index.html", "offline/sw.js"})


class _FolderFiles:
    """The device folder's files (an ASGI app mounted under ``/offline/<version>``): each
    sent from disk, or its gzipped copy beside it where the browser takes gzip (the
    folder is made once and not changed after: which files have a copy is found once)."""

    def __init__(self, root: Path) -> None:
        self.files: dict[str, Path] = {
            p.relative_to(root).as_posix(): p
            for p in sorted(root.rglob("*"))
            if p.is_file() and p.suffix != ".gz" and p.name != "device.json"
        }
        self.packed: dict[str, Path] = {
            name: copy
            for name, path in self.files.items()
            if (copy := path.with_name(path.name + ".gz")).is_file()
        }

    def wire_size(self, name: str) -> int:
        """The bytes ``name`` costs on the wire (its gzipped copy where there is one)."""
        return self.packed.get(name, self.files[name]).stat().st_size

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope)
        path, mount = scope["path"], scope.get("root_path", "")
        name = posixpath.normpath(path[len(mount) :].lstrip("/")) if path.startswith(mount) else ""
        found = self.files.get(name)
        if found is None:
            await PlainTextResponse("Not Found", 404)(scope, receive, send)
            return
        if request.method not in ("GET", "HEAD"):
            await PlainTextResponse("Method Not Allowed", 405, {"allow": "GET, HEAD"})(
                scope, receive, send
            )
            return
        headers = {"cache-control": IMMUTABLE, "vary": "Accept-Encoding"}
        media_type = _TYPES.get(found.suffix, "application/octet-stream")
        packed = self.packed.get(name)
        if packed is not None and takes_gzip(request):
            headers["content-encoding"] = "gzip"
            found = packed
        response = FileResponse(found, media_type=media_type, headers=headers)
        await response(scope, receive, send)


class Device:
    """What a server adds to offer its page's own engine (see the module's note)."""

    def __init__(
        self, folder: Path, assets: Assets, catalog: bytes, catalogs: Callable[[str], bytes | None]
    ) -> None:
        about = json.loads((folder / "device.json").read_text(encoding="utf-8"))
        translations = {
            lang: found for lang in about["langs"] if (found := catalogs(lang)) is not None
        }
        self.files = _FolderFiles(folder)
        self.prefix = f"/offline/{folder.name.removeprefix('device-')}"
        kept_page = {
            f"{assets.prefix}/{name}": size
            for name, size in assets.wire_sizes().items()
            if name not in _NOT_KEPT
        }
        kept_device = {
            f"{self.prefix}/{name}": self.files.wire_size(name) for name in self.files.files
        }
        fresh = {
            "/": len(assets.page),
            "/api/catalog": len(catalog),
            **{f"/i18n/{lang}.json": len(data) for lang, data in translations.items()},
        }
        listed = {**fresh, **kept_page, **kept_device}
        version = hashlib.sha256(assets.version.encode() + self.prefix.encode() + catalog)
        for lang in sorted(translations):
            version.update(translations[lang])
        precache: dict[str, Any] = {
            "version": version.hexdigest()[:16],
            "files": sorted(listed),
            "fresh": sorted(fresh),
            "page": "/",
            "pages": ["/"],
            "lasting": [assets.prefix + "/", self.prefix + "/"],
        }
        self.catalog_part = {
            "worker": f"{assets.prefix}/offline/worker.js",
            "pyodide": f"{self.prefix}/pyodide/",
            "engine": f"{self.prefix}/engine.zip",
            "sw": "/sw.js",
            "bytes": sum(listed.values()),
        }
        self.catalog = json.dumps({**json.loads(catalog), "device": self.catalog_part}).encode()
        template = (assets.root / "offline" / "sw.js").read_text(encoding="utf-8")
        self.worker = f"self.TRUMPS_PRECACHE = {json.dumps(precache)};\n{template}".encode()

    async def service_worker(self, _request: Request) -> Response:
        """``GET /sw.js``: asked again by browsers on a later visit, so never kept long."""
        return Response(
            self.worker,
            media_type="text/javascript; charset=utf-8",
            headers={"cache-control": REVALIDATE},
        )
