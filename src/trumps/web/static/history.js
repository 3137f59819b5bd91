// Your finished games (GET /api/games?mine=1; with the page's own engine, the games kept
// on this device, asked of it the same way), each rated one with what it did to your
// rating, a link to your profile (an account's), and a replay stepping through every position
// (GET /api/games/{id}/replay), drawn like the live table with every hand face up. Played
// (the Play button), it moves at the server's bot pace (GET /api/catalog `paces`,
// docs/protocol.md#pacing): a hold after each finished trick or hand, as the live table.
// Under it, the game's analysis (analysisview.js): the Analyse button, then the marked moves
// and the evaluation graph; the mark of the move that led to the position shown is beside it.

import { checkRecord, fairText } from "./fairdeal.js";
import { bdi, el, put } from "./dom.js";
import { gameName, listed, storedName, t } from "./i18n.js";
import { actionNodes, centreNode, outcomeNodes, seatBox, seatCount } from "./board.js";
import { animSpeed } from "./trickview.js";
import { changeNodes, myChange, ratedBadge } from "./ratings.js";
import { AnalysisView, markBadge } from "./analysisview.js";
import { recordLink } from "./records.js";
import { listGames } from "./offline/games.js";

const PAGE = 20;
/** @type {import("./app.js").Context} */
let ctx = null; // {api, status}
let parts = null;
let offset = 0;
let replay = null; // {id, record, positions, closed, i, playing, fair, analysis (an AnalysisView)}
let playTimer = 0;

export function mountHistory(root, context) {
  ctx = context;
  parts = {
    list: el("div", {}), device: el("section", { class: "box", testid: "history-device", hidden: true }), replay: el("section", { class: "box replay", hidden: true, "aria-label": t("Replay") }),
    replayBody: el("div", {}), analysis: el("div", {}),
    newer: el("button", { type: "button", onclick: () => page(-PAGE) }, t("Newer")),
    older: el("button", { type: "button", onclick: () => page(PAGE) }, t("Older")),
  };
  const profile = ctx.state.account && ctx.state.playerId !== null
    ? el("p", {}, el("a", { href: `#player/${ctx.state.playerId}`, testid: "history-profile" }, t("Your profile and ratings")))
    : null;
  put(root, el("section", { class: "box" }, el("h2", {}, t("Your games")), profile, parts.list,
    el("p", { class: "inline" }, parts.newer, parts.older)), parts.device, parts.replay);
  put(parts.replay, parts.replayBody, parts.analysis);
  if (replay) {
    replay.analysis.render(); // in the page's language now
    renderReplay();
  }
}

function page(delta) {
  offset = Math.max(0, offset + delta);
  loadHistory();
}

const nameIn = (record) => (s) => storedName(record?.players?.[s] ?? t("Seat {n}", { n: s + 1 }));

export async function loadHistory() {
  if (!parts) return;
  put(parts.list, el("p", { class: "note" }, t("Loading…")));
  loadDevice(); // (listed whether or not the server answers)
  let games = [];
  try {
    games = (await ctx.api(`/api/games?mine=1&limit=${PAGE}&offset=${offset}`, { auth: true }))?.games ?? [];
  } catch (err) {
    // A guest the server has not stored yet (it never sat at a table) has no games there.
    if (!(err.status === 401 && !ctx.state.account)) {
      put(parts.list);
      ctx.status(t("Could not load your games."), "error", err.message);
      return;
    }
  }
  parts.newer.disabled = offset === 0;
  parts.older.disabled = games.length < PAGE;
  if (!games.length) {
    put(parts.list, el("p", { class: "note" }, t("No finished games yet.")));
    return;
  }
  put(parts.list, el("ul", { class: "plain rows" }, games.map((g) => gameRow(g, ctx.api))));
}

/** Beside a server's games, those played on this device with no connection (a server that
 *  offers its engine: offline/keep.js), read from where the device keeps them; their replay
 *  and record are asked of the page's own engine. */
