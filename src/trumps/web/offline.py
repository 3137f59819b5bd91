"""What the page needs to play the computer with no server (issue 28): Pyodide, and the
project's own engine as Python sources for it.

Pyodide comes from the npm registry at build time, pinned to one version and checked
against the registry's sha512 integrity before anything of it is used; only the files the
page loads are kept, in a cache folder, so it is fetched once per machine.  Nothing is
fetched at run time: the page loads these files from its own origin.

The engine is the ``trumps`` package's pure-Python sources of the layers a table host
needs (cards, games, bots, records, ``trumps.host``): in the page the engine cores run
interpreted, as with ``TRUMPS_PURE=1``.  It imports nothing outside the standard library.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import os
import shutil
import tarfile
import tempfile
import urllib.request
import zipfile
from pathlib import Path
from typing import Final

__all__ = [
    "DEVICE_ENGINE",
    "DEVICE_PYODIDE",
    "ENGINE_PARTS",
    "PYODIDE_FILES",
    "PYODIDE_VERSION",
    "OfflineError",
    "device_folder",
    "engine_zip",
    "pyodide_dir",
]

PYODIDE_VERSION: Final = "314.0.7"
#: The npm registry's ``dist.integrity`` of ``pyodide@314.0.7`` (npm view pyodide@314.0.7 dist).
PYODIDE_INTEGRITY: Final = "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
#: The files of the package the page loads (a Web Worker imports ``pyodide.mjs``).
PYODIDE_FILES: Final = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",  # its version and licence (MPL-2.0)
)
REGISTRY: Final = "https://registry.npmjs.org"

#: The parts of ``trumps`` the page's host imports (``tests/test_layers.py`` keeps
#: ``trumps.host`` from importing anything else).
ENGINE_PARTS: Final = (
    "__init__.py", "_accel.py", "cards.py", "errors.py", "records.py", "fairdeal.py",
    "ratings.py", "games", "ai", "host",
)  # fmt: skip
PACKAGE: Final = Path(__file__).parents[1]
#: In a device folder (``device_folder``): Pyodide's files and the engine's zip.
DEVICE_PYODIDE: Final = "pyodide"
DEVICE_ENGINE: Final = "engine.zip"


class OfflineError(Exception):
    """The offline files could not be had (one line for the person: what and why)."""


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "trumps"


def pyodide_dir(cache: Path | None = None, *, registry: str = REGISTRY) -> Path:
    """The folder with Pyodide's files, fetched and checked first if not there yet."""
    folder = (cache or cache_root()) / f"pyodide-{PYODIDE_VERSION}"
    if all((folder / name).is_file() for name in PYODIDE_FILES):
        return folder
    url = f"{registry}/pyodide/-/pyodide-{PYODIDE_VERSION}.tgz"
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            data = answer.read()
    except OSError as e:
        raise OfflineError(f"cannot fetch Pyodide {PYODIDE_VERSION} from {url}: {e}") from e
    check_integrity(data, PYODIDE_INTEGRITY, what=url)
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix="pyodide-", dir=folder.parent))
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            for name in PYODIDE_FILES:
                member = tar.extractfile(f"package/{name}")
                if member is None:
                    raise OfflineError(f"{url} has no {name}")
                (staging / name).write_bytes(member.read())
        shutil.rmtree(folder, ignore_errors=True)
        staging.rename(folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def check_integrity(data: bytes, integrity: str, *, what: str) -> None:
    """Raise unless ``data`` has the Subresource-Integrity style digest ``integrity``."""
    algorithm, _, expected = integrity.partition("-")
    digest = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
    if digest != expected:
        raise OfflineError(f"{what} does not match its pinned {algorithm} digest: not used")


def engine_zip() -> bytes:
    """The engine's sources as a zip whose root holds the ``trumps`` package."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for part in ENGINE_PARTS:
            path = PACKAGE / part
            files = [path] if path.is_file() else sorted(path.rglob("*.py"))
            for file in files:
                info = zipfile.ZipInfo(f"trumps/{file.relative_to(PACKAGE).as_posix()}")
                info.compress_type = zipfile.ZIP_DEFLATED  # a fixed date: the same zip each time
                z.writestr(info, file.read_bytes())
    return out.getvalue()


def device_folder(cache: Path | None = None, *, langs: tuple[str, ...] = ()) -> Path:
    """The folder a server offers its page's own engine from (``trumps serve --offline``):
    ``pyodide/`` (each file beside its gzipped copy where that is smaller), ``engine.zip``
    and ``device.json`` (the page's languages).  Made once per engine and Pyodide version
    in the cache (its name says which), so a server starts without compressing anything;
    Pyodide is fetched and checked first if it is not there yet."""
    root = cache or cache_root()
    pyodide = pyodide_dir(root)
    engine = engine_zip()
    stamp = hashlib.sha256(engine + PYODIDE_VERSION.encode() + repr(langs).encode())
    folder = root / f"device-{stamp.hexdigest()[:16]}"
    if (folder / "device.json").is_file():
        return folder
    staging = Path(tempfile.mkdtemp(prefix="device-", dir=root))
    try:
        (staging / DEVICE_PYODIDE).mkdir()
        for name in PYODIDE_FILES:
            data = (pyodide / name).read_bytes()
            (staging / DEVICE_PYODIDE / name).write_bytes(data)
            packed = gzip.compress(data, compresslevel=9, mtime=0)
            if len(packed) < len(data) * 0.9:
                (staging / DEVICE_PYODIDE / f"{name}.gz").write_bytes(packed)
        (staging / DEVICE_ENGINE).write_bytes(engine)
        (staging / "device.json").write_text(
            json.dumps({"pyodide": PYODIDE_VERSION, "langs": list(langs)}), encoding="utf-8"
        )
        shutil.rmtree(folder, ignore_errors=True)
        staging.rename(folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder
