// The analysis of a finished game in its replay (docs/analysis.md, "On the server"): the
// Analyse button, the progress while the server works (GET /api/games/{id}/analysis polled
// about once a second while it answers 202), then the marked moves — each with who played
// what, its mark (a symbol and a word, never colour alone), what it cost, the better move and
// why, worded by the hints' own function (why.js) — and the evaluation graph (analysisplot.js).
//
// One AnalysisView per opened replay; history.js places its node under the board, asks it
// for the mark of the move that led to the position shown (`markNote`), and tells it where
// the replay is (`setPosition`). `stop()` ends its polling when the replay is closed or
// another one opened.

import { bdi, el, fill, put } from "./dom.js";
import { plural, t } from "./i18n.js";
import { cardText, isCard } from "./cards.js";
import { actionNodes } from "./board.js";
import { hintTemplate } from "./why.js";
import { SYMBOLS, evalPlot, markWord } from "./analysisplot.js";

const POLL_MS = 1000;

/** An action as short nodes, as the table's hints write it: a card, "Take from the pile",
 *  "Rob, discarding 7♣", "Discard 7♣ face down". */
export function moveLabel(action) {
  if (isCard(action)) return [cardText(action)];
  if (action === "take") return [t("Take from the pile")];
  if (action.startsWith("rob ")) return fill(t("Rob, discarding {card}"), { card: cardText(action.slice(4)) });
  if (action.startsWith("discard ")) return fill(t("Discard {card} face down"), { card: cardText(action.slice(8)) });
  return [bdi(action)];
}

/** A mark as a badge: its symbol and its word (the colour only repeats them). */
export function markBadge(mark) {
  return el("span", { class: `mark-badge mark-${mark}`, testid: "mark-badge", "data-mark": mark },
    el("span", { class: "mark-symbol", "aria-hidden": "true" }, SYMBOLS[mark] ?? "!"), " ", markWord(mark));
}

/** What a marked move cost, as a sentence (the move's `reason`, its values and `lost`). */
export function costText(m, game) {
  switch (m.reason) {
    case "win_to_loss": return t("It turned a won position into a lost one.");
    case "win_to_draw": return t("It turned a won position into a draw.");
    case "draw_to_loss": return t("It turned a drawn position into a lost one.");
    case "lost_chance": {
      const p = { before: Math.round((m.before ?? 0) * 100), after: Math.round((m.after ?? 0) * 100) };
      const lost = Math.round(m.lost ?? 0);
      // i18n: {n} points of a chance in percent; in a right-to-left language the arrow points left (←)
      if (game === "kozyri") {
        return plural(lost, t("It lost {n} point of the estimated chance not to lose the hand ({before}% → {after}%).", p),
          t("It lost {n} points of the estimated chance not to lose the hand ({before}% → {after}%).", p));
      }
      // i18n: {n} points of a chance in percent; in a right-to-left language the arrow points left (←)
      return plural(lost, t("It lost {n} point of the estimated chance to win ({before}% → {after}%).", p),
        t("It lost {n} points of the estimated chance to win ({before}% → {after}%).", p));
    }
    default: return "";
  }
}

/** The better move and why, in the hints' words: nodes. */
function betterNodes(m) {
  if (!m.better) return [];
  const why = m.explain ? fill(hintTemplate(m.explain), { action: moveLabel(m.better) }) : [];
  return [el("strong", {}, fill(t("Better: {move}."), { move: moveLabel(m.better) })), why.length ? " " : null, ...why];
}