async function loadDevice() {
  parts.device.hidden = true;
  if (!ctx.catalog?.device || ctx.catalog.offline || offset > 0) return;
  let games = [];
  try {
    games = await listGames(0, PAGE);
  } catch { /* nothing kept here, or storage refused */ }
  if (!games.length) return;
  put(parts.device, el("h2", {}, t("Played on this device")),
    el("ul", { class: "plain rows" }, games.map((g) => gameRow(g, ctx.deviceApi))));
  parts.device.hidden = false;
}

/** A finished game's row: who played, how it ended, when; its replay and record, asked of
 *  `api` (the server, or this device's engine). */
function gameRow(g, api) {
  const name = (s) => storedName(g.players?.[s] ?? t("Seat {n}", { n: s + 1 }));
  const when = g.finished ?? g.started;
  // A game I left that a takeover bot finished is not my win or loss: say so, neutrally.
  const left = g.seat !== undefined && g.seat !== null && (g.by_bot ?? []).includes(g.seat);
  const result = !g.outcome ? [t("unfinished")] : left
    ? [el("span", { testid: "by-bot" }, t("You left; a bot finished this game."), " "), ...outcomeNodes(g.outcome, name, null)]
    : outcomeNodes(g.outcome, name, g.seat ?? null);
  return el("li", { class: "row" },
    el("div", {},
      el("strong", {}, gameName(g.game)), " · ", listed(g.players.map((p) => bdi(storedName(p)))),
      el("div", { class: "note" }, ...result,
        when ? ` · ${formatDate(when)}` : ""),
      g.rated ? el("div", { class: "note", testid: "history-change" }, ratedBadge(), " ",
        myChange(g) ? changeNodes(myChange(g)) : null) : null),
    el("div", { class: "inline" },
      el("button", { type: "button", class: "primary", onclick: () => openReplay(g.id, api) }, t("Replay")),
      recordLink(ctx, g.id, t("Download"), { testid: "history-download" }, api)));
}

