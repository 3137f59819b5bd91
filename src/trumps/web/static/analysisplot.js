// A finished game's evaluation graph (docs/analysis.md): each seat's value after each of its
// decisions — its estimated chance in percent, or in the duel the solver's won, drawn or lost
// — over the whole game, as inline SVG with its text alternative (a one-line caption naming
// the picture, a legend, and every judged decision as a table), following ratingplot.js and
// sharing its helpers. One line per seat, told apart by colour and by its dash pattern; the
// marked moves as larger points with their symbol (??, ?, ?!); a vertical line at the
// replay's position. Time runs from the left in a left-to-right page, from the right in a
// right-to-left one. A value the duel's solver did not prove (null) leaves a gap.

import { bdi, el } from "./dom.js";
import { num, t } from "./i18n.js";
import { across, dataTable, svg } from "./ratingplot.js";

const H = 230;
const PAD = { top: 22, bottom: 26, start: 56, end: 12 }; // top: room for the marks' symbols
// Dash patterns per seat, so that the lines differ without colour too.
export const DASHES = [null, "8 4", "2 4", "10 4 2 4", "4 2", "12 3 3 3"];
export const SYMBOLS = { blunder: "??", mistake: "?", inaccuracy: "?!" };

export const markWord = (mark) => ({ blunder: t("blunder"), mistake: t("mistake"), inaccuracy: t("inaccuracy") }[mark] ?? mark);

/** A value as the graph and its table say it: a percentage, or won / drawn / lost in the duel. */
export function valueText(v, method) {
  if (v === null || v === undefined) return t("not proved");
  if (method === "solver") return v >= 1 ? t("won") : v <= 0 ? t("lost") : t("drawn");
  return t("{p}%", { p: Math.round(v * 100) });
}

/** A short sample of seat s's line, for the legend (the name beside it says whose). */
export function lineSample(s) {
  return svg("svg", { class: `line-sample ev-seat-${s % DASHES.length}`, viewBox: "0 0 34 10", width: 34, height: 10, "aria-hidden": "true" },
    svg("line", { x1: 1, x2: 33, y1: 5, y2: 5, "stroke-dasharray": DASHES[s % DASHES.length] }));
}

/** The figure for `analysis` (the JSON of docs/analysis.md) of a game of `plies` actions:
 *  {node, setCursor(i)}. `name(s)` names a seat, `actionText(action)` words an action as
 *  nodes, `onPick(ply)` is called when a point is clicked; `wide` is the box's width in pixels. */
