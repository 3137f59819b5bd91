"""``trumps site DIR``: the page with its own engine as static files (issue 28), for any
static host (a folder served by nginx, a static site host): games against the computer with
no Python on the host.

The folder holds the page (``index.html``, ``static/``), its translations (``i18n/``), the
catalog of games a server would answer at ``/api/catalog`` (with ``offline``: where the
page finds its engine, so that it plays through its Web Worker instead of a WebSocket),
Pyodide (``pyodide/``, fetched and checked by ``trumps.web.offline``) and the engine's
sources (``engine.zip``).  The page names its files from the site's root, so the folder is
served at the root of its address.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any, Final

from trumps.web import STATIC
from trumps.web.i18n import LANGS, catalog_json
from trumps.web.icons import icons_folder
from trumps.web.offline import engine_zip, pyodide_dir

__all__ = ["OFFLINE_URLS", "write_site"]

#: Where the page finds its engine on a static site (the catalog's ``offline``).
OFFLINE_URLS: Final = {
    "worker": "/static/offline/worker.js",
    "pyodide": "/pyodide/",
    "engine": "/engine.zip",
    "sw": "/sw.js",  # the service worker that keeps the site for use with no network
}
#: Files of the site the service worker does not keep: the page's licences and notes.
PRIVATE: Final = frozenset({"LICENSE.md", "README.md", "OFL.txt"})
#: What ``write_site`` puts in a folder; anything else there is left alone.
WRITES: Final = (
    "index.html", "static", "i18n", "api", "pyodide", "engine.zip", "sw.js", "precache.json",
)  # fmt: skip


def write_site(dest: Path, games: dict[str, Any], *, cache: Path | None = None) -> int:
    """Write the site into ``dest`` (made if missing; what an earlier run wrote is
    replaced) from the catalog ``games``; returns its size in bytes."""
    if dest.exists() and not dest.is_dir():
        raise NotADirectoryError(f"{dest} is not a folder")
    pyodide = pyodide_dir(cache)  # first: a failed fetch leaves the folder as it was
    dest.mkdir(parents=True, exist_ok=True)
    for name in WRITES:
        target = dest / name
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
    shutil.copytree(STATIC, dest / "static", ignore=shutil.ignore_patterns("__pycache__"))
    for icon in icons_folder(cache).iterdir():
        shutil.copy2(icon, dest / "static" / icon.name)
    shutil.copy2(STATIC / "index.html", dest / "index.html")
    (dest / "i18n").mkdir()
    for lang in LANGS:
        data = catalog_json(lang)
        if data is not None:
            (dest / "i18n" / f"{lang}.json").write_bytes(data)
    (dest / "api").mkdir()
    (dest / "api" / "catalog").write_text(
        json.dumps({**games, "offline": OFFLINE_URLS}), encoding="utf-8"
    )
    shutil.copytree(pyodide, dest / "pyodide")
    (dest / "engine.zip").write_bytes(engine_zip())
    files = sorted(f for f in dest.rglob("*") if f.is_file() and f.name not in PRIVATE)
    version = hashlib.sha256()
    for f in files:
        version.update(f.relative_to(dest).as_posix().encode() + b"\0" + f.read_bytes())
    precache = {
        "version": version.hexdigest()[:16],
        "files": ["/" + f.relative_to(dest).as_posix() for f in files],
    }
    (dest / "precache.json").write_text(json.dumps(precache), encoding="utf-8")
    worker = (STATIC / "offline" / "sw.js").read_text(encoding="utf-8")
    (dest / "sw.js").write_text(
        f"self.TRUMPS_PRECACHE = {json.dumps(precache)};\n{worker}", encoding="utf-8"
    )
    return sum(f.stat().st_size for f in dest.rglob("*") if f.is_file())
