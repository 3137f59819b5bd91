"""Seeing the table (issue 18): contrast from the computed colours, in every language and in
both themes — "Your turn.", suits written on the green table, the focus ring against the
table — the red of the card faces, and a compact table at 200 % zoom where the trick or
pile and the hand fit in the window together."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, Page, expect

from server.e2e import ServerProc
from web.a11y import EVENT, LOCALES, STATIC, vs_bots
from web.kit import MINE_OR_OVER, Run, open_page, setting

SEED = 2026  # each test's first table is dealt from here (conftest.py)

# The contrast of what matters, from computed colours: [what, ratio, needed]. The felt is a
# gradient: text on it is measured against both of its ends.
MEASURE = """() => {
  const probe = document.createElement("span");
  document.body.append(probe);
  const rgb = (c) => { probe.style.color = ""; probe.style.color = c.trim();
    const p = getComputedStyle(probe).color.match(/[\\d.]+/g).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
  const lum = ({ r, g, b }) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const root = getComputedStyle(document.documentElement);
  const felt = [rgb(root.getPropertyValue("--felt")), rgb(root.getPropertyValue("--felt-dark"))];
  const behind = (node) => {
    for (let n = node; n; n = n.parentElement) {
      const s = getComputedStyle(n);
      const c = rgb(s.backgroundColor);
      if (c.a === 1) return [c];
      if (n.classList.contains("felt") && s.backgroundImage !== "none") return felt;
    }
    return [rgb(getComputedStyle(document.body).backgroundColor)];
  };
  const out = [];
  const text = (what, node, need) => {
    const fg = rgb(getComputedStyle(node).color);
    for (const bg of behind(node)) out.push([what, ratio(fg, bg), need]);
  };
  text("Your turn.", document.querySelector(".turn.mine"), 4.5);
  const me = document.querySelector(".felt .me-info");
  for (const [cls, sym] of [["suit suit-H", "♥"], ["suit suit-D", "♦"], ["card-text suit-H", "10♥"], ["card-text suit-D", "Q♦"]]) {
    const span = document.createElement("span");
    span.className = cls;
    span.textContent = sym;
    me.append(span);
    text(`${cls} on the table`, span, 4.5);
    span.remove();
  }
  for (const node of document.querySelectorAll(".felt .suit, .felt .card-text")) text(`${node.className}: ${node.textContent}`, node, 4.5);
  const focused = document.activeElement;
  const s = getComputedStyle(focused);
  if (s.outlineStyle === "none" || parseFloat(s.outlineWidth) < 2) out.push(["focus ring width", 0, 3]);
  for (const bg of felt) out.push([`focus ring on ${focused.dataset.testid}`, ratio(rgb(s.outlineColor), bg), 3]);
  probe.remove();
  return out;
}"""


async def measure(page: Page) -> list[str]:
    # The focus ring as a keyboard user sees it: moved within the hand by the arrow keys.
    await page.locator("[data-testid='hand'] button.hcard[tabindex='0']").focus()
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("ArrowLeft")
    found: list[list[object]] = await page.evaluate(MEASURE)
    assert len(found) >= 8
    return [f"{what}: {ratio:.2f} < {need}" for what, ratio, need in found if ratio < need]  # type: ignore[operator]


@pytest.mark.parametrize(("game", "players"), [("twentyfive", "4"), ("kozyri", "")])
def test_contrast_of_the_table_in_every_language_and_theme(
    server: ServerProc, game: str, players: str, run: Run
) -> None:
    """Both games' tables (Svoi Kozyri: the pile, the trump marks), in every language, the
    light and dark colour schemes, the standard and high-contrast themes; the theme setting
    is remembered."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby")
        await vs_bots(page, game, players)
        if game == "kozyri":  # past the trump choice: a pile, trump marks, maybe "take"
            for _ in range(3):
                before = await page.evaluate(EVENT)
                await page.keyboard.press("1")
                await page.wait_for_function(f"() => ({EVENT})() !== {before!r}")
                await page.wait_for_function(MINE_OR_OVER)
        bad: dict[str, list[str]] = {}
        for lang in LOCALES:
            await setting(page, "lang-select", lang)
            await expect(page.locator("html")).to_have_attribute("lang", lang)
            await page.wait_for_function(MINE_OR_OVER)
            for scheme in ("light", "dark"):  # the page follows the system's colour scheme
                await page.emulate_media(color_scheme=scheme)
                for theme in ("standard", "contrast"):
                    await setting(page, "theme", theme)
                    await expect(page.locator("html")).to_have_attribute("data-theme", theme)
                    bad[f"{lang} {scheme} {theme}"] = await measure(page)
        assert await page.evaluate("() => localStorage.getItem('trumps.theme')") == "contrast"
        assert not any(bad.values()), bad
        await page.reload()  # the theme is remembered
        await expect(page.locator("html")).to_have_attribute("data-theme", "contrast")
        await ctx.close()

    run(body)


