"""The page's translations: Babel ``.po`` catalogs are the source, JSON is what the page loads.

The browser client writes every visible string as ``t("English text")`` with a literal
argument (placeholders as ``{name}``), and static markup may carry ``data-i18n="English text"``
attributes.  The English text *is* the message id:

- :func:`extract` finds every msgid in the client (Babel's JavaScript extractor for ``t(…)``
  calls, a small regex for ``data-i18n*`` attributes);
- ``locale/messages.pot`` is the template made from them, and
  ``locale/{fa,pt,fr}/LC_MESSAGES/messages.po`` hold the translations;
- :func:`update_catalogs` (``python -m trumps.web.i18n update``) regenerates the template and
  merges new msgids into every catalog, keeping the existing translations;
  ``python -m trumps.web.i18n check`` lists what is missing, fuzzy or has wrong placeholders;
- :func:`catalog_json` is what the server returns for ``GET /i18n/{lang}.json``.

Untranslated and fuzzy entries are left out of the JSON: the page falls back to the English
msgid.  Babel keeps Latin digits, so :func:`persian_digits` maps them for Persian text.
"""

from __future__ import annotations

import argparse
import functools
import html
import io
import json
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Final

from babel.messages.catalog import Catalog
from babel.messages.extract import extract as babel_extract
from babel.messages.pofile import read_po, write_po

from trumps.games import GAMES, Game

__all__ = [
    "DIRECTION",
    "LANGS",
    "LOCALE_DIR",
    "STATIC_DIR",
    "Problem",
    "catalog",
    "catalog_json",
    "check",
    "extract",
    "main",
    "persian_digits",
    "placeholders",
    "po_path",
    "pot_path",
    "template_ids",
    "update_catalogs",
]

LANGS: Final = ("en", "fa", "pt", "fr")
DIRECTION: Final[dict[str, str]] = {lang: "rtl" if lang == "fa" else "ltr" for lang in LANGS}
# The languages that have a catalog; English is the identity over the template.
TRANSLATED: Final = tuple(lang for lang in LANGS if lang != "en")

_HERE: Final = Path(__file__).parent
STATIC_DIR: Final = _HERE / "static"
LOCALE_DIR: Final = _HERE / "locale"
DOMAIN: Final = "messages"

PROJECT: Final = "trumps"
_AUTHORS: Final = "The trumps developers"
# Babel fills in PROJECT and says "<Language> translations" in a language's catalog.
_HEADER: Final = """\
# Translations template for the PROJECT web page.
# The msgid is the English text: keep every {placeholder} exactly as it is.
# Refresh: python -m trumps.web.i18n update; verify: python -m trumps.web.i18n check
#"""
# Translator comments in the client: `// i18n: what this is` on or just before the t() line.
COMMENT_TAGS: Final = ("i18n:",)
_KEYWORDS: Final = {"t": None}  # t("msgid", {params}): the first argument is the msgid
_PO_WIDTH: Final = 100

