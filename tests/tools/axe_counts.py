"""Count axe-core violations on every screen of the page, in English and Persian, on a desktop
and a phone: ``PYTHONPATH=src:tests python tests/tools/axe_counts.py`` (starts its own
``trumps serve`` on SQLite; Debian's Chromium).  Prints one line per screen with the
serious and critical violations by rule (elements in brackets) and the total of all
impacts; the figures issue 18 asks for before and after."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections import Counter
from pathlib import Path

from playwright.async_api import Browser

from server.e2e import ServerProc
from web.a11y import SCREENS, axe, severe
from web.kit import KOZYRI_SEED, chromium, open_page

LANGS = {"en": "en-GB", "fa": "fa-IR"}


async def count(browser: Browser, url: str) -> Counter[str]:
    totals: Counter[str] = Counter()
    for lang, locale in LANGS.items():
        for phone in (False, True):
            for name, reach in SCREENS.items():
                ctx, page = await open_page(browser, url, locale=locale, phone=phone, still=True)
                try:
                    await reach(page)
                    found = await axe(page)
                finally:
                    await ctx.close()
                bad = severe(found)
                where = f"{lang} {'phone' if phone else 'desktop'} {name}"
                rules = ", ".join(f"{v.rule} [{v.nodes}]" for v in bad) or "none"
                print(f"  {where:<48} serious+critical: {len(bad)} ({rules}); all: {len(found)}")
                for v in bad:
                    totals[v.rule] += 1
    return totals


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProc(
            f"sqlite+aiosqlite:///{Path(tmp) / 'axe.db'}", Path(tmp), seed=KOZYRI_SEED
        )
        server.start()
        try:
            async with chromium() as browser:
                totals = await count(browser, server.http + "/#lobby")
        finally:
            server.stop()
    print("screens with each serious or critical rule broken (of 28):")
    for rule, n in totals.most_common():
        print(f"  {rule:<36} {n}")
    sys.exit(0)


if __name__ == "__main__":
    asyncio.run(main())
