"""axe-core over every screen a player meets (tests/web/a11y.py SCREENS), in English and
Persian, on a desktop and a phone: no serious or critical violation (issue 18)."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser

from server.e2e import ServerProc
from web.a11y import SCREENS, axe, severe
from web.kit import Run, open_page


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
@pytest.mark.parametrize(("lang", "locale"), [("en", "en-GB"), ("fa", "fa-IR")])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_no_serious_or_critical_violation(
    server: ServerProc, screen: str, lang: str, locale: str, phone: bool, *, run: Run
) -> None:
    async def body(browser: Browser) -> None:
        ctx, page = await open_page(
            browser, server.http + "/#lobby", locale=locale, phone=phone, still=True
        )
        try:
            await SCREENS[screen](page)
            found = severe(await axe(page))
        finally:
            await ctx.close()
        assert not found, [(v.rule, v.impact, v.nodes, v.help, v.targets) for v in found]

    run(body)