# data-i18n="…", data-i18n-aria-label="…", data-i18n-title='…' and the like in HTML.
_DATA_I18N: Final = re.compile(r"""\bdata-i18n(?:-[\w-]+)?\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_SCRIPT: Final = re.compile(r"<script\b[^>]*>(.*?)</script\s*>", re.DOTALL | re.IGNORECASE)
_PLACEHOLDER: Final = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_PERSIAN_DIGITS: Final = str.maketrans("0123456789٠١٢٣٤٥٦٧٨٩", "۰۱۲۳۴۵۶۷۸۹" * 2)


def persian_digits(text: str) -> str:
    """``text`` with Latin (and Arabic-Indic) digits written as Persian digits ``۰``–``۹``."""
    return text.translate(_PERSIAN_DIGITS)


def placeholders(text: str) -> list[str]:
    """The ``{name}`` placeholders of ``text``, sorted (repeats kept)."""
    return sorted(_PLACEHOLDER.findall(text))


def po_path(lang: str, locale_dir: Path = LOCALE_DIR) -> Path:
    """Where the catalog of ``lang`` lives (``locale/{lang}/LC_MESSAGES/messages.po``)."""
    return locale_dir / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def pot_path(locale_dir: Path = LOCALE_DIR) -> Path:
    """Where the template lives (``locale/messages.pot``)."""
    return locale_dir / f"{DOMAIN}.pot"


# ------------------------------------------------------------------ extraction

# The games whose rules in brief (``Game.BRIEF``) the page shows: msgids beside its own.
PAGE_GAMES: Final[tuple[type[Game], ...]] = tuple(GAMES.values())


def _js_messages(source: str, lineno_offset: int = 0) -> Iterator[tuple[int, str, list[str]]]:
    """``(line, msgid, translator comments)`` for each ``t("…")`` call in JavaScript source."""
    found = babel_extract(
        "javascript",
        io.BytesIO(source.encode("utf-8")),
        keywords=_KEYWORDS,
        comment_tags=COMMENT_TAGS,
        options={"parse_template_string": True},  # t("…") inside `${…}` too
        strip_comment_tags=True,
    )
    for lineno, message, comments, _context in found:
        if isinstance(message, str) and message:
            yield lineno + lineno_offset, message, list(comments)


def _html_messages(source: str) -> Iterator[tuple[int, str, list[str]]]:
    """Messages of an HTML file: ``data-i18n*`` attributes and ``t("…")`` in inline scripts."""
    for match in _DATA_I18N.finditer(source):
        raw = match.group(1) if match.group(1) is not None else match.group(2)
        text = html.unescape(raw)
        if text:
            yield source.count("\n", 0, match.start()) + 1, text, []
    for match in _SCRIPT.finditer(source):
        offset = source.count("\n", 0, match.start(1))
        yield from _js_messages(match.group(1), offset)


def _new_catalog(lang: str | None) -> Catalog:
    return Catalog(
        locale=lang,
        domain=DOMAIN,
        header_comment=_HEADER,
        project=PROJECT,
        version="web",
        copyright_holder=_AUTHORS,
        last_translator=_AUTHORS,
        language_team=lang or "",
        fuzzy=False,
    )


def _template(static_dir: Path, games: Sequence[type[Game]]) -> Catalog:
    """The template catalog: every msgid of the client with where it is used."""
    template = _new_catalog(None)
    files = sorted(
        (p for p in static_dir.rglob("*") if p.suffix in (".js", ".mjs", ".html") and p.is_file()),
        key=lambda p: p.relative_to(static_dir).as_posix(),
    )
    for path in files:
        name = path.relative_to(static_dir).as_posix()
        source = path.read_text(encoding="utf-8")
        messages = _html_messages(source) if path.suffix == ".html" else _js_messages(source)
        for lineno, message, comments in messages:
            template.add(message, locations=[(f"static/{name}", lineno)], auto_comments=comments)
    # The rules in brief are each game's own (``Game.BRIEF``): the page shows them from the
    # catalog, translated as msgids like any other.
    for game in games:
        where = f"games/{game.game_id}/brief.py"
        for line, (ids, text) in enumerate(game.BRIEF, 1):
            note = (
                f"i18n: the rules of {game.title} in brief, one of {len(game.BRIEF)} lines ({ids})"
            )
            template.add(text, locations=[(where, line)], auto_comments=[note])
    return template


def extract(static_dir: Path = STATIC_DIR, games: Sequence[type[Game]] = PAGE_GAMES) -> list[str]:
    """Every msgid in the client under ``static_dir``, once each, in order of appearance.

    Files are visited in path order: ``**/*.js`` (and ``.mjs``) with Babel's JavaScript
    extractor for ``t("…")`` calls, ``**/*.html`` for ``data-i18n*="…"`` attributes and
    ``t("…")`` in inline scripts.  Calls whose first argument is not a literal string are
    skipped: such text cannot be translated.  Then each game's rules in brief
    (``Game.BRIEF``), which the page shows from the catalog.
    """
    return [str(message.id) for message in _template(static_dir, games) if message.id]


# ------------------------------------------------------------------ catalogs


def _read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as fileobj:
        return read_po(fileobj, locale=lang, domain=DOMAIN)


def _render(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(
        out,
        catalog,
        width=_PO_WIDTH,
        ignore_obsolete=True,
        include_lineno=False,  # file names only: moving code does not churn the catalogs
        sort_output=False,
    )
    return out.getvalue()


def template_ids(locale_dir: Path = LOCALE_DIR) -> list[str]:
    """The msgids of the template ``locale/messages.pot``, in order."""
    return [str(message.id) for message in _read(pot_path(locale_dir)) if message.id]


@functools.cache
def catalog(lang: str) -> dict[str, str]:
    """``msgid -> translation`` for ``lang`` (cached): translated, non-fuzzy entries only.

    English is the identity over the template.  Raises ``KeyError`` for a language not in
    :data:`LANGS`.
    """
    if lang not in LANGS:
        raise KeyError(lang)
    if lang == "en":
        return {msgid: msgid for msgid in template_ids()}
    messages: dict[str, str] = {}
    for message in _read(po_path(lang), lang):
        if not message.id or message.fuzzy or not isinstance(message.id, str):
            continue
        if isinstance(message.string, str) and message.string:
            messages[message.id] = message.string
    return messages


@functools.cache
def catalog_json(lang: str) -> bytes | None:
    """The body of ``GET /i18n/{lang}.json`` (cached), or ``None`` for an unknown language.

    ``{"lang": "fa", "dir": "rtl", "messages": {"English msgid": "translation", …}}``.
    """
    if lang not in LANGS:
        return None
    body = {"lang": lang, "dir": DIRECTION[lang], "messages": catalog(lang)}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _write_if_changed(path: Path, data: bytes) -> bool:
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def update_catalogs(
    static_dir: Path = STATIC_DIR,
    locale_dir: Path = LOCALE_DIR,
    games: Sequence[type[Game]] = PAGE_GAMES,
) -> list[Path]:
    """Regenerate ``messages.pot`` from the client and merge it into every ``.po``.

    Existing translations are kept; new msgids arrive untranslated (or fuzzy when Babel finds
    a close earlier msgid); msgids no longer used are dropped.  A file is rewritten only when
    its content changes (dates included), so running it twice changes nothing.  Returns the
    paths written.
    """
    written: list[Path] = []
    template = _template(static_dir, games)
    pot = pot_path(locale_dir)
    if pot.exists():
        # Keep the old creation date unless the messages changed.
        template.creation_date = _read(pot).creation_date
        if _render(template) != pot.read_bytes():
            template.creation_date = datetime.now().astimezone()
    if _write_if_changed(pot, _render(template)):
        written.append(pot)
    for lang in TRANSLATED:
        path = po_path(lang, locale_dir)
        if path.exists():
            po = _read(path, lang)
            before = _render(po)
        else:
            po = _new_catalog(lang)
            before = b""
        po.update(template, update_creation_date=False)
        if _render(po) != before:
            po.revision_date = datetime.now().astimezone()
        if _write_if_changed(path, _render(po)):
            written.append(path)
    catalog.cache_clear()
    catalog_json.cache_clear()
    return written


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing ``check`` found: ``lang`` ("" for the template), the msgid and what is wrong."""

    lang: str
    msgid: str
    issue: str

    def __str__(self) -> str:
        where = self.lang or "messages.pot"
        return f"{where}: {self.issue}: {self.msgid!r}"


def check(
    static_dir: Path = STATIC_DIR,
    locale_dir: Path = LOCALE_DIR,
    games: Sequence[type[Game]] = PAGE_GAMES,
) -> list[Problem]:
    """Everything standing between the client and complete translations.

    The template must list exactly the client's msgids; in every catalog each of them needs a
    non-empty, non-fuzzy translation with the same ``{placeholders}``.
    """
    problems: list[Problem] = []
    wanted = extract(static_dir, games)
    have = set(template_ids(locale_dir)) if pot_path(locale_dir).exists() else set()
    problems += [Problem("", m, "not in the template") for m in wanted if m not in have]
    problems += [Problem("", m, "no longer used") for m in sorted(have - set(wanted))]
    for lang in TRANSLATED:
        path = po_path(lang, locale_dir)
        entries = {m.id: m for m in _read(path, lang) if m.id} if path.exists() else {}
        for msgid in wanted:
            message = entries.get(msgid)
            if message is None or not message.string:
                problems.append(Problem(lang, msgid, "missing"))
            elif message.fuzzy:
                problems.append(Problem(lang, msgid, "fuzzy"))
            elif not isinstance(message.string, str):
                problems.append(Problem(lang, msgid, "plural forms are not used"))
            elif placeholders(message.string) != placeholders(msgid):
                problems.append(Problem(lang, msgid, "placeholders differ"))
    return problems


# ------------------------------------------------------------------ command line


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m trumps.web.i18n {update,check,extract}``."""
    parser = argparse.ArgumentParser(prog="python -m trumps.web.i18n", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("update", help="regenerate messages.pot and merge it into every .po")
    commands.add_parser("check", help="list missing, fuzzy or broken translations (exit 1 if any)")
    commands.add_parser("extract", help="print every msgid of the client")
    args = parser.parse_args(argv)
    if args.command == "update":
        for path in update_catalogs():
            print(f"wrote {path.relative_to(_HERE)}")
        return 0
    if args.command == "extract":
        for msgid in extract():
            print(msgid)
        return 0
    problems = check()
    for problem in problems:
        print(problem)
    counts = {lang: sum(p.lang == lang for p in problems) for lang in ("", *TRANSLATED)}
    summary = ", ".join(f"{lang or 'pot'} {n}" for lang, n in counts.items())
    print(f"{len(extract())} msgids; problems: {summary}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
