// Take-backs at the table (docs/protocol.md#takeback). The rule is the server's: every
// table_state and event says whether this player may take back their last move now
// (`can_take_back`) and whose request waits for answers (`takeback`). Here: the button
// ("Take back" against the computer, "Ask to take back" between people), the question a
// request puts to the others (allow or refuse), and the note while one's own waits.

import { bdi, el, fill, put } from "./dom.js";
import { t } from "./i18n.js";

/** The button for the table's tools and the layer for the table's layers; `redraw(tb)`
 *  draws the table again (after an answer is sent). */
/** @param {import("./app.js").Context} ctx */
export function takebackParts(ctx, redraw) {
  const send = (msg) => {
    const tb = ctx.current();
    return tb ? ctx.send({ ...msg, table_id: tb.id }) : false;
  };
  const parts = {
    button: el("button", { type: "button", class: "ghost", testid: "takeback", hidden: true,
      onclick: () => send({ type: "takeback" }) }),
    layer: el("div", { class: "takeback-ask", testid: "takeback-layer", role: "status", hidden: true }),
    answer(accept) {
      const tb = ctx.current();
      if (tb && send({ type: "takeback_answer", accept })) {
        tb.takebackAnswered = tb.takeback; // wait for the others, if any
        redraw(tb);
      }
    },
  };
  return parts;
}

/** Show the button and the request as table `tb` says. */
export function renderTakeback(tb, parts, seatLabel, againstComputer) {
  const { button, layer } = parts;
  button.hidden = !tb.can_take_back || tb.offline || !!tb.replaced;
  button.textContent = againstComputer(tb) ? t("Take back") : t("Ask to take back");
  const asker = tb.takeback ?? null;
  if (asker === null || tb.outcome) {
    tb.takebackAnswered = null;
    layer.hidden = true;
    put(layer);
    return;
  }
  layer.hidden = false;
  const asks = fill(t("{name} asks to take back their last move."), { name: bdi(seatLabel(tb, asker)) });
  if (asker === tb.seat || (tb.seat !== null && tb.takebackAnswered === asker)) {
    put(layer, el("p", { testid: "takeback-wait" }, asker === tb.seat
      ? t("Your take-back waits for the others to answer.")
      : [...asks, " ", t("Waiting for the others to answer.")]));
    return;
  }
  if (tb.seat === null) { // a spectator is told, not asked
    put(layer, el("p", {}, asks));
    return;
  }
  put(layer, el("p", {}, asks),
    el("div", { class: "inline" },
      el("button", { type: "button", testid: "takeback-accept", "data-focus-key": "takeback-accept",
        onclick: () => parts.answer(true) }, t("Allow")),
      el("button", { type: "button", class: "ghost", testid: "takeback-refuse", "data-focus-key": "takeback-refuse",
        onclick: () => parts.answer(false) }, t("Refuse"))));
}
