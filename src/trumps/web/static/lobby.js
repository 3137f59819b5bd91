// The lobby: your name and account, one-click play against the computer, the public tables
// (join, watch, quick match), your open tables and the form to create a table. Rated games
// (docs/ratings.md) are for accounts: a guest sees the Rated choices off, with the reason.

import { bdi, el, fill, load, put, save, select } from "./dom.js";
import { botName, errorText, gameName, lang, listed, levelName, num, personName, plural, presetName, t } from "./i18n.js";
import { botPace } from "./trickview.js";
import { changesFrom, optionLabel, presetOf, resolve, rulesLine, valueLabel } from "./rulesview.js";
import { sessionsBox } from "./sessions.js";
import { ratedBadge, ratedChoice } from "./ratings.js";

// The games, their player counts and presets, and the bot levels come from the server
// (GET /api/catalog, loaded by app.js): the page keeps no copy of them.
const games = () => ctx.catalog?.games ?? [];
const levels = () => ctx.catalog?.levels ?? [];
const gameInfo = (id) => games().find((g) => g.id === id) ?? games()[0];
const gameOptions = () => games().map((g) => [g.id, gameName(g.id, g.title)]);
const levelOptions = () => levels().map((l) => [l.level, levelName(l.level, l.name)]);
/** A preset's label: the translated name, else the server's own description. */
const presetLabel = (p) => presetName(p.name, p);
/** value if it is one of the options, else the first option's value. */
const oneOf = (options, value) => (options.some(([v]) => v === value) ? value : options[0]?.[0]);
const CLOCKS = ["none", "1+2", "3+2", "5+5", "10+5", "20+10"]; // minutes + seconds per move
const GRACES = [0, 15, 30, 60, 120, 300, 600]; // seconds a lost connection is waited for

/** @type {import("./app.js").Context} */
let ctx = null; // {send, state, status, openTable, api, adopt, logout, rename, catalog, reloadCatalog}
let parts = null;

function loadPrefs() {
  try {
    return { game: "kozyri", players: 2, level: "medium", ...JSON.parse(load("prefs") ?? "{}") };
  } catch {
    return { game: "kozyri", players: 2, level: "medium" };
  }
}
const prefs = loadPrefs();
const keepPrefs = () => save("prefs", JSON.stringify(prefs));
/** Signed in to an account (rated games are for accounts). */
const signedIn = () => !!ctx.state.account;

const range = (lo, hi) => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
const clockLabel = (c) => (c === "none" ? t("no clock") : t("{m} min + {s} s per move", { m: Number(c.split("+")[0]), s: Number(c.split("+")[1]) }));

/** Build the lobby into root (again after a language change). */
export function mountLobby(root, context) {
  ctx = context;
  parts = { tables: el("div", { class: "table-list" }), mine: el("div", { class: "box", hidden: true }) };
  if (!games().length) {
    // Without the catalog there is nothing to offer: say so, and offer to try again.
    put(root,
      el("div", { class: "lobby-grid" },
        el("section", { class: "box", testid: "catalog-error", role: "alert" },
          el("h2", {}, t("The games could not be loaded")),
          el("p", {}, t("The server did not send the list of games, so no table can be started yet.")),
          el("button", { type: "button", class: "primary", onclick: () => ctx.reloadCatalog() }, t("Try again"))),
        profileBox()));
    return;
  }
  put(root,
    el("div", { class: "lobby-grid" },
      load("named") ? null : welcomeBox(),
      computerBox(), parts.mine, el("section", { class: "box" },
        el("h2", {}, t("Public tables")), parts.tables, quickMatch()),
      createBox(), profileBox()));
  renderTables();
  renderMine();
}

// ------------------------------------------------------------------ play the computer