# What the colour system gives the page and the table now: the page's background, the
# table's wooden rail (the first inset shadow of the felt's cloth, a layer of its own) and the
# colour scheme in use.
LOOK = """() => {
  const felt = document.querySelector("#table .felt");
  return { page: getComputedStyle(document.body).backgroundColor,
           rail: getComputedStyle(felt, "::before").boxShadow.match(/rgba?\\([^)]*\\)/)?.[0] ?? "none",
           scheme: document.documentElement.dataset.scheme };
}"""
LIGHT = {"page": "rgb(239, 234, 223)", "rail": "rgb(110, 69, 38)"}
DARK = {"page": "rgb(20, 22, 23)", "rail": "rgb(59, 36, 22)"}


def test_the_appearance_follows_the_device_or_the_player_s_choice_and_is_kept(
    server: ServerProc, run: Run
) -> None:
    """Issue 27 §2: light and dark come from one colour system — the page and the table's
    rail change together — following the device until the player chooses light or dark in
    the settings; the choice outlasts a reload and the device's own setting."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby")
        await vs_bots(page, "kozyri")

        async def look(device: str) -> dict[str, str]:
            await page.emulate_media(color_scheme=device)  # type: ignore[arg-type]
            got: dict[str, str] = await page.evaluate(LOOK)
            return got

        assert await look("light") == {**LIGHT, "scheme": "auto"}
        assert await look("dark") == {**DARK, "scheme": "auto"}
        await setting(page, "scheme", "light")
        assert await look("dark") == {**LIGHT, "scheme": "light"}
        await setting(page, "scheme", "dark")
        assert await look("light") == {**DARK, "scheme": "dark"}
        await page.reload()
        await expect(page.locator("html[data-ready='1']")).to_have_count(1)
        await expect(page.get_by_test_id("hand")).to_be_visible()
        assert await look("light") == {**DARK, "scheme": "dark"}
        # high contrast keeps its black table, with no cloth or rail, whatever the scheme
        await setting(page, "theme", "contrast")
        assert await page.evaluate(
            "() => { const felt = document.querySelector('#table .felt');"
            " return [getComputedStyle(felt).backgroundColor,"
            " getComputedStyle(felt, '::before').display]; }"
        ) == ["rgb(0, 0, 0)", "none"]
        await setting(page, "scheme", "auto")
        assert await page.evaluate("() => localStorage.getItem('trumps.scheme')") is None
        await ctx.close()

    run(body)


def lum(hex_colour: str) -> float:
    named = {
        "red": "#FF0000",
        "black": "#000000",
        "white": "#FFFFFF",
        "green": "#008000",
        "blue": "#0000FF",
    }
    h = named.get(hex_colour.lower(), hex_colour).lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    parts = [int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    f = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in parts]
    return 0.2126 * f[0] + 0.7152 * f[1] + 0.0722 * f[2]


def test_card_indices_and_suits_contrast_with_the_white_face() -> None:
    """The index (rank, V…) and suit (S…) symbols of every card face are at least 4.5:1 on
    white (the court figures' own colours are pictures, not text)."""
    low = []
    for path in sorted((STATIC / "cards").glob("*color/*.svg")):
        svg = path.read_text(encoding="utf-8")
        for symbol in re.findall(r'<symbol id="[VS][SHDC][^"]*".*?</symbol>', svg, re.S):
            for colour in re.findall(r'(?:fill|stroke)="([^"]+)"', symbol):
                if colour != "none" and 1.05 / (lum(colour) + 0.05) < 4.5:
                    low.append(f"{path.parent.name}/{path.name} {colour}")
    assert not low, sorted(set(low))[:10]


@pytest.mark.parametrize(
    ("game", "players", "centre"),
    [("twentyfive", "4", ".trick-area"), ("kozyri", "", ".pile-area")],
)
def test_at_200_percent_zoom_the_centre_and_the_hand_fit_in_the_window(
    server: ServerProc, game: str, players: str, centre: str, run: Run
) -> None:
    """A 1280 × 800 screen at 200 %: 640 × 400 CSS pixels. Scrolled to the hand, the trick
    (or pile) is in the window too."""

    async def body(browser: Browser) -> None:
        ctx, page = await open_page(browser, server.http + "/#lobby", still=True)
        await page.set_viewport_size({"width": 640, "height": 400})
        await vs_bots(page, game, players)
        if game == "kozyri":  # the trump choice first, then the pile
            await page.keyboard.press("1")
            await expect(page.locator(centre)).to_have_count(1)
            await page.wait_for_function(MINE_OR_OVER)
        box = await page.evaluate(
            """(sel) => {
              const hand = document.querySelector("[data-testid='hand']");
              hand.scrollIntoView({ block: "end" });
              const c = document.querySelector(sel).getBoundingClientRect();
              const h = hand.getBoundingClientRect();
              return { top: c.top, bottom: h.bottom, left: Math.min(c.left, h.left),
                right: Math.max(c.right, h.right), height: innerHeight, width: innerWidth };
            }""",
            centre,
        )
        assert box["top"] >= 0 and box["bottom"] <= box["height"] + 1, box
        assert box["left"] >= 0 and box["right"] <= box["width"] + 1, box
        await ctx.close()

    run(body)