export class AnalysisView {
  /** `ctx`: the page's {api, status}; `replay`: {id, record, positions}; `jump(i)` moves
   *  the replay to position i; `name(s)` names a seat; `onChange()` after the analysis came. */
  constructor(ctx, replay, { jump, name, onChange, api = ctx.api }) {
    // api: the server's, or this device's engine for a game played on it (offline/games.js)
    Object.assign(this, { ctx, replay, jump, name, onChange, api });
    /** @type {any} */ this.ctx;
    /** @type {any} */ this.replay;
    /** @type {(i: number) => void} */ this.jump;
    /** @type {(seat: number) => string} */ this.name;
    /** @type {() => void} */ this.onChange;
    /** @type {(path: string, options?: object) => Promise<any>} */ this.api;
    this.device = !!(ctx.catalog?.offline || replay.device); // analysed by the page's own engine
    this.state = "checking"; // checking | absent | running | done | gone
    this.progress = null; // {done, total} while running
    this.data = null; // the analysis (JSON of docs/analysis.md) once done
    this.timer = 0;
    this.stopped = false;
    this.position = 0;
    this.plot = null;
    this.live = el("p", { role: "status", class: "analysis-live", testid: "analysis-progress" });
    this.body = el("div", {});
    this.heading = el("h3", { id: "analysis-title" });
    this.node = el("section", { class: "analysis", testid: "analysis", "data-state": this.state, "aria-labelledby": "analysis-title" },
      this.heading, this.live, this.body);
    this.render();
  }

  get url() {
    return `/api/games/${encodeURIComponent(this.replay.id)}/analysis`;
  }

  /** On opening the replay: is it analysed already, or being analysed? */
  start() {
    this.fetch(false);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  async fetch(polling) {
    let data;
    try {
      data = await this.api(this.url);
    } catch (err) {
      if (this.stopped) return;
      if (err.code === "no_such_game") {
        this.state = "gone";
      } else {
        if (polling && err.code === "not_analysed") {
          // The process making it stopped (docs/analysis.md): it can be asked for again.
          this.ctx.status(t("The analysis stopped before it was finished: ask for it again."), "error", err.message);
        } else if (err.code !== "not_analysed") {
          this.ctx.status(t("Could not load the analysis."), "error", err.message);
        }
        this.state = "absent";
      }
      this.render();
      return;
    }
    if (!this.stopped) this.take(data);
  }

  take(data) {
    if (data?.status === "done" && data.analysis) {
      this.state = "done";
      this.data = data.analysis;
      this.progress = null;
      this.render();
      this.onChange?.();
      return;
    }
    this.state = "running";
    this.progress = { done: data?.done ?? null, total: data?.total ?? null };
    this.render();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { if (!this.stopped) this.fetch(true); }, POLL_MS);
  }

  async ask() {
    this.button && (this.button.disabled = true);
    try {
      const data = await this.api(this.url, { method: "POST", auth: true });
      if (!this.stopped) this.take(data);
    } catch (err) {
      if (this.stopped) return;
      this.ctx.status(t("The analysis could not be started."), "error", err.message);
      this.state = "absent";
      this.render();
    }
  }

  /** The progress line, kept in one live region so that a screen reader says each change. */
  liveText() {
    if (this.state === "checking") return t("Looking for an analysis…");
    if (this.state !== "running") return "";
    const { done, total } = this.progress ?? {};
    if (done === null || done === undefined || !total) return t("Analysing…");
    return plural(total, t("Analysing… {k} of {n} decision", { k: done }), t("Analysing… {k} of {n} decisions", { k: done }));
  }

  render() {
    this.heading.textContent = t("Analysis");
    this.node.dataset.state = this.state;
    const text = this.liveText();
    if (this.live.textContent !== text) this.live.textContent = text;
    this.node.hidden = this.state === "gone";
    this.button = null;
    this.plot = null;
    if (this.state === "absent") {
      this.button = el("button", { type: "button", class: "primary", testid: "analyse", onclick: () => this.ask() }, t("Analyse"));
      put(this.body, el("p", { class: "note", testid: "analysis-offer" }, this.device
        ? t("This device can judge every decision of this game (less deeply than a server, and more slowly) and mark the moves that cost the most, each with a better one.")
        : t("The server can judge every decision of this game and mark the moves that cost the most, each with a better one.")),
      el("p", {}, this.button));
      return;
    }
    if (this.state !== "done") {
      put(this.body);
      return;
    }
    const a = this.data;
    const s = a.summary ?? {};
    const marked = (a.moves ?? []).filter((m) => m.mark);
    const plies = Math.max(0, (this.replay.positions?.length ?? 1) - 1) || (this.replay.record?.actions?.length ?? 0);
    const seats = a.players ?? this.replay.record?.players?.length ?? 2;
    this.plot = evalPlot(a, {
      plies, seats, name: this.name, actionText: moveLabel, onPick: (ply) => this.jump(ply), wide: this.node.clientWidth || 640,
    });
    this.plot.setCursor(this.position);
    const method = a.method === "solver"
      ? (this.device
        ? t("Exact: the solver judged each move on the real deal, with every card known; a move it could not prove within this device's budget is left unmarked.")
        : t("Exact: the solver judged each move on the real deal, with every card known; a move it could not prove within the server's budget is left unmarked."))
      : t("Estimated: each decision was judged from the player's own view over {deals} sampled deals; a move is marked only when what it lost is clear of the sampling noise.", { deals: a.budget?.deals ?? 0 });
    const counts = [plural(s.analysed ?? 0, t("{n} decision judged"), t("{n} decisions judged")),
      plural(s.marked ?? 0, t("{n} marked"), t("{n} marked"))];
    if (a.method === "solver") counts.push(plural(s.unproved ?? 0, t("{n} not proved"), t("{n} not proved")));
    this.list = el("ol", { class: "plain mark-list", testid: "mark-list" }, marked.map((m) => this.entry(m)));
    put(this.body,
      el("p", { testid: "analysis-summary" }, counts.join(t(", ")), ". ", el("span", { class: "note" }, method)),
      this.plot.node,
      el("h4", {}, t("Marked moves")),
      marked.length ? this.list : el("p", { class: "note", testid: "no-marks" }, t("No move cost enough to be marked.")));
    this.mark();
  }

  /** One marked move in the list: a button to the moment of the choice, then what it cost,
   *  the better move and why. */
  entry(m) {
    return el("li", { class: `mark-entry mark-${m.mark}`, "data-ply": m.ply },
      el("button", { type: "button", class: "ghost mark-jump", testid: "mark-jump", "data-ply": m.ply, onclick: () => this.jump(m.ply) },
        markBadge(m.mark), " ", t("Move {n}:", { n: m.ply + 1 }), " ", actionNodes(this.name(m.seat), m.action)),
      el("p", { class: "mark-cost" }, costText(m, this.data.game)),
      el("p", { class: "mark-better", testid: "mark-better" }, betterNodes(m)));
  }

  /** The replay shows position i: its line on the graph, its entry in the list. */
  setPosition(i) {
    this.position = i;
    this.plot?.setCursor(i);
    this.mark();
  }

  mark() {
    // The entry of the move that led here, else the one about to be played.
    const entries = [...(this.list?.children ?? [])];
    const after = entries.filter((li) => Number(li.dataset.ply) + 1 === this.position);
    const here = after.length ? after : entries.filter((li) => Number(li.dataset.ply) === this.position);
    for (const li of entries) {
      const on = here.includes(li);
      li.classList.toggle("current", on);
      li.querySelector("button")?.setAttribute("aria-current", on ? "step" : "false");
    }
  }

  /** The mark of the move that led to position i, for the replay's caption: null if none. */
  markAt(i) {
    if (this.state !== "done" || i < 1) return null;
    return (this.data.moves ?? []).find((m) => m.mark && m.ply === i - 1) ?? null;
  }

  /** The box under the replay's caption at the position after a marked move. */
  markNote(i) {
    const m = this.markAt(i);
    if (!m) return null;
    return el("div", { class: `mark-note mark-${m.mark}`, testid: "replay-mark", "data-ply": m.ply },
      el("p", {}, markBadge(m.mark), " ", actionNodes(this.name(m.seat), m.action), " ", costText(m, this.data.game)),
      el("p", { testid: "replay-better" }, betterNodes(m)));
  }
}

