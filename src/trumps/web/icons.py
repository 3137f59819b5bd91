"""The app's icon as PNG images, rendered from ``static/icon.svg`` (issue 28).

Browsers read the SVG itself, but an icon on iOS's home screen must be a PNG
(``apple-touch-icon``), and Android's launchers take a PNG in the manifest best.  The PNGs
are not kept in the repository: they are rendered from the SVG with resvg (``resvg-py``,
pinned in the ``server`` and ``offline`` extras), once per version of the SVG, into the
cache (``icons_folder``), from where ``trumps serve`` serves them beside the page's files
and ``trumps site`` copies them.  The corners are filled with the icon's green: iOS rounds
the corners itself and would show transparent ones black.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from pathlib import Path
from typing import Final

import resvg_py

from trumps.web import STATIC
from trumps.web.offline import cache_root

__all__ = ["ICONS", "icons_folder"]

#: The PNG renditions the page names (index.html, manifest.webmanifest): name -> size.
ICONS: Final = {"icon-180.png": 180, "icon-192.png": 192, "icon-512.png": 512}
BACKGROUND: Final = "#1f6b45"  # the icon's own green (icon.svg's first rect)


def icons_folder(cache: Path | None = None) -> Path:
    """The folder with the PNG icons, rendered first if this version of the SVG has none."""
    svg = (STATIC / "icon.svg").read_text(encoding="utf-8")
    stamp = hashlib.sha256((svg + repr(sorted(ICONS.items())) + BACKGROUND).encode())
    root = cache or cache_root()
    folder = root / f"icons-{stamp.hexdigest()[:16]}"
    if all((folder / name).is_file() for name in ICONS):
        return folder
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix="icons-", dir=root))
    try:
        for name, size in ICONS.items():
            png = resvg_py.svg_to_bytes(
                svg_string=svg, width=size, height=size, background=BACKGROUND
            )
            (staging / name).write_bytes(bytes(png))
        shutil.rmtree(folder, ignore_errors=True)
        staging.rename(folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder
