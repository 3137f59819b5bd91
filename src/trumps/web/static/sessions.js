// Your sessions (GET /api/sessions): every browser or client signed in as you, the current
// one marked; each can be ended (DELETE /api/sessions/{id}), or all at once ("Log out
// everywhere", POST /api/logout/everywhere). An ended session's sockets are closed by the
// server and its token opens nothing any more.

import { el, put } from "./dom.js";
import { t } from "./i18n.js";

/** @type {import("./app.js").Context} */
let ctx = null; // {api, status, logout}

function when(seconds) {
  const d = new Date(seconds * 1000);
  try {
    return new Intl.DateTimeFormat(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" }).format(d);
  } catch {
    return d.toLocaleString();
  }
}

async function fill(list) {
  let sessions;
  try {
    sessions = (await ctx.api("/api/sessions", { auth: true }))?.sessions ?? [];
  } catch (err) {
    put(list, el("li", {}, t("Your sessions could not be loaded."), " ", el("small", {}, err.message)));
    return;
  }
  put(list, ...sessions.map((s) => el("li", { class: s.current ? "session current" : "session", testid: "session" },
    el("span", { class: "session-label" }, s.label || t("Unknown device")),
    s.current ? el("strong", { testid: "session-current" }, " ", t("(this device)")) : null,
    el("small", {}, " ", t("Last used {when}", { when: when(s.last_used) })), " ",
    s.current
      ? el("button", { type: "button", onclick: () => ctx.logout() }, t("Log out"))
      : el("button", { type: "button", testid: "session-end", onclick: async () => {
        try {
          await ctx.api(`/api/sessions/${encodeURIComponent(s.id)}`, { method: "DELETE", auth: true });
        } catch (err) {
          ctx.status(t("The session could not be ended."), "error", err.message);
        }
        fill(list);
      } }, t("End")))));
}

/** The panel: a list filled from the server, opened on demand. */
export function sessionsBox(context) {
  ctx = context;
  const list = el("ul", { class: "sessions", testid: "sessions" });
  const box = el("details", { testid: "sessions-box", ontoggle: () => { if (box.open) fill(list); } },
    el("summary", {}, t("Your sessions")),
    list,
    el("button", { type: "button", testid: "logout-everywhere", onclick: () => ctx.logout(true) }, t("Log out everywhere")));
  return box;
}