function formatDate(value) {
  const d = new Date(typeof value === "number" && value < 1e12 ? value * 1000 : value);
  if (Number.isNaN(d.getTime())) return String(value);
  try {
    return new Intl.DateTimeFormat(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" }).format(d);
  } catch {
    return d.toLocaleString();
  }
}

async function openReplay(id, api = ctx.api) {
  try {
    const data = await api(`/api/games/${encodeURIComponent(id)}/replay`);
    stopPlaying();
    replay?.analysis.stop();
    replay = { id, record: data.record, positions: data.positions ?? [], closed: data.closed ?? [], i: 0, playing: false,
      fair: { state: "checking" }, device: api !== ctx.api, analysis: /** @type {any} */ (null) };
    replay.analysis = new AnalysisView(ctx, replay, { jump: step, name: nameIn(data.record), onChange: () => renderReplay(), api });
    renderReplay();
    replay.analysis.start();
    const opened = replay;
    checkRecord(data.record, id).then((result) => {
      if (replay !== opened) return;
      replay.fair = result;
      renderReplay();
    });
    parts.replay.scrollIntoView({ block: "start" });
  } catch (err) {
    ctx.status(t("Could not load the replay."), "error", err.message);
  }
}

/** Seconds the replay stays on position i when played: the live table's pace (fast when
 *  the page's animations are fast or off), longer after a move that closed a trick or hand. */
function holdAfter(i) {
  const pace = ctx.catalog?.paces?.[animSpeed() === "normal" ? "normal" : "fast"];
  if (!pace) return 1;
  const closed = replay.closed[i];
  if (closed?.hand) return pace.hand;
  if (closed?.trick) return pace.trick;
  return (pace.least + pace.most) / 2;
}

function stopPlaying() {
  clearTimeout(playTimer);
  if (replay) replay.playing = false;
}

function togglePlay() {
  if (!replay) return;
  if (replay.playing) {
    stopPlaying();
  } else {
    replay.playing = true;
    if (replay.i >= replay.positions.length - 1) replay.i = 0;
    playOn();
  }
  renderReplay();
}

function playOn() {
  clearTimeout(playTimer);
  playTimer = setTimeout(() => {
    if (!replay?.playing) return;
    replay.i += 1;
    if (replay.i >= replay.positions.length - 1) replay.playing = false;
    renderReplay();
    // The hold counts from when the position is on the page, not from before drawing it.
    if (replay.playing) playOn();
  }, holdAfter(replay.i) * 1000);
}

function step(to) {
  if (!replay?.positions.length) return;
  stopPlaying();
  replay.i = Math.max(0, Math.min(replay.positions.length - 1, to));
  renderReplay();
}

function closeReplay() {
  stopPlaying();
  replay?.analysis.stop();
  replay = null;
  parts.replay.hidden = true;
  put(parts.replayBody);
  put(parts.analysis);
}

function renderReplay() {
  const r = replay;
  if (!r) return;
  parts.replay.hidden = false;
  const last = r.positions.length - 1;
  const pos = r.positions[r.i];
  const name = nameIn(r.record);
  const where = [];
  if (r.i > 0) {
    // The seat that made action i is the seat to move in the position before it.
    const by = r.positions[r.i - 1]?.to_move;
    where.push(...actionNodes(by === null || by === undefined ? "" : name(by), r.record?.actions?.[r.i - 1]));
  }
  // A resignation or timeout is no action: the record's outcome ends the last position.
  const outcome = pos?.outcome ?? (r.i === last ? r.record?.outcome : null);
  const btn = (label, to, disabled) => el("button", { type: "button", disabled, onclick: () => step(to) }, label);
  // The trick this move finished stays drawn (a hand's last one too: the position already
  // shows the next deal), as the game's `closed` says.
  const held = (pos?.trick ?? []).length ? null : r.closed[r.i]?.trick ?? null;
  const model = pos && {
    game: pos.game, view: pos, name, info: () => null, me: null, toMove: pos.to_move, clock: null, reveal: true, held,
    over: !!outcome,
  };
  // The move that led here, when the analysis marked it: its badge in the caption, and
  // what it cost with the better move under it.
  const marked = r.analysis.markAt(r.i);
  if (marked) where.push(" ", markBadge(marked.mark));
  if (parts.analysis.firstChild !== r.analysis.node) put(parts.analysis, r.analysis.node);
  r.analysis.setPosition(r.i);
  put(parts.replayBody,
    el("h2", {}, t("Replay: {game}", { game: gameName(r.record?.game ?? pos?.game) })),
    el("div", { class: "inline" },
      btn(t("First"), 0, r.i === 0), btn(t("Previous"), r.i - 1, r.i === 0),
      btn(t("Next"), r.i + 1, r.i >= last), btn(t("Last"), last, r.i >= last),
      el("button", { type: "button", testid: "replay-play", "aria-pressed": String(!!r.playing), onclick: togglePlay },
        r.playing ? t("Pause") : t("Play back")),
      el("button", { type: "button", class: "ghost", testid: "replay-close", onclick: closeReplay }, t("Close the replay")),
      el("span", { "aria-live": "polite", testid: "replay-move", "data-move": r.i }, t("Move {i} of {n}", { i: r.i, n: last }), where.length ? " · " : "", where)),
    el("p", { class: "note" }, t("Arrow keys step through the game; Home and End jump.")),
    r.analysis.markNote(r.i),
    model ? el("div", { class: "felt replay-felt" },
      el("div", { class: "opponents all" }, Array.from({ length: seatCount(pos) }, (_, s) => seatBox(model, s))),
      centreNode(model)) : null,
    outcome ? el("p", { class: "outcome" }, outcomeNodes(outcome, name, null)) : null,
    fairText(r.fair) ? el("p", { class: `fair ${r.fair.state}`, testid: "replay-fair" }, fairText(r.fair)) : null);
}

/** Arrow keys, Home and End step the open replay; true when the key was used. */
export function onHistoryKey(e) {
  if (!replay || parts?.replay.hidden) return false;
  const rtl = document.documentElement.dir === "rtl";
  const moves = { ArrowLeft: rtl ? 1 : -1, ArrowRight: rtl ? -1 : 1 };
  if (e.key in moves) step(replay.i + moves[e.key]);
  else if (e.key === "Home") step(0);
  else if (e.key === "End") step(Infinity);
  else return false;
  return true;
}
