"""The page's translations: every string of the client translated, catalogs in step with it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from trumps.web import i18n
from trumps.web.i18n import (
    DIRECTION,
    LANGS,
    catalog,
    catalog_json,
    check,
    extract,
    persian_digits,
    placeholders,
    po_path,
    pot_path,
    template_ids,
    update_catalogs,
)

TRANSLATED = [lang for lang in LANGS if lang != "en"]
UPDATE = "run `python -m trumps.web.i18n update`"


@pytest.fixture(scope="module")
def msgids() -> list[str]:
    return extract()


# ------------------------------------------------------------------ the shipped catalogs


def test_client_has_strings(msgids: list[str]) -> None:
    assert msgids, 'no t("…") calls found in the client: is the extractor broken?'
    assert len(msgids) == len(set(msgids))


def test_template_is_up_to_date(msgids: list[str]) -> None:
    have = template_ids()
    new = [m for m in msgids if m not in set(have)]
    gone = [m for m in have if m not in set(msgids)]
    assert not new and not gone, f"messages.pot is stale ({UPDATE}): new {new}, gone {gone}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_msgid_translated(lang: str, msgids: list[str]) -> None:
    with po_path(lang).open("rb") as fileobj:
        entries = {m.id: m for m in read_po(fileobj) if m.id}
    missing = [m for m in msgids if m not in entries or not entries[m].string]
    fuzzy = [m for m in msgids if m in entries and entries[m].string and entries[m].fuzzy]
    assert not missing, f"{lang}: {len(missing)} untranslated ({UPDATE}, then translate): {missing}"
    assert not fuzzy, f"{lang}: {len(fuzzy)} fuzzy translations to review: {fuzzy}"
    assert set(msgids) <= set(catalog(lang))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_placeholders_kept(lang: str) -> None:
    wrong = {
        msgid: text
        for msgid, text in catalog(lang).items()
        if placeholders(text) != placeholders(msgid)
    }
    assert not wrong, f"{lang}: placeholders differ from the msgid: {wrong}"


@pytest.mark.parametrize("lang", LANGS)
def test_catalog_json_round_trips(lang: str) -> None:
    body = catalog_json(lang)
    assert body is not None
    data = json.loads(body.decode("utf-8"))
    assert data == {"lang": lang, "dir": DIRECTION[lang], "messages": catalog(lang)}
    assert data["dir"] == ("rtl" if lang == "fa" else "ltr")
    if lang == "en":
        assert data["messages"] == {m: m for m in template_ids()}
    else:
        assert all(isinstance(v, str) and v for v in data["messages"].values())


def test_catalog_json_unknown_language() -> None:
    assert catalog_json("de") is None
    assert catalog_json("../fa") is None
    with pytest.raises(KeyError):
        catalog("xx")


def test_persian_uses_persian_letters() -> None:
    # A cheap guard against a catalog pasted into the wrong language.
    texts = [t for m, t in catalog("fa").items() if any(c.isalpha() for c in m)]
    latin_only = [t for t in texts if not any("\u0600" <= c <= "\u06ff" for c in t)]
    # Game names and codes may stay Latin; the bulk must not.
    assert len(latin_only) <= max(3, len(texts) // 20), latin_only


# ------------------------------------------------------------------ helpers


def test_persian_digits() -> None:
    assert persian_digits("0123456789") == "۰۱۲۳۴۵۶۷۸۹"
    assert persian_digits("12:05, 25 points") == "۱۲:۰۵, ۲۵ points"
    assert persian_digits("٠١٢٣٤٥٦٧٨٩") == "۰۱۲۳۴۵۶۷۸۹"  # Arabic-Indic too
    assert persian_digits("۳ کارت") == "۳ کارت"
    assert persian_digits("") == ""


def test_placeholders() -> None:
    assert placeholders("{name} played {card}") == ["card", "name"]
    assert placeholders("{card} را {name} بازی کرد") == ["card", "name"]
    assert placeholders("no {} {1} { x } here") == []


# ------------------------------------------------------------------ the pipeline on a toy client


def _client(root: Path, js: str, html: str = "") -> Path:
    static = root / "static"
    (static / "ui").mkdir(parents=True)
    (static / "app.js").write_text(js, encoding="utf-8")
    (static / "ui" / "table.js").write_text('export const X = t("Your turn");\n', encoding="utf-8")
    (static / "index.html").write_text(html, encoding="utf-8")
    (static / "style.css").write_text('body::after { content: t("not css"); }\n')
    return static


JS = """\
import { t } from "./i18n.js";
const re = /t\\("no"\\)/g;   // a regex literal, not a call
// i18n: the button that starts a game against bots
const a = t("Play the computer");
const b = t('{name} played {card}', { name, card });
const c = t(dynamic);          // not extractable: skipped
const d = `${t("Hand")} ${n}`; // inside a template literal
const e = obj?.x ?? t("Take");
const f = t("Play the computer"); // a repeat
"""

HTML = """\
<button data-i18n="Rematch">Rematch</button>
<input data-i18n-aria-label='Your name' data-i18n-placeholder="Name &amp; title">
<script type="module">t("Inline")</script>
"""


def test_extract(tmp_path: Path) -> None:
    static = _client(tmp_path, JS, HTML)
    assert extract(static, games=()) == [
        "Play the computer",
        "{name} played {card}",
        "Hand",
        "Take",
        "Rematch",
        "Your name",
        "Name & title",
        "Inline",
        "Your turn",
    ]


def test_update_keeps_translations(tmp_path: Path) -> None:
    static = _client(tmp_path, 'const a = t("Take");\nconst b = t("Hint");\n')
    locale = tmp_path / "locale"
    written = update_catalogs(static, locale, games=())
    assert pot_path(locale) in written and po_path("fa", locale) in written
    assert update_catalogs(static, locale, games=()) == []  # nothing changed: nothing written
    assert sorted(str(p) for p in check(static, locale, games=())) == sorted(
        f"{lang}: missing: {m!r}" for lang in TRANSLATED for m in ("Take", "Hint", "Your turn")
    )

    # Translate one, drop one, add one: the translation survives the next update.
    path = po_path("fr", locale)
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            'msgid "Take"\nmsgstr ""', 'msgid "Take"\nmsgstr "Prendre"'
        ),
        encoding="utf-8",
    )
    (static / "app.js").write_text('t("Take"); t("{n} cards left");\n', encoding="utf-8")
    update_catalogs(static, locale, games=())
    assert template_ids(locale) == ["Take", "{n} cards left", "Your turn"]
    with path.open("rb") as fileobj:
        fr = {m.id: m for m in read_po(fileobj) if m.id}
    assert fr["Take"].string == "Prendre" and not fr["Take"].fuzzy
    assert "Hint" not in fr
    problems = {(p.lang, p.msgid) for p in check(static, locale, games=())}
    assert ("fr", "Take") not in problems and ("fr", "{n} cards left") in problems


def test_check_flags_placeholders_and_stale_template(tmp_path: Path) -> None:
    static = _client(tmp_path, 't("{name} wins");\n')
    locale = tmp_path / "locale"
    update_catalogs(static, locale, games=())
    for lang, text in (("fa", "{nom} می‌برد"), ("pt", "{name} vence"), ("fr", "{name} gagne")):
        path = po_path(lang, locale)
        path.write_text(
            path.read_text(encoding="utf-8").replace(
                'msgid "{name} wins"\nmsgstr ""', f'msgid "{{name}} wins"\nmsgstr "{text}"'
            ),
            encoding="utf-8",
        )
    problems = [str(p) for p in check(static, locale, games=())]
    assert problems == [
        "fa: placeholders differ: '{name} wins'",
        "fa: missing: 'Your turn'",
        "pt: missing: 'Your turn'",
        "fr: missing: 'Your turn'",
    ]
    (static / "app.js").write_text('t("{name} wins"); t("New");\n', encoding="utf-8")
    assert "messages.pot: not in the template: 'New'" in [
        str(p) for p in check(static, locale, games=())
    ]


def test_check_command(capsys: pytest.CaptureFixture[str]) -> None:
    status = i18n.main(["check"])
    out = capsys.readouterr()
    assert (status, out.out) == (0, ""), out.out
    assert "problems: pot 0, fa 0, pt 0, fr 0" in out.err