function computerBox() {
  const game = select({ id: "pc-game", testid: "pc-game" }, gameOptions(), oneOf(gameOptions(), prefs.game));
  const players = el("select", { id: "pc-players", testid: "pc-players" });
  const level = select({ id: "pc-level", testid: "pc-level" }, levelOptions(), oneOf(levelOptions(), prefs.level));
  // want: the count to show (the saved one at first, the game's default on a change).
  const fillPlayers = (want) => {
    const g = gameInfo(game.value);
    const lo = g.min_players;
    const hi = g.max_players;
    put(players, ...range(lo, hi).map((n) => el("option", { value: n }, num(n))));
    players.value = String(Math.min(hi, Math.max(lo, Number(want) || g.default_players)));
  };
  fillPlayers(prefs.players);
  game.addEventListener("change", () => fillPlayers(gameInfo(game.value).default_players));
  const rated = ratedChoice("pc-rated", { account: signedIn(), checked: prefs.rated,
    note: t("Rated against the bots' fixed ratings, with a clock: running out of time loses.") });
  return el("section", { class: "box hero" },
    el("h2", {}, t("Play the computer")),
    el("div", { class: "fields" },
      el("label", { for: "pc-game" }, t("Game")), game,
      el("label", { for: "pc-players" }, t("Players")), players,
      el("label", { for: "pc-level" }, t("Level")), level),
    rated.node,
    el("button", { type: "button", class: "primary big", testid: "play-computer", onclick: () => {
      Object.assign(prefs, { game: game.value, players: Number(players.value), level: level.value });
      if (signedIn()) prefs.rated = rated.rated();
      keepPrefs();
      ctx.send({ type: "play_computer", game: game.value, players: Number(players.value), level: level.value,
        bot_pace: botPace(), rated: rated.rated() });
    } }, t("Play")));
}

// ------------------------------------------------------------------ public tables

function seatsText(seats) {
  // (a taken seat without a name: a person who chose none, "Guest" in my language)
  return seats.map((s) => (s.bot ? botName(s) : s.name || s.taken ? personName(s.name) : t("open seat")));
}

const LOBBY_PAGE = 50; // tables in one table_list (the server's lobby.LOBBY_PAGE)

/** "Tables 51–100 of 130" with Previous and Next, when the list has more than one page. */
function pager(list) {
  const { offset, total } = ctx.state.lobbyPage ?? { offset: 0, total: list.length };
  if (offset === 0 && list.length >= total) return null;
  const ask = (at) => ctx.send({ type: "list_tables", offset: at });
  return el("div", { class: "inline", testid: "lobby-pager" },
    el("span", { class: "note" }, t("Tables {from}–{to} of {total}", { from: offset + 1, to: offset + list.length, total })),
    el("button", { type: "button", disabled: offset === 0, onclick: () => ask(Math.max(0, offset - LOBBY_PAGE)) }, t("Previous")),
    el("button", { type: "button", disabled: offset + list.length >= total, onclick: () => ask(offset + list.length) }, t("Next")));
}

export function renderTables() {
  if (!parts) return;
  const list = ctx.state.lobby;
  if (!list.length) {
    const { offset } = ctx.state.lobbyPage ?? { offset: 0 };
    // A page emptied under us (tables ended): back to the first one.
    if (offset > 0) ctx.send({ type: "list_tables" });
    put(parts.tables, el("p", { class: "note" }, t("No public tables right now. Create one below!")));
    return;
  }
  put(parts.tables, pager(list), el("ul", { class: "plain rows" }, list.map((ts) => {
    const mine = ctx.state.tables.get(ts.table_id);
    const info = games().find((g) => g.id === ts.game);
    const rules = el("span", { class: "rules-line", testid: "table-rules" }, rulesLine(info, ts.rules));
    const clock = ts.time_control
      ? t("{m} min + {s} s per move", { m: +(ts.time_control.base / 60).toFixed(1), s: ts.time_control.increment ?? 0 })
      : t("no clock");
    return el("li", { class: "row" },
      el("div", {},
        el("strong", {}, gameName(ts.game)), " · ", ts.rated ? [ratedBadge(), " · "] : null, rules, " · ", clock,
        el("div", { class: "note" }, listed(seatsText(ts.seats).map((x) => bdi(x))),
          " — ", ts.started ? t("playing") : plural(ts.open_seats, t("{n} open seat"), t("{n} open seats")))),
      // Join only where a seat is free for you; every listed table can be watched.
      el("div", { class: "inline" },
        // (a rated table seats accounts only)
        ts.open_seats > 0 && !(mine && mine.seat !== null) && (signedIn() || !ts.rated)
          ? el("button", { type: "button", class: "primary", onclick: () => ctx.send({ type: "join_table", table_id: ts.table_id }) }, t("Join"))
          : null,
        el("button", { type: "button", onclick: () => ctx.send({ type: "spectate", table_id: ts.table_id }) }, t("Watch"))));
  })));
}