export function evalPlot(analysis, { plies, seats, name, actionText, onPick, wide }) {
  const W = Math.round(Math.max(280, Math.min(760, wide || 640)));
  const method = analysis.method;
  const moves = analysis.moves ?? [];
  const rtl = document.documentElement.dir === "rtl";
  const x0 = rtl ? PAD.end : PAD.start;
  const width = W - PAD.start - PAD.end;
  const at = across(x0, width);
  const x = (ply) => at(plies > 0 ? ply / plies : 0.5);
  const y = (v) => Math.round(PAD.top + (H - PAD.top - PAD.bottom) * (1 - v));
  const labelX = rtl ? W - PAD.start + 6 : PAD.start - 6;
  const anchor = rtl ? "start" : "end";
  const levels = method === "solver" ? [0, 0.5, 1] : [0, 0.25, 0.5, 0.75, 1];
  const grid = levels.map((v) => [
    svg("line", { class: "grid", x1: x0, x2: x0 + width, y1: y(v), y2: y(v) }),
    svg("text", { x: labelX, y: y(v) + 4, "text-anchor": anchor, class: "axis" }, valueText(v, method)),
  ]);
  // The moves' numbers along the bottom: the start, the end and a few round ones between.
  const step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500].find((s) => plies / s <= 8) ?? 1000;
  const ticks = [];
  for (let p = 0; p <= plies; p += step) ticks.push(p);
  if (ticks.at(-1) !== plies) ticks.push(plies);
  const axis = ticks.filter((p, k) => k === 0 || p === plies || plies - p >= step / 2).map((p) =>
    svg("text", { x: x(p), y: H - 8, "text-anchor": "middle", class: "axis" }, num(p)));
  const lines = [];
  const points = [];
  const marks = [];
  for (let s = 0; s < seats; s++) {
    const own = moves.filter((m) => m.seat === s);
    let d = "";
    let open = false;
    for (const m of own) {
      if (m.after === null || m.after === undefined) {
        open = false; // not proved: a gap
        continue;
      }
      d += `${open ? "L" : "M"}${x(m.ply)},${y(m.after)} `;
      open = true;
    }
    const kind = s % DASHES.length;
    lines.push(svg("path", { class: `seat-line ev-seat-${kind}`, d: d.trim() || null, "stroke-dasharray": DASHES[kind], "data-seat": s }));
    for (const m of own) {
      if (m.after === null || m.after === undefined) continue;
      const tip = svg("title", {}, pointTitle(m, name, actionText, method));
      if (m.mark) {
        const g = svg("g", { class: `mark-point mark-${m.mark} ev-seat-${kind}`, "data-ply": m.ply, "data-seat": s },
          svg("circle", { cx: x(m.ply), cy: y(m.after), r: 6.5 }),
          svg("text", { x: x(m.ply), y: y(m.after) - 10, "text-anchor": "middle", class: "mark-symbol" }, SYMBOLS[m.mark] ?? "!"),
          tip);
        g.addEventListener("click", () => onPick(m.ply));
        marks.push(g);
      } else {
        const c = svg("circle", { class: `point ev-seat-${kind}`, cx: x(m.ply), cy: y(m.after), r: 3, "data-ply": m.ply }, tip);
        c.addEventListener("click", () => onPick(m.ply));
        points.push(c);
      }
    }
  }
  const cursor = svg("line", { class: "cursor", x1: x(0), x2: x(0), y1: PAD.top - 14, y2: H - PAD.bottom });
  const summaryId = "eval-summary";
  const picture = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "eval-plot", role: "img", "aria-labelledby": `eval-title ${summaryId}`, direction: "ltr" },
    grid.flat(), axis, cursor, lines, points, marks);
  picture.dataset.testid = "eval-plot";
  picture.dataset.seats = String(seats);
  const marked = moves.filter((m) => m.mark).length;
  const node = el("figure", { class: "plot-figure eval-figure", testid: "eval-figure" },
    el("figcaption", {},
      el("strong", { id: "eval-title" }, method === "solver"
        ? t("Each player's result with perfect play, after each of their moves")
        : t("Each player's estimated chance, after each of their moves")), " ",
      el("span", { id: summaryId, testid: "eval-summary" },
        t("{m} of {n} moves marked, their points showing the mark's symbol; choose a point to see that move in the replay.", { n: moves.length, m: marked }))),
    el("ul", { class: "plain eval-legend", testid: "eval-legend" },
      Array.from({ length: seats }, (_, s) => el("li", {}, lineSample(s), " ", bdi(name(s)))),
      Object.entries(SYMBOLS).map(([mark, sym]) => el("li", { class: `legend-mark mark-${mark}` },
        el("span", { class: "mark-symbol", "aria-hidden": "true" }, sym), " ", markWord(mark)))),
    picture,
    movesTable(moves, name, actionText, method));
  return {
    node,
    setCursor(i) {
      const cx = x(Math.max(0, Math.min(plies, i)));
      cursor.setAttribute("x1", cx);
      cursor.setAttribute("x2", cx);
      cursor.dataset.ply = String(i);
    },
  };
}

function pointTitle(m, name, actionText, method) {
  const played = actionText(m.action).map((n) => (typeof n === "string" ? n : n.textContent)).join("");
  const head = t("Move {n}: {name}, {move}", { n: m.ply + 1, name: name(m.seat), move: played });
  const value = valueText(m.after, method);
  return m.mark ? `${head} · ${value} · ${SYMBOLS[m.mark]} ${markWord(m.mark)}` : `${head} · ${value}`;
}

function movesTable(moves, name, actionText, method) {
  return dataTable(
    [[t("Move"), true], [t("Player"), false], [t("Played"), false], [t("Best"), true], [t("After the move"), true], [t("Mark"), false]],
    moves.map((m) => [
      num(m.ply + 1), bdi(name(m.seat)), actionText(m.action), valueText(m.before, method), valueText(m.after, method),
      m.mark ? `${SYMBOLS[m.mark]} ${markWord(m.mark)}` : "",
    ]));
}
