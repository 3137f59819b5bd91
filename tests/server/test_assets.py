"""The page's files: versioned and cached for a year, the page itself revalidated, text
and SVG compressed (issue "a table people can follow", item 5)."""

from __future__ import annotations

import asyncio
import io
import re
import struct
from typing import Any

import httpx
from PIL import Image

from trumps.server.transport.app import ServerSettings, create_app
from trumps.web import STATIC
from trumps.web.icons import ICONS, icons_folder


class client:  # used like a function
    """GETs on the app in memory (no lifespan: files need no store)."""

    def __init__(self) -> None:
        settings = ServerSettings(
            db="sqlite+aiosqlite:///:memory:", secret="s" * 32, static=STATIC, icons=icons_folder()
        )
        self.app = create_app(settings)

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        async def once() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://page") as http:
                return await http.get(path, **kwargs)

        return asyncio.run(once())


def test_the_page_names_versioned_files_and_is_revalidated() -> None:
    http = client()
    page = http.get("/")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-cache"
    links = re.findall(r'(?:href|src)="(/static/[^"]+)"', page.text)
    assert links and all(re.match(r"/static/v-[0-9a-f]{12}/", link) for link in links), links
    again = http.get("/", headers={"if-none-match": page.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    for link in links:  # each is there, kept for a year
        got = http.get(link)
        assert got.status_code == 200, link
        assert got.headers["cache-control"] == "public, max-age=31536000, immutable"


def test_files_reach_each_other_relatively_so_all_stay_versioned() -> None:
    """No script or style sheet names an absolute /static/ path: everything it loads comes
    from under the same versioned prefix as itself."""
    for path in [*STATIC.glob("*.js"), *STATIC.glob("*.css")]:
        text = path.read_text(encoding="utf-8")
        assert "/static/" not in text, f"{path.name} names an absolute /static/ path"


def test_text_and_svg_are_compressed_and_fonts_are_left_alone() -> None:
    http = client()
    prefix = re.search(r'src="(/static/v-[0-9a-f]{12})/', http.get("/").text)
    assert prefix is not None
    base = prefix.group(1)
    for name, compressed in [
        ("app.js", True),
        ("style.css", True),
        ("cards/2color/KH.svg", True),
        ("fonts/Vazirmatn-wght.woff2", False),
    ]:
        got = http.get(f"{base}/{name}", headers={"accept-encoding": "gzip"})
        assert got.status_code == 200, name
        assert (got.headers.get("content-encoding") == "gzip") is compressed, name
        if compressed:
            raw = (STATIC / name).stat().st_size
            assert int(got.headers["content-length"]) < raw / 2, name
    # An old page's unversioned link still works, but is revalidated.
    old = http.get("/static/app.js")
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"


def test_every_icon_the_page_and_manifest_name_is_there_at_its_size() -> None:
    """The icon for iOS's home screen (``apple-touch-icon``, a PNG: iOS reads no SVG) and the
    manifest's PNGs are rendered from the SVG at the sizes they say, with no transparent
    corner (iOS would show it black)."""
    http = client()
    page = http.get("/").text
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)"', page)
    assert touch is not None
    manifest_url = re.search(r'<link rel="manifest" href="([^"]+)"', page)
    assert manifest_url is not None
    base = manifest_url.group(1).rsplit("/", 1)[0]
    icons = http.get(manifest_url.group(1)).json()["icons"]
    pngs = [(f"{base}/{i['src']}", i["sizes"]) for i in icons if i["type"] == "image/png"]
    assert len(pngs) == 2
    for url, sizes in [(touch.group(1), "180x180"), *pngs]:
        got = http.get(url)
        assert got.status_code == 200 and got.headers["content-type"] == "image/png", url
        width, height = struct.unpack(">II", got.content[16:24])  # the PNG's IHDR
        assert f"{width}x{height}" == sizes, url
        assert url.rsplit("/", 1)[1] in ICONS
        alpha = Image.open(io.BytesIO(got.content)).convert("RGBA").getchannel("A")
        assert alpha.getextrema() == (255, 255), url  # every pixel opaque


def test_gzip_is_sent_only_to_a_client_that_takes_it() -> None:
    """A client that names no gzip gets the file as it is (a ``gzip;q=0`` is still
    compressed by Starlette's GZipMiddleware, which looks for the word only)."""
    http = client()
    prefix = re.search(r'src="(/static/v-[0-9a-f]{12})/', http.get("/").text)
    assert prefix is not None
    url = prefix.group(1) + "/app.js"
    plain = (STATIC / "app.js").read_bytes()
    for refusal in ("identity", "br", ""):
        got = http.get(url, headers={"accept-encoding": refusal})
        assert "content-encoding" not in got.headers and got.content == plain, refusal
    packed = http.get(url, headers={"accept-encoding": "br, gzip;q=0.5"})
    assert packed.headers["content-encoding"] == "gzip"
