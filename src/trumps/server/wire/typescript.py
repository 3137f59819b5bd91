"""The wire protocol's messages as TypeScript declarations, made from ``protocol.py``.

The page is plain JavaScript with no build step; its JSDoc names these types
(``Proto.Welcome``, ``Proto.ClientMessage`` …) and TypeScript's checker reads the two
together (``tests/js``; docs/protocol.md#types).  The declarations are made from the
msgspec types each time they are checked, so the page is held to the protocol the server
speaks and nothing is kept in step by hand.

``python -m trumps.server.wire.typescript > protocol.d.ts`` prints them.
"""

from __future__ import annotations

import json
import sys
import types
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import msgspec.inspect as mi

from trumps.games.viewtypes import (
    HiddenHand,
    KozyriView,
    OutcomeJson,
    Robbed,
    Trick,
    TwentyFiveView,
)
from trumps.server.wire.protocol import ClientMessage, ServerMessage
from trumps.server.wire.wiretypes import PROTOCOL_VERSION

NAMESPACE = "Proto"

# The view types the protocol's ``view`` fields name (``protocol.WireView``).
VIEW_SHAPES: tuple[Any, ...] = (HiddenHand, OutcomeJson, KozyriView, Trick, Robbed, TwentyFiveView)


class _Writer:
    """Every struct reached from the two unions, each declared once under its class name."""

    def __init__(self) -> None:
        self.structs: dict[str, mi.StructType] = {}

    def type_of(self, info: mi.Type) -> str:
        """``info`` as a TypeScript type; a struct is named (and declared later)."""
        if isinstance(info, mi.Metadata):
            named = (info.extra or {}).get("typescript")  # a type declared on its own
            return str(named) if named else self.type_of(info.type)
        if isinstance(info, mi.StructType):
            name = info.cls.__name__
            known = self.structs.setdefault(name, info)
            if known.cls is not info.cls:
                raise ValueError(f"two protocol structs are named {name}")
            return name
        if isinstance(info, mi.UnionType):
            return " | ".join(self.type_of(t) for t in info.types)
        if isinstance(info, mi.LiteralType):
            return " | ".join(json.dumps(v) for v in info.values)
        if isinstance(info, mi.EnumType):
            return " | ".join(json.dumps(m.value) for m in info.cls)
        if isinstance(info, (mi.ListType, mi.SetType, mi.FrozenSetType, mi.VarTupleType)):
            return f"Array<{self.type_of(info.item_type)}>"
        if isinstance(info, mi.TupleType):
            return "[" + ", ".join(self.type_of(t) for t in info.item_types) + "]"
        if isinstance(info, mi.DictType):
            return f"{{ [key: string]: {self.type_of(info.value_type)} }}"
        simple: dict[type, str] = {
            mi.StrType: "string",
            mi.IntType: "number",
            mi.FloatType: "number",
            mi.BoolType: "boolean",
            mi.NoneType: "null",
            mi.AnyType: "any",
            mi.RawType: "any",
        }
        for kind, name in simple.items():
            if isinstance(info, kind):
                return name
        raise TypeError(f"no TypeScript type for {info!r}")

    def interface(self, info: mi.StructType) -> list[str]:
        doc = " ".join((info.cls.__doc__ or "").split()).replace("*/", "* /")
        lines = [f"  /** {doc} */"] if doc else []
        lines.append(f"  interface {info.cls.__name__} {{")
        if info.tag_field is not None:
            lines.append(f"    {info.tag_field}: {json.dumps(info.tag)};")
        for field in info.fields:
            # A field with a default may be left out by a sender (client messages).
            optional = "?" if not field.required else ""
            lines.append(f"    {field.encode_name}{optional}: {self.type_of(field.type)};")
        lines.append("  }")
        return lines


def _ts_of(tp: Any) -> str:
    """A view type's annotation (``trumps.games.viewtypes``) as a TypeScript type."""
    if tp is Any:
        return "any"
    origin, args = get_origin(tp), get_args(tp)
    if origin is Literal:
        return " | ".join(json.dumps(a) for a in args)
    if origin in (Union, types.UnionType):
        return " | ".join(_ts_of(a) for a in args)
    if origin is list:
        return f"Array<{_ts_of(args[0])}>"
    if origin is dict:
        return f"{{ [key: string]: {_ts_of(args[1])} }}"
    if is_typeddict(tp):
        return str(tp.__name__)
    simple: dict[Any, str] = {str: "string", int: "number", float: "number", bool: "boolean"}
    if tp is type(None):
        return "null"
    if tp in simple:
        return simple[tp]
    raise TypeError(f"no TypeScript type for {tp!r}")


def _view_interfaces() -> list[str]:
    """The games' view types (docs/views.md#types) as interfaces, and ``View``, either."""
    out: list[str] = []
    for shape in VIEW_SHAPES:
        doc = " ".join((shape.__doc__ or "").split()).replace("*/", "* /")
        out += [f"  /** {doc} */", f"  interface {shape.__name__} {{"]
        for key, tp in get_type_hints(shape).items():
            optional = "" if key in shape.__required_keys__ else "?"
            out.append(f"    {key}{optional}: {_ts_of(tp)};")
        out.append("  }")
    out.append("  /** A view of either game; its ``game`` says which. */")
    out.append("  type View = KozyriView | TwentyFiveView;")
    return out


def _tags(union: object) -> dict[str, str]:
    """Each message's tag and class name, in the union's order."""
    return {str(c.__struct_config__.tag): c.__name__ for c in get_args(union)}


def declarations() -> str:
    """The protocol as one TypeScript declaration file (namespace ``Proto``)."""
    writer = _Writer()
    unions = {"ClientMessage": ClientMessage, "ServerMessage": ServerMessage}
    union_types = {name: writer.type_of(mi.type_info(u)) for name, u in unions.items()}
    done: set[str] = set()
    body: list[str] = []
    while len(done) < len(writer.structs):  # declaring one can reach more
        for name in sorted(set(writer.structs) - done):
            body += writer.interface(writer.structs[name])
            done.add(name)
    out = [
        "// The trumps wire protocol, version "
        f"{PROTOCOL_VERSION}: made by `python -m trumps.server.wire.typescript`",
        "// from src/trumps/server/wire/protocol.py. Do not edit; do not commit.",
        f"declare namespace {NAMESPACE} {{",
        f"  const PROTOCOL: {PROTOCOL_VERSION};",
        *body,
        *_view_interfaces(),
    ]
    for name, text in union_types.items():
        out.append(f"  type {name} = {text};")
    for side, union in (("Server", ServerMessage), ("Client", ClientMessage)):
        out.append(f"  /** Each {side.lower()} message by its ``type``. */")
        out.append(f"  interface {side}Messages {{")
        out += [f"    {tag}: {cls};" for tag, cls in _tags(union).items()]
        out.append("  }")
    out += [
        "  /** Handlers of server messages, each given its own type. */",
        "  type Handlers = { [K in keyof ServerMessages]?: (m: ServerMessages[K]) => void };",
        "}",
        "",
    ]
    return "\n".join(out)


def main() -> None:
    """Print the declarations (``python -m trumps.server.wire.typescript``)."""
    sys.stdout.write(declarations())


if __name__ == "__main__":
    main()
