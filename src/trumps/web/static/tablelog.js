// The table's game log and chat: each event's line in the reader's language (who did what,
// who took back or refused a take-back, a move a bot made for an absent player) and the
// lines it adds (the trick's winner, a hand over and the next dealt, a pick-up's size); the
// chat's lines, a quick phrase in the reader's language. Only new lines are appended, so
// that an aria-live list announces those alone, and each list keeps its newest line in view.

import { bdi, el, fill, put } from "./dom.js";
import { personName, t } from "./i18n.js";
import { actionNodes } from "./board.js";
import { LOG_MAX } from "./net.js";
import { logExtras, tookLine } from "./trickview.js";
import { phraseText } from "./phrases.js";

/** Draw table `tb`'s log into `list`; `seatLabel(tb, s)` names a seat, `actionLabel(tb, a)`
 *  words an action (table.js). */
export const logList = (list, tb, words) => appendNew(list, tb, tb.log, (e) => logItems(tb, e, words));

/** Draw table `tb`'s chat into `list` (a quick phrase in my language, its code as the
 *  tooltip; anything else as written). */
export const chatList = (list, tb) => appendNew(list, tb, tb.chat, (c) => el("li", {},
  el("strong", {}, bdi(personName(c.name))), c.seat === null || c.seat === undefined ? [" (", t("watching"), ")"] : "", ": ",
  phraseText(c.text) ? el("span", { class: "phrase", title: c.text }, phraseText(c.text)) : bdi(c.text)));

/** Forget what the lists show (after a language change they are drawn again). */
export function forgetLists(...lists) {
  for (const list of lists) if (list) delete list.dataset.table;
}

function logLine(tb, e, { seatLabel, actionLabel }) {
  const name = e.seat === null || e.seat === undefined ? "" : seatLabel(tb, e.seat);
  const who = bdi(name);
  switch (e.kind) {
    case "start": return [t("The game started.")];
    case "action": {
      const line = tookLine(e, name) ?? actionNodes(name, e.action);
      if (e.by_bot && !tb.seats[e.seat]?.bot) line.push(" ", el("em", {}, t("(played by a bot)")));
      return line;
    }
    case "resign": return fill(t("{name} resigned."), { name: who });
    case "takeback": return e.action
      ? [...fill(t("{name} took back a move:"), { name: who }), " ", actionLabel(tb, e.action)]
      : fill(t("{name} took back a move."), { name: who });
    case "takeback_ask": return fill(t("{name} asked to take back their last move."), { name: who });
    case "takeback_no": return fill(t("{name} refused the take-back."), { name: who });
    case "timeout":
      if (!e.action) return fill(t("{name} ran out of time."), { name: who });
      // The default move made for the seat, as the event says (docs/protocol.md#event).
      return [...fill(t("{name} ran out of time; a move was made for them:"), { name: who }), " ", ...actionNodes(name, e.action)];
    case "join": return fill(t("{name} sat down."), { name: who });
    case "leave": return fill(t("{name} left the table."), { name: who });
    case "disconnect": return fill(t("{name} lost the connection."), { name: who });
    case "takeover": return afterLeave(tb, e)
      ? fill(t("{name} left; a bot plays the seat."), { name: who })
      : fill(t("{name} is away; a bot plays until they come back."), { name: who });
    case "return": return fill(t("{name} reconnected."), { name: who });
    default: return [e.kind];
  }
}

/** A takeover right after its seat's player left on purpose (the seat is the bot's for good). */
function afterLeave(tb, e) {
  const i = tb.log.findIndex((x) => x.number === e.number);
  const before = i > 0 ? tb.log[i - 1] : null;
  return before?.kind === "leave" && before.seat === e.seat;
}

/** Append the items past the last one shown (rebuild only for another table), so that the
 *  aria-live list announces new lines only. */
function appendNew(list, tb, items, make) {
  if (list.dataset.table !== tb.id) {
    put(list);
    Object.assign(list.dataset, { table: tb.id, last: "0" });
  }
  let last = Number(list.dataset.last);
  for (const item of items) {
    if (item.number > last) {
      list.append(make(item));
      last = item.number;
    }
  }
  list.dataset.last = String(last);
  while (list.childElementCount > LOG_MAX) list.firstElementChild.remove();
  toEnd(list);
}

/** Scroll each list given to its newest line at the next frame, when the page is laid out
 *  anyway: read now, its height would force a layout in the middle of drawing the table. */
const atEnd = new Set();
function toEnd(list) {
  if (!atEnd.size) {
    requestAnimationFrame(() => {
      for (const l of atEnd) l.scrollTop = l.scrollHeight;
      atEnd.clear();
    });
  }
  atEnd.add(list);
}

/** An event's log line, and the lines it adds: who won the trick, a hand over and the
 *  next dealt, a pick-up's size. */
function logItems(tb, e, words) {
  const items = document.createDocumentFragment();
  items.append(el("li", { class: e.by_bot ? "by-bot" : null, "data-event": e.number }, logLine(tb, e, words)));
  for (const line of logExtras(e, (s) => words.seatLabel(tb, s))) items.append(el("li", { class: "closed", "data-event": e.number }, line));
  return items;
}
