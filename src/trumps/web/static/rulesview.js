// A table's rules for people: the options of a game and their values as the server's catalog
// gives them (GET /api/catalog: each option's name, default, choices and bounds, each preset's
// options), labelled in the page's language, and a short line saying which preset they are
// and what differs from it ("Classic + Points to win: 45"). The page restates no rule: the
// values come from the catalog and the server checks every table's rules.

import { listed, num, presetName, t } from "./i18n.js";

/** An option's label; the server's description for one the page does not know yet. */
export function optionLabel(option) {
  return {
    // Svoi Kozyri
    sixes_to_owner: t("Trump sixes go to their suit's owner"),
    voluntary_pickup: t("Pick up even when you can beat"),
    repetition_draw: t("A position repeated this often draws (0: never)"),
    max_plies: t("Moves after which a hand is drawn"),
    match_losses: t("Lost hands that end the match"),
    // Twenty-Five
    teams: t("Teams"),
    joker: t("Joker"),
    deal_packets: t("Packets of the deal"),
    ranking: t("Card ranking"),
    rob: t("Robbing the turn-up"),
    renege_cards: t("Trumps that may renege"),
    renege_limit: t("When they may renege"),
    points_per_trick: t("Points for each trick"),
    target: t("Points that win the game"),
    play_out_hand: t("Finish the hand after the target"),
    five_trick_bonus: t("Taking all five tricks"),
  }[option.name] ?? option.doc ?? option.name;
}

/** A value of an option, in words: yes/no, a translated choice, numbers in the page's digits. */
export function valueLabel(option, value) {
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  const word = {
    "teams=none": t("everyone alone"), "teams=2": t("pairs"), "teams=3": t("threes"),
    "ranking=classic": t("classic"), "ranking=as-written": t("as written"),
    "rob=optional": t("allowed"), "rob=mandatory": t("compulsory"), "rob=off": t("not allowed"),
    "renege_cards=top3": t("the top three"), "renege_cards=five_only": t("the five only"), "renege_cards=none": t("none"),
    "renege_limit=lower_led": t("only against a lower trump"), "renege_limit=always": t("always"),
    "five_trick_bonus=none": t("nothing extra"), "five_trick_bonus=plus10": t("10 extra points"),
    "five_trick_bonus=wins_game": t("wins the game"),
  }[`${option.name}=${value}`];
  return word ?? num(value);
}

/** The catalog's preset of a game by name or alias, or null. */
export function presetOf(game, name) {
  return game.presets.find((p) => p.name === name || p.aliases.includes(name)) ?? null;
}

/** Every option's value under a preset: the defaults with the preset's own options over them. */
export function presetValues(game, preset) {
  return Object.fromEntries(game.options.map((o) => [o.name, o.name in (preset?.options ?? {}) ? preset.options[o.name] : o.default]));
}

/** Every option's value for `rules` as a message carries them: a preset's name, or options over
 *  a preset (`"preset"`, else the game's default) — a table's full rules are the latter too. */
export function resolve(game, rules) {
  const named = typeof rules === "string" ? rules : rules?.preset ?? game.default_preset;
  const values = presetValues(game, presetOf(game, named));
  if (rules && typeof rules === "object") {
    for (const o of game.options) if (o.name in rules) values[o.name] = rules[o.name];
  }
  return values;
}

const same = (a, b) => a === b;

/** The options whose values differ from the preset's. */
export function changesFrom(game, preset, values) {
  const base = presetValues(game, preset);
  return game.options.filter((o) => !same(values[o.name], base[o.name]));
}

/** The preset the rules are written over: the one they name, else the one they differ least
 *  from (a table's rules are its full options, named by no preset). */
export function basePreset(game, rules) {
  if (typeof rules === "string") return presetOf(game, rules);
  if (rules?.preset) return presetOf(game, rules.preset);
  const values = resolve(game, rules);
  let best = presetOf(game, game.default_preset);
  for (const p of game.presets) {
    if (changesFrom(game, p, values).length < changesFrom(game, best, values).length) best = p;
  }
  return best;
}

/** "Classic" or "Classic + Points that win the game: 45, Joker: yes": a table's rules in a
 *  short line, in the page's language. */
export function rulesLine(game, rules) {
  if (!game) return typeof rules === "string" ? presetName(rules) : t("custom rules");
  const preset = basePreset(game, rules);
  const name = preset ? presetName(preset.name, preset) : t("custom rules");
  const values = resolve(game, rules);
  const changes = changesFrom(game, preset, values).map((o) => t("{rule}: {value}", { rule: optionLabel(o), value: valueLabel(o, values[o.name]) }));
  return changes.length ? [name, " + ", ...listed(changes)].join("") : name;
}