function quickMatch() {
  const game = select({ id: "qm-game" }, gameOptions(), oneOf(gameOptions(), prefs.game));
  parts.quick = el("div", { class: "inline quick" });
  parts.quickGame = game;
  // Rated for an account unless it asks for a casual game; casual for a guest.
  parts.quickRated = ratedChoice("qm-rated", { account: signedIn(), checked: true,
    note: t("Quick match is rated, with a clock: untick Rated for a casual game.") });
  renderQuick();
  return el("div", {}, parts.quick, parts.quickRated.note);
}

/** The quick-match line: a game and "Find an opponent", or "Waiting…" with Cancel. */
export function renderQuick() {
  if (!parts?.quick) return;
  const waiting = ctx.state.waiting;
  parts.quickRated.input.disabled = !signedIn() || !!waiting;
  put(parts.quick,
    el("label", { for: "qm-game" }, t("Quick match")), parts.quickGame, parts.quickRated.check,
    waiting
      ? [el("span", { class: "note", role: "status", testid: "qm-waiting" },
        waiting.rated ? t("Waiting for an opponent for a rated game…") : t("Waiting for an opponent for a casual game…")),
        el("button", { type: "button", onclick: () => {
          ctx.send({ type: "cancel_quick_match" });
          ctx.state.waiting = null;
          renderQuick();
        } }, t("Cancel"))]
      : el("button", { type: "button", testid: "quick-match", onclick: () => ctx.send({ type: "quick_match",
        game: parts.quickGame.value, rated: signedIn() ? parts.quickRated.rated() : null }) },
      t("Find an opponent")));
}

/** The tables where I sit or watch, with a button to open each. */
export function renderMine() {
  if (!parts) return;
  const tables = [...ctx.state.tables.values()];
  parts.mine.hidden = tables.length === 0;
  put(parts.mine, el("h2", {}, t("Your tables")), el("ul", { class: "plain rows" }, tables.map((tb) => {
    const state = tb.outcome ? t("finished") : tb.to_move === null ? t("waiting for players")
      : tb.to_move === tb.seat ? t("your turn") : t("playing");
    return el("li", { class: "row" },
      el("span", {}, el("strong", {}, gameName(tb.game)), " · ", tb.seat === null ? t("watching") : state),
      el("button", { type: "button", onclick: () => ctx.openTable(tb.id) }, t("Open")));
  })));
}

// ------------------------------------------------------------------ create a table

/** Digits as typed (Persian or Arabic-Indic ones too) in Latin, for a number field. */
const latinDigits = (text) => text.trim().replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
  .replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x0660));

/** One field of the rules editor for a catalog option: a choice, a yes/no box or a whole
 *  number (written in the page's digits). `get()` is the value to send, as the option takes it. */
