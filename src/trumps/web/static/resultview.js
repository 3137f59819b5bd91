// The live table's result panel (table.js): the outcome, a rematch offer, the game record,
// the fair-deal check of the finished record (fairdeal.js) and, after a rated game, what it
// did to my rating ("Rating 1512 → 1537 (+25)"). The check and the rating arrive after the
// panel is drawn: each replaces only its own line, so the buttons (and the keyboard focus
// on one) stay.

import { bdi, el, fill, put } from "./dom.js";
import { personName, t } from "./i18n.js";
import { outcomeNodes } from "./board.js";
import { checkRecord, fairText } from "./fairdeal.js";
import { changeNodes, loadMyChange } from "./ratings.js";
import { recordLink } from "./records.js";

/** Draw the result of table tb into `box` (hidden while the game runs). */
export function renderResult(tb, box, ctx, seatLabel) {
  box.hidden = !tb.outcome;
  if (!tb.outcome) return;
  const children = [el("p", { class: "outcome" }, outcomeNodes(tb.outcome, seatLabel, tb.seat))];
  if (tb.rematch?.new_table_id) { // (`by` null: a person who chose no name)
    children.push(el("p", {}, fill(t("{name} asks for a rematch."), { name: bdi(personName(tb.rematch.by)) })));
  }
  const buttons = el("div", { class: "inline" });
  if (tb.seat !== null) {
    buttons.append(el("button", { type: "button", class: "primary", testid: "rematch", onclick: () => ctx.rematch(tb) }, tb.rematch?.new_table_id ? t("Accept the rematch") : t("Rematch")));
  }
  if (tb.record_id !== null) {
    buttons.append(recordLink(ctx, tb.record_id, t("Download the game record"), { testid: "download-record" }));
  }
  children.push(ratingLine(tb, box, ctx), buttons, fairLine(tb, box, ctx));
  put(box, ...children);
}

/** Replace the line with test id `testid` in the panel by `node`, if table tb is still shown. */
function replaceLine(tb, box, ctx, testid, node) {
  const line = box.querySelector(`[data-testid='${testid}']`);
  if (ctx.current() === tb && line) line.replaceWith(node ?? "");
}

/** The finished game's fair-deal check (fairdeal.js), fetched and run once per game. */
function fairLine(tb, box, ctx) {
  if (tb.record_id === null) return null;
  if (tb.fair?.record_id !== tb.record_id) {
    const id = tb.record_id;
    tb.fair = { record_id: id, state: "checking" };
    ctx.api(`/api/games/${encodeURIComponent(id)}`)
      .then((record) => checkRecord(record, id))
      .catch(() => ({ state: "unavailable" }))
      .then((result) => {
        if (tb.fair?.record_id !== id) return;
        tb.fair = { record_id: id, ...result };
        replaceLine(tb, box, ctx, "fair-deal", fairNode(tb.fair));
      });
  }
  return fairNode(tb.fair);
}

function fairNode(fair) {
  const text = fairText(fair);
  return text && el("p", { class: `fair ${fair.state}`, testid: "fair-deal" }, text);
}

/** A rated game of mine: what it did to my rating, fetched once per game (the line is
 *  empty until then). Nothing for a casual game or a spectator. */
function ratingLine(tb, box, ctx) {
  if (!tb.rated || tb.seat === null || tb.record_id === null || !ctx.state.account) return null;
  if (tb.rating?.record_id !== tb.record_id) {
    const id = tb.record_id;
    tb.rating = { record_id: id, state: "loading" };
    loadMyChange(ctx, id)
      .then((found) => ({ state: "done", ...found }))
      .catch(() => ({ state: "unavailable" }))
      .then((result) => {
        if (tb.rating?.record_id !== id) return;
        tb.rating = { record_id: id, ...result };
        replaceLine(tb, box, ctx, "rating-change", ratingNode(tb.rating));
      });
  }
  return ratingNode(tb.rating);
}

function ratingNode(r) {
  const props = { class: "rating-change", testid: "rating-change", "data-state": r.state };
  if (r.state === "loading") return el("p", { ...props, hidden: true });
  if (r.state === "unavailable") return el("p", props, t("Your new rating could not be loaded."));
  if (!r.change) return el("p", props, t("This game did not change your rating."));
  return el("p", { ...props, "data-before": r.change.before, "data-after": r.change.after },
    changeNodes(r.change, r.provisional));
}
