// A rating's history as a picture (inline SVG drawn here, no library) with its text
// alternative: a one-line summary that names the picture, and the points as a table.
// One point per rated game, oldest first: from the left in a left-to-right page, from the
// right in a right-to-left one; the bots' fixed ratings of the family as dashed lines.
// svg(), across() and dataTable() are shared with analysisplot.js (a game's evaluation graph).

import { el } from "./dom.js";
import { levelName, num, t } from "./i18n.js";
import { familyName, signed, when } from "./ratings.js";

const NS = "http://www.w3.org/2000/svg";
const H = 220; // the drawing's height in its own units, which are pixels when it is drawn
const PAD = { top: 14, bottom: 14, start: 44, end: 12 }; // start: room for the ratings' figures

/** An SVG element, made like el() makes HTML ones (attributes only, children appended). */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/** Where a share (0 at the start of time, 1 at its end) of a plot `width` wide from its left
 *  edge `x0` is drawn: from the left in a left-to-right page, from the right in a right-to-left one. */
export function across(x0, width) {
  const rtl = document.documentElement.dir === "rtl";
  return (share) => Math.round(rtl ? x0 + width * (1 - share) : x0 + width * share);
}

/** A picture's text alternative: the same figures as a table, in a closed <details>.
 *  `columns` are [label, numeric] pairs; `rows` arrays of cells (text or nodes). */
export function dataTable(columns, rows) {
  return el("details", { class: "plot-table" }, el("summary", {}, t("The same as a table")),
    el("table", { class: "data-table" },
      el("thead", {}, el("tr", {}, columns.map(([label, numeric]) => el("th", { scope: "col", class: numeric ? "num" : null }, label)))),
      el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((c, k) => el("td", { class: columns[k][1] ? "num" : null }, c)))))));
}

/** A round step for the grid lines of a span of `span` points: 25, 50, 100 or 200. */
const stepFor = (span) => [25, 50, 100, 200, 400].find((s) => span / s <= 5) ?? 500;

/** The figure of `points` (a family's history: {game_id, before, after, at}, oldest first)
 *  with `bots` ({level, rating}) as reference lines, `wide` pixels wide (the box it goes in:
 *  its figures are then the page's size, on a phone too); `id` makes its element ids unique. */
export function ratingPlot(family, points, bots, id, wide) {
  const W = Math.round(Math.max(260, Math.min(720, wide || 640)));
  const values = [points[0].before, ...points.map((p) => p.after)];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const step = stepFor(Math.max(hi - lo, 50));
  const min = Math.floor((lo - step / 4) / step) * step;
  const max = Math.ceil((hi + step / 4) / step) * step;
  const rtl = document.documentElement.dir === "rtl";
  const x0 = rtl ? PAD.end : PAD.start; // the plot's left edge; the figures are outside it
  const width = W - PAD.start - PAD.end;
  const at = across(x0, width);
  const x = (i) => at(values.length === 1 ? 0.5 : i / (values.length - 1));
  const y = (v) => Math.round(PAD.top + (H - PAD.top - PAD.bottom) * (1 - (v - min) / (max - min)));
  const labelX = rtl ? W - PAD.start + 6 : PAD.start - 6;
  const anchor = rtl ? "start" : "end";
  const grid = [];
  for (let v = min; v <= max; v += step) {
    grid.push(svg("line", { class: "grid", x1: x0, x2: x0 + width, y1: y(v), y2: y(v) }),
      svg("text", { x: labelX, y: y(v) + 4, "text-anchor": anchor, class: "axis" }, num(v)));
  }
  // A bot's name sits just above its line, at the end of the plot where the rating's line
  // keeps farther from it (and on a halo of the page's colour where it does cross).
  const path = values.map((v, i) => [x(i), y(v)]).sort((p, q) => p[0] - q[0]);
  const lineAt = (px) => {
    const k = path.findIndex(([qx]) => qx >= px);
    if (k <= 0) return path[Math.max(0, k)][1];
    const [[ax, ay], [bx, by]] = [path[k - 1], path[k]];
    return ay + ((by - ay) * (px - ax)) / (bx - ax || 1);
  };
  const clearance = (left, text, at) => {
    const span = text.length * 7 + 8; // about the name's width
    let least = Infinity;
    for (let d = 0; d <= span; d += 4) least = Math.min(least, Math.abs(lineAt(left ? x0 + d : x0 + width - d) - (at - 8)));
    return least;
  };
  const shownBots = bots.filter((b) => b.rating > min && b.rating < max);
  const refs = shownBots.map((b) => svg("line", { class: "bot-line", x1: x0, x2: x0 + width, y1: y(b.rating), y2: y(b.rating) }));
  const names = shownBots.map((b) => {
    const text = t("{level} bot", { level: levelName(b.level) });
    const left = clearance(true, text, y(b.rating)) >= clearance(false, text, y(b.rating));
    return svg("text", { class: "bot-name", x: left ? x0 + 4 : x0 + width - 4, y: y(b.rating) - 4, "text-anchor": left ? "start" : "end" }, text);
  });
  const line = values.map((v, i) => `${x(i)},${y(v)}`).join(" ");
  const dots = values.slice(1).map((v, i) => svg("circle", { cx: x(i + 1), cy: y(v), r: 3.5 },
    svg("title", {}, t("Game {n}: {rating}", { n: i + 1, rating: num(v) }))));
  const summaryId = `plot-${id}-summary`;
  // Drawn left to right in every language (the anchors above are placed for it).
  const picture = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-plot", role: "img", "aria-labelledby": `plot-${id}-family ${summaryId}`,
    direction: "ltr" }, grid, refs, svg("polyline", { class: "line", points: line }), dots, names);
  picture.dataset.testid = "rating-plot";
  picture.dataset.points = String(points.length);
  return el("figure", { class: "plot-figure", testid: `plot-${family}` },
    el("figcaption", {}, el("strong", { id: `plot-${id}-family` }, familyName(family)), " ",
      el("span", { id: summaryId, testid: "plot-summary" }, summary(values))),
    picture,
    pointsTable(points));
}

/** "12 rated games, from 1500 to 1612; highest 1650, lowest 1480." */
function summary(values) {
  return t("{n} rated games, from {first} to {last}; highest {high}, lowest {low}.", {
    n: values.length - 1, first: num(values[0]), last: num(values.at(-1)),
    high: num(Math.max(...values)), low: num(Math.min(...values)),
  });
}

function pointsTable(points) {
  return dataTable([[t("Game"), true], [t("When"), false], [t("Before"), true], [t("After"), true], [t("Change"), true]],
    points.map((p, i) => [num(i + 1), when(p.at), num(p.before), num(p.after), signed(p.after - p.before)]));
}