function ruleField(option, onChange) {
  const id = `rule-${option.name}`;
  let input;
  let get;
  let set;
  if (option.choices.length) {
    input = el("select", { id, testid: id }, option.choices.map((c, i) => el("option", { value: String(i) }, valueLabel(option, c))));
    get = () => option.choices[Number(input.value)];
    set = (v) => { input.value = String(Math.max(0, option.choices.findIndex((c) => c === v))); };
  } else if (typeof option.default === "boolean") {
    input = el("input", { id, testid: id, type: "checkbox" });
    get = () => input.checked;
    set = (v) => { input.checked = Boolean(v); };
  } else {
    // Text with a numeric keyboard, not type=number: its digits follow the language.
    input = el("input", { id, testid: id, inputmode: "numeric", autocomplete: "off", maxlength: 9 });
    get = () => { const text = latinDigits(input.value); return /^\d+$/.test(text) ? Number(text) : input.value.trim(); };
    set = (v) => { input.value = num(v); };
    // Once typed, a number is shown again in the page's digits (Persian ones in Persian).
    input.addEventListener("change", () => { const v = get(); if (typeof v === "number") set(v); });
  }
  input.addEventListener(input.tagName === "SELECT" || input.type === "checkbox" ? "change" : "input", onChange);
  const label = el("label", { for: id }, optionLabel(option));
  const node = typeof option.default === "boolean" && !option.choices.length
    ? el("p", { class: "check rule", "data-option": option.name }, input, " ", label)
    : el("div", { class: "rule", "data-option": option.name }, label, input);
  return { option, input, get, set, node };
}

/** The form's error line for a refused create_table (`bad_rules`): the option at fault named
 *  and marked, in the page's language; null if the error is not about the form. */
let createError = null;

let creating = false; // a create_table of the form is unanswered

/** A bad_rules error: if it answers the form, say why there, mark the option and keep the
 *  form as it is (true); else false. */
export function showCreateError(m) {
  if (!creating || !createError) return false;
  creating = false;
  createError(m);
  return true;
}

/** A table opened: the form's request (if any) was answered. */
export function createAnswered() {
  creating = false;
}

