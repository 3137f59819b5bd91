"""Every hint reason of docs/protocol.md#hint — the searching bots' and the easy and medium
bots' rules of thumb — is a sentence in each of the page's four languages (issue 11, part 3).
In Chromium against a real ``trumps serve``: the page's
own ``why.js`` and catalogs, loaded as the page loads them."""

from __future__ import annotations

from playwright.async_api import Browser

from ai.reasons import hint_codes
from server.e2e import ServerProc
from web.kit import Run, open_page

WORDS_JS = """async ([codes]) => {
  const base = document.querySelector("script[type=module]").src;
  const i18n = await import(new URL("i18n.js", base));
  const why = await import(new URL("why.js", base));
  const out = {};
  for (const lang of ["en", "fa", "pt", "fr"]) {
    await i18n.setLang(lang);
    out[lang] = Object.fromEntries(Object.entries(codes).map(([code, names]) =>
      [code, why.hintTemplate({ code, numbers: Object.fromEntries(names.map((n) => [n, 2])) })]));
  }
  await i18n.setLang("en");
  return out;
}"""


def test_every_hint_reason_is_a_sentence_in_every_language(server: ServerProc, run: Run) -> None:
    codes = hint_codes()

    async def body(browser: Browser) -> None:
        _, page = await open_page(browser, server.http + "/#lobby", name="Ana")
        words = await page.evaluate(WORDS_JS, [{**codes, "?": []}])  # "?": no such code
        problems = []
        for lang, sentences in words.items():
            fallback = sentences.pop("?")
            for code, text in sentences.items():
                if text == fallback:
                    problems.append(f"{lang} {code}: no sentence")
                if lang != "en" and text == words["en"][code]:
                    problems.append(f"{lang} {code}: English")
                if lang == "fa" and any(ch.isascii() and ch.isdigit() for ch in text):
                    problems.append(f"fa {code}: Latin digits in {text}")
                if codes[code] and not any(d in text for d in "2۲"):
                    problems.append(f"{lang} {code}: its number is not said: {text}")
        assert not problems, problems
        assert words["en"]["all_win"] == (
            "You win this hand whatever you play; {action} is as good as any."
        )

    run(body)
