"""Rule options and presets, shared by both games (docs/rules/ names them; the engine
offers exactly those names): an ``Option`` checks and parses its values, a ``Preset`` is a
named set of them, and ``resolve_rules`` turns what a caller gives (a preset's name, a dict
of options, a line of ``trumps play --rules``, a position's rules) into every option's
value.  Each game lists its own options and presets in its ``options.py``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from trumps.errors import InvalidRules

__all__ = [
    "Option",
    "Preset",
    "preset_named",
    "resolve_rules",
    "rules_from_json",
    "rules_from_text",
]


@dataclass(frozen=True)
class Option:
    """One rule option: its docs/rules/ name, default, the values it takes, and a summary."""

    name: str
    default: object
    doc: str
    choices: tuple[object, ...] = ()  # allowed values when the option is a choice
    minimum: int | None = None  # for whole-number options
    maximum: int | None = None

    def check(self, value: object) -> object:
        """The value if the option takes it; raises ``InvalidRules`` naming both."""
        if self.choices:
            for choice in self.choices:
                if value == choice and type(value) is type(choice):
                    return value
            shown = ", ".join(repr(c) for c in self.choices)
            raise InvalidRules(
                f"rule option {self.name!r} takes one of {shown}, not {value!r}", option=self.name
            )
        if isinstance(self.default, bool):
            if isinstance(value, bool):
                return value
            raise InvalidRules(
                f"rule option {self.name!r} takes true or false, not {value!r}", option=self.name
            )
        if isinstance(self.default, int):
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidRules(
                    f"rule option {self.name!r} takes a whole number, not {value!r}",
                    option=self.name,
                )
            if self.minimum is not None and value < self.minimum:
                raise InvalidRules(
                    f"rule option {self.name!r} must be at least {self.minimum}, not {value}",
                    option=self.name,
                )
            if self.maximum is not None and value > self.maximum:
                raise InvalidRules(
                    f"rule option {self.name!r} must be at most {self.maximum}, not {value}",
                    option=self.name,
                )
            return value
        raise AssertionError(f"option {self.name} has an unsupported default")

    def parse(self, text: str) -> object:
        """The value written as ``text`` (on a command line: ``45``, ``true``, ``as-written``),
        checked; raises ``InvalidRules`` naming the option and what it takes."""
        word = text.strip()
        if self.choices:
            for choice in self.choices:
                if word.lower() == _written(choice).lower():
                    return choice
            shown = ", ".join(_written(c) for c in self.choices)
            raise InvalidRules(
                f"rule option {self.name!r} takes one of {shown}, not {word!r}", option=self.name
            )
        if isinstance(self.default, bool):
            if word.lower() in _TRUE or word.lower() in _FALSE:
                return word.lower() in _TRUE
            raise InvalidRules(
                f"rule option {self.name!r} takes true or false, not {word!r}", option=self.name
            )
        if isinstance(self.default, int):
            try:
                number = int(word)
            except ValueError:
                raise InvalidRules(
                    f"rule option {self.name!r} takes a whole number, not {word!r}",
                    option=self.name,
                ) from None
            return self.check(number)
        raise AssertionError(f"option {self.name} has an unsupported default")


_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _written(value: object) -> str:
    """An option value as it is written on a command line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class Preset:
    """A named set of rule options (docs/rules/options.md, §2.7), maybe with a player count."""

    name: str
    doc: str
    options: Mapping[str, object] = field(default_factory=dict)
    players: int | None = None
    #: Earlier names still accepted for this preset (docs/rules/options.md: ``seed`` for ``standard``).
    aliases: tuple[str, ...] = ()


def preset_named(presets: Mapping[str, Preset], name: object) -> Preset | None:
    """The preset called ``name`` or known by it as an alias, or None."""
    if not isinstance(name, str):
        return None
    if name in presets:
        return presets[name]
    for preset in presets.values():
        if name in preset.aliases:
            return preset
    return None