function createBox() {
  const f = {};
  f.game = select({ id: "create-game", testid: "create-game" }, gameOptions(), oneOf(gameOptions(), prefs.game));
  f.preset = el("select", { id: "create-preset", testid: "create-preset" });
  f.count = el("select", { id: "create-seats", testid: "create-seats" });
  f.seats = el("ol", { class: "seat-list" });
  f.clock = select({ id: "create-clock", testid: "create-clock" }, CLOCKS.map((c) => [c, clockLabel(c)]), "none");
  f.timeout = select({ id: "create-timeout" }, [["move", t("a bot makes a move")], ["forfeit", t("the game is lost")]], "move");
  // A choice, not a number field: its figures follow the language (Persian digits).
  f.grace = select({ id: "create-grace", testid: "create-grace" }, GRACES.map((g) => [String(g), num(g)]), "30");
  f.takeover = select({ id: "create-takeover" }, levelOptions(), oneOf(levelOptions(), "medium"));
  f.pace = select({ id: "create-pace", testid: "create-pace" },
    Object.keys(ctx.catalog?.paces ?? { normal: 0 }).map((p) => [p, paceName(p)]), botPace());
  f.private = el("input", { id: "create-private", testid: "create-private", type: "checkbox" });
  f.rated = ratedChoice("create-rated", { account: signedIn(), checked: prefs.createRated,
    note: t("A rated table always has a clock (the server's own if you choose none), and running out of time loses the game.") });
  // The server forfeits a rated game whose clock runs out: the form says so in its choice.
  const ratedRules = () => {
    const on = f.rated.rated();
    if (on) f.timeout.value = "forfeit";
    f.timeout.disabled = on;
  };
  f.rated.input.addEventListener("change", ratedRules);
  ratedRules();
  f.rules = el("div", { class: "rule-list", testid: "rules-editor" });
  f.error = el("p", { class: "form-error", testid: "create-error", role: "alert", hidden: true });
  let fields = [];
  let base = null; // the preset the editor started from (custom rules are sent over it)

  const seatSelect = (i, value) => select({ id: `seat-${i}`, testid: `seat-${i}` },
    [["human", i === 0 ? t("you") : t("a person")], ...levels().map((l) => [l.level, t("{level} bot", { level: levelName(l.level, l.name) })])], value);
  const fillSeats = () => {
    const old = [...f.seats.querySelectorAll("select")].map((s) => s.value);
    const n = Number(f.count.value);
    put(f.seats, ...range(0, n - 1).map((i) => el("li", {},
      el("label", { for: `seat-${i}` }, t("Seat {n}", { n: i + 1 })), seatSelect(i, old[i] ?? (i === 0 ? "human" : "medium")))));
  };
  const setCount = (n) => {
    const g = gameInfo(f.game.value);
    f.count.value = String(Math.min(g.max_players, Math.max(g.min_players, n)));
    fillSeats();
  };
  const clearError = () => {
    f.error.hidden = true;
    for (const x of fields) x.input.removeAttribute("aria-invalid");
  };
  const values = () => Object.fromEntries(fields.map((x) => [x.option.name, x.get()]));
  const presetOptions = (g, custom) => [
    ...g.presets.map((p) => el("option", { value: p.name }, presetLabel(p))),
    custom ? el("option", { value: "custom" }, t("custom rules")) : null];
  // An option changed: the rules are a preset's if they are all its values, else custom.
  const edited = () => {
    clearError();
    const g = gameInfo(f.game.value);
    const now = values();
    const match = g.presets.find((p) => changesFrom(g, p, now).length === 0);
    put(f.preset, ...presetOptions(g, !match));
    f.preset.value = match ? match.name : "custom";
  };
  // A preset chosen: the editor shows its values.
  const fillRules = () => {
    const g = gameInfo(f.game.value);
    base = presetOf(g, f.preset.value) ?? base;
    const chosen = resolve(g, base?.name ?? g.default_preset);
    fields = g.options.map((o) => ruleField(o, edited));
    for (const x of fields) x.set(chosen[x.option.name]);
    put(f.rules, ...fields.map((x) => x.node));
  };
  const fillGame = () => {
    const g = gameInfo(f.game.value);
    put(f.preset, ...presetOptions(g, false));
    f.preset.value = g.default_preset;
    base = presetOf(g, g.default_preset);
    fillRules();
    const was = Number(f.count.value) || g.default_players;
    put(f.count, ...range(g.min_players, g.max_players).map((n) => el("option", { value: n }, num(n))));
    setCount(was);
  };
  // A preset made for a number of players (pagat: four) seats that many.
  f.preset.addEventListener("change", () => {
    clearError();
    if (f.preset.value === "custom") return;
    const g = gameInfo(f.game.value);
    const p = presetOf(g, f.preset.value);
    put(f.preset, ...presetOptions(g, false));
    f.preset.value = p.name;
    fillRules();
    setCount(p?.players ?? Number(f.count.value));
  });
  f.game.addEventListener("change", () => { clearError(); f.count.value = ""; fillGame(); });
  f.count.addEventListener("change", () => { clearError(); fillSeats(); });
  fillGame();

  let sent = null; // the rules values of the last request, to word its error
  createError = (m) => {
    const g = gameInfo(f.game.value);
    const at = m.rule ? fields.find((x) => x.option.name === m.rule.option) : null;
    const value = at ? valueLabel(at.option, sent?.[at.option.name] ?? at.get()) : "";
    const fits = m.rule?.fits ?? [];
    let text = errorText("bad_rules");
    if (at && fits.length) {
      text = t("{rule}: “{value}” does not fit {n} players; it needs {counts} players.", {
        rule: optionLabel(at.option), value, n: Number(f.count.value), counts: either(fits.map(num)) });
    } else if (at) {
      text = t("{rule}: “{value}” is not possible in {game}.", { rule: optionLabel(at.option), value, game: gameName(g.id) });
    }
    f.error.textContent = text;
    f.error.hidden = false;
    if (at) {
      at.input.setAttribute("aria-invalid", "true");
      f.more.open = true;
    }
  };

  const submit = (e) => {
    e.preventDefault();
    clearError();
    const g = gameInfo(f.game.value);
    sent = values();
    let rules = f.preset.value;
    if (rules === "custom") { // the options that differ from the preset the editor started from
      rules = { preset: base.name };
      for (const o of changesFrom(g, base, sent)) rules[o.name] = sent[o.name];
    }
    /** @type {Proto.CreateTable} */
    const msg = {
      type: "create_table", game: f.game.value, rules,
      seats: [...f.seats.querySelectorAll("select")].map((s) => s.value),
      private: f.private.checked, grace: Math.max(0, Number(f.grace.value) || 0), takeover: f.takeover.value,
      bot_pace: f.pace.value, rated: f.rated.rated(),
    };
    if (signedIn()) {
      prefs.createRated = f.rated.rated();
      keepPrefs();
    }
    if (f.clock.value !== "none") {
      const [m, s] = f.clock.value.split("+").map(Number);
      msg.time_control = { base: m * 60, increment: s };
      msg.on_timeout = f.timeout.value;
    }
    creating = ctx.send(msg) !== false;
  };
  const row = (id, label, input) => [el("label", { for: id }, label), input];
  f.more = el("details", { testid: "create-more" }, el("summary", {}, t("More options")),
    el("div", { class: "fields stacked" }, // long labels: each above its field
      row("create-pace", t("Bots' pace"), f.pace),
      row("create-timeout", t("When a clock runs out"), f.timeout),
      row("create-grace", t("Seconds to wait for a lost connection"), f.grace),
      row("create-takeover", t("Bot that plays for an absent player"), f.takeover)),
    el("fieldset", {}, el("legend", {}, t("Rules of the game")), f.rules));
  return el("form", { class: "box", testid: "create-form", onsubmit: submit },
    el("h2", {}, t("Create a table")),
    el("div", { class: "fields" },
      row("create-game", t("Game"), f.game), row("create-preset", t("Rules"), f.preset),
      row("create-seats", t("Seats"), f.count)),
    el("fieldset", {}, el("legend", {}, t("Who sits where")), f.seats),
    el("div", { class: "fields" }, row("create-clock", t("Clock"), f.clock)),
    el("p", { class: "check" }, f.private, " ", el("label", { for: "create-private" }, t("Private: only people with the invite link can join"))),
    f.rated.node,
    f.more, f.error,
    el("button", { type: "submit", class: "primary", testid: "create-submit" }, t("Create the table")));
}

