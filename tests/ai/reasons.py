"""The reason codes of a hint as docs/protocol.md documents them (``hint_codes``), for the
bots' tests and the page's (tests/web/test_hint_reasons.py)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def hint_codes() -> dict[str, list[str]]:
    """The reason codes of docs/protocol.md#hint, each with its numbers."""
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    start = text.index("### hint\nThe strongest bot's choice")  # the server's message
    table = text[start : text.index("### rematch", start)]
    codes: dict[str, list[str]] = {}
    for line in table.splitlines():
        cells = line.split("|")
        if len(cells) > 3 and (m := re.fullmatch(r" `([a-z_]+)` ", cells[1])):
            codes[m.group(1)] = re.findall(r"`([a-z_]+)`", cells[2])
    return codes