def resolve_rules(
    game_id: str,
    options: Mapping[str, Option],
    presets: Mapping[str, Preset],
    default_preset: str,
    rules: str | Mapping[str, object] | None,
) -> tuple[dict[str, object], int | None]:
    """Every option's value for ``rules``, and the preset's player count if it has one.

    ``rules`` is a preset name, a dict of options over the default preset (it may hold
    ``"preset": NAME`` to start from another preset), or None for the default preset.
    """
    try:  # the same rules again (every new game of a benchmark, an arena, a server)
        key = (game_id, id(options), id(presets), default_preset, _rules_key(rules))
        known = _RESOLVED.get(key)
    except TypeError:  # an unhashable value: checked the long way (and refused there)
        key, known = None, None
    if known is not None:
        return dict(known[0]), known[1]
    resolved = _resolve_rules(game_id, options, presets, default_preset, rules)
    if key is not None:
        if len(_RESOLVED) >= 512:
            _RESOLVED.clear()
        _RESOLVED[key] = (dict(resolved[0]), resolved[1])
    return resolved


_RESOLVED: dict[tuple[Any, ...], tuple[dict[str, object], int | None]] = {}


def _rules_key(rules: object) -> object:
    if rules is None or isinstance(rules, str):
        return rules
    if isinstance(rules, dict):
        return tuple((k, type(v), v) for k, v in rules.items())
    raise TypeError("not cached")


def _resolve_rules(
    game_id: str,
    options: Mapping[str, Option],
    presets: Mapping[str, Preset],
    default_preset: str,
    rules: str | Mapping[str, object] | None,
) -> tuple[dict[str, object], int | None]:
    if rules is None:
        rules = default_preset
    if isinstance(rules, str):
        rules = {"preset": rules}
    if not isinstance(rules, Mapping):
        raise InvalidRules(f"rules must be a preset name or a dict of options, not {rules!r}")
    preset_name = rules.get("preset", default_preset)
    preset = preset_named(presets, preset_name)
    if preset is None:
        raise InvalidRules(
            f"{game_id} has no rule preset {preset_name!r} (presets: {', '.join(presets)})"
        )
    out = {name: opt.default for name, opt in options.items()}
    out.update(preset.options)
    for name, value in rules.items():
        if name == "preset":
            continue
        if name not in options:
            raise InvalidRules(
                f"{game_id} has no rule option {name!r} (options: {', '.join(options)})",
                option=name,
            )
        out[name] = options[name].check(value)
    return out, preset.players


def rules_from_text(
    game_id: str,
    options: Mapping[str, Option],
    presets: Mapping[str, Preset],
    default_preset: str,
    text: str,
) -> str | dict[str, object]:
    """Rules written on one line (``trumps play --rules``): a preset, options ``NAME=VALUE``
    over the default preset, or both, separated by commas: ``classic``, ``target=45``,
    ``classic,target=45,joker=true``.  Returns what ``resolve_rules`` takes (the preset's
    name alone, or an options dict with its ``"preset"``), checked; raises
    ``InvalidRules`` with one line naming the preset or option and what is allowed."""
    preset: str | None = None
    chosen: dict[str, object] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, eq, value = (x.strip() for x in part.partition("="))
        if not eq:
            if preset is not None:
                raise InvalidRules(f"give one rule preset, not {preset!r} and {part!r}")
            found = preset_named(presets, part)
            if found is None:
                raise InvalidRules(
                    f"{game_id} has no preset {part!r} (presets: {', '.join(presets)})"
                )
            preset = found.name
            continue
        if name not in options:
            raise InvalidRules(
                f"{game_id} has no rule option {name!r} (options: {', '.join(options)})",
                option=name,
            )
        if name in chosen:
            raise InvalidRules(f"rule option {name!r} is given twice")
        chosen[name] = options[name].parse(value)
    if not chosen:
        return preset or default_preset
    rules: dict[str, object] = {"preset": preset or default_preset, **chosen}
    resolve_rules(game_id, options, presets, default_preset, rules)
    return rules


def rules_from_json(
    game_id: str,
    options: Mapping[str, Option],
    presets: Mapping[str, Preset],
    default_preset: str,
    rules: object,
) -> dict[str, object]:
    """The rules of a position dict: a full or partial options dict, or a preset name."""
    if rules is not None and not isinstance(rules, (str, Mapping)):
        raise InvalidRules(f"rules must be an object of options, not {rules!r}")
    resolved, _ = resolve_rules(game_id, options, presets, default_preset, rules)
    return resolved