/** "4, 6, 8 or 10" in the page's language. */
function either(items) {
  try {
    return new Intl.ListFormat(lang(), { type: "disjunction" }).format(items);
  } catch {
    return items.join(", ");
  }
}

/** A bot pace's name (the catalog's `paces`: docs/protocol.md#pacing). */
function paceName(pace) {
  return { normal: t("like a person"), fast: t("fast"), instant: t("at once") }[pace] ?? pace;
}

// ------------------------------------------------------------------ name and account

/** A first visit: ask for the name the other players will see (until one is chosen). */
function welcomeBox() {
  const name = el("input", { id: "welcome-name", testid: "welcome-name", maxlength: 32, autocomplete: "nickname", required: true });
  const box = el("form", { class: "box hero", testid: "welcome", onsubmit: (e) => {
    e.preventDefault();
    if (name.value.trim()) ctx.rename(name.value.trim());
  } },
    el("h2", {}, t("Welcome!")),
    el("p", {}, t("What should the other players call you? You can change it later.")),
    el("p", { class: "inline" }, el("label", { for: "welcome-name" }, t("Your name")), name,
      el("button", { type: "submit", class: "primary", testid: "welcome-save" }, t("Start"))));
  queueMicrotask(() => name.focus());
  return box;
}

function profileBox() {
  const S = ctx.state;
  // No name chosen: the field is empty, its placeholder the default others see ("Guest").
  const name = el("input", { id: "name-input", testid: "name-input", maxlength: 32, value: S.name ?? "",
    placeholder: t("Guest"), autocomplete: "nickname" });
  const nameForm = el("form", { class: "inline", onsubmit: (e) => {
    e.preventDefault();
    if (name.value.trim()) ctx.rename(name.value.trim()); // (blank: the name stays as it is)
  } },
    el("label", { for: "name-input" }, t("Your name")), name,
    el("button", { type: "submit", testid: "name-save" }, t("Save")));
  const account = S.account
    ? el("div", {}, el("p", { class: "inline" }, fill(t("Logged in as {login}."), { login: bdi(S.account) }),
      el("a", { href: `#player/${S.playerId}`, testid: "my-profile" }, t("Your profile and ratings")),
      el("button", { type: "button", testid: "logout", onclick: () => ctx.logout() }, t("Log out"))),
    sessionsBox(ctx))
    : el("details", {}, el("summary", {}, t("Register or log in to keep your games on every device")),
      accountForm("register"), accountForm("login"));
  return el("section", { class: "box" }, el("h2", {}, t("You")), nameForm, account);
}

function accountForm(kind) {
  // A refusal is said in the form, under the field at fault (the password, the login) or
  // under the button, tied to the field (aria-describedby); what was typed stays to fix.
  const ids = { login: `${kind}-login-error`, password: `${kind}-password-error`, form: `${kind}-error` };
  const errors = Object.fromEntries(Object.entries(ids).map(([field, id]) =>
    [field, el("p", { class: "form-error", id, testid: id, role: "alert", hidden: true })]));
  const login = el("input", { name: "login", required: true, autocomplete: "username", minlength: 3, maxlength: 32 });
  const password = el("input", { name: "password", type: "password", required: true,
    autocomplete: kind === "register" ? "new-password" : "current-password" });
  const fields = { login, password };
  const clear = () => {
    for (const box of Object.values(errors)) put(box).hidden = true;
    for (const input of Object.values(fields)) {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
    }
  };
  const refuse = (field, text, detail = null) => {
    clear();
    put(errors[field], text, detail ? el("small", {}, ` (${detail})`) : null).hidden = false;
    const input = fields[field];
    if (input) {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", ids[field]);
    }
  };
  const submit = async (e) => {
    e.preventDefault();
    clear();
    try {
      const body = { login: login.value.trim(), password: password.value };
      if (kind === "register") body.name = ctx.state.name || body.login;
      // Registering with the guest's token as Bearer turns the guest into the account;
      // logging in with it ends the guest's session (the server makes a new one).
      const data = await ctx.api(kind === "register" ? "/api/accounts" : "/api/login",
        { method: "POST", body, auth: true });
      password.value = "";
      ctx.adopt(data, kind === "register");
    } catch (err) {
      if (err.code === "weak_password") {
        refuse("password", t("That password is too easy to guess: use a longer one, or several words that do not go together."));
      } else if (err.status === 409) {
        refuse("login", t("That login is taken."));
      } else if (err.status === 429) {
        refuse("form", t("Too many tries: wait a minute."));
      } else if (err.status === 401) {
        refuse("form", t("Wrong login or password."));
      } else { // something unexpected: the server's own words too, in smaller print
        refuse("form", kind === "register" ? t("Registration failed.") : t("Login failed."), err.message);
      }
    }
  };
  return el("form", { class: "stack", onsubmit: submit },
    el("h3", {}, kind === "register" ? t("Register") : t("Log in")),
    el("label", {}, t("Login"), " ", login), errors.login,
    el("label", {}, t("Password"), " ", password), errors.password,
    el("button", { type: "submit" }, kind === "register" ? t("Register") : t("Log in")), errors.form);
}
