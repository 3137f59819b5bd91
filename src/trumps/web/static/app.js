// trumps in the browser: the entry point. It owns the state (tables, lobby, identity), the
// header and the sections, and turns server messages (docs/protocol.md) into renders.
//
// Modules: net.js (socket, resync), i18n.js (t(), num()), cards.js (SVG deck), board.js
// (drawing a position), table.js (the live table), lobby.js, history.js (games, replay),
// notify.js (turn alerts in a background tab), a11y.js with announce.js and keyhelp.js (the
// table's headings, announcements, focus, key help, the contrast theme; docs/accessibility.md),
// textmode.js with textcmd.js (the table as facts and typed commands, a setting), ratings.js
// with leaderboard.js, profile.js and ratingplot.js (the leaderboards and profiles: sections
// reached by the URL's hash, #leaderboard/<family> and #player/<id>; routes.js).

import { $, el, load, put, save, select } from "./dom.js";
import { LANGS, errorText, gameName, lang, personName, pickLang, setLang, t } from "./i18n.js";
import { whyText } from "./why.js";
import { helpButton } from "./help.js";
import { deck4, setDeck4 } from "./cards.js";
import { alertsOn, noteTurn, setAlerts } from "./notify.js";
import { Net, applyEvent, applySnapshot, newTable } from "./net.js";
import { LocalSocket } from "./localsocket.js";
import { canAct, mountTable, onTableKey, renderTable as drawTable, resetLists, tableEntered } from "./table.js";
import { mountText, renderText, textEntered, textModeSetting } from "./textmode.js";
import { a11ySettings } from "./a11y.js";
import { animControl } from "./trickview.js";
import { cardSizeControl, handOrderControl, layoutHand } from "./handview.js";
import { pauseControl } from "./handpause.js";
import { mountLobby, renderMine, renderQuick, renderTables, showCreateError, createAnswered } from "./lobby.js";
import { loadHistory, mountHistory, onHistoryKey } from "./history.js";
import { contributionFor, rememberGame } from "./fairdeal.js";
import { boardFamily, loadLeaderboard, mountLeaderboard } from "./leaderboard.js";
import { loadProfile, mountProfile } from "./profile.js";
import { ROUTED, addressOf, hashOf, routeOf, tableOf } from "./routes.js";
import { mountHome } from "./home.js";
import { fromDevice, keepRegistered } from "./offline/keep.js";
import { askName } from "./invite.js";
import { eventSounds, playSound } from "./sound.js";
import { autoPlay, autoPlaySetting } from "./autoplay.js";

const S = {
  // No name chosen: the hello says none (null); every page words it "Guest" in its language.
  name: load("name") || "", token: load("token"), account: null, playerId: null,
  tables: new Map(), // table id → table (net.js newTable)
  current: null, // the table shown
  section: "home", // the first screen: the two games (home.js)
  back: "home", // the section a table was opened from
  asked: false, // a request for a table (play, create, join, watch, match) awaits its table
  route: routeOf(location.hash), // {section, arg} of #leaderboard/<family> or #player/<id>
  lobby: [], // the last table_list's rows …
  lobbyPage: { offset: 0, total: 0 }, // … and where they are in the whole list
  waiting: null, // {game, rules} while a quick match waits
  // The table the address names (/?table=ID: an invite link, or a reload of my table;
  // /?watch=ID: one I watched), until it is shown or refused.
  invite: tableOf(location.search),
  queued: null, // a table asked for while the page's own engine was starting (send)
  pendingJoin: null, // the invited table we asked to join (table_full → watch it)
  rematchFrom: null, // the finished table whose rematch we asked for
  left: new Set(), // tables this page left: a late answer about one is not shown (error())
  connection: /** @type {[string, number]} */ (["connecting", 0]),
  who: null, // name and account the views were built for
};

const net = new Net({
  // A static site (`trumps site`) names its own engine in the catalog: the page then plays
  // through its Web Worker (localsocket.js) with the same messages as a server's socket.
  open: (url) => (context.catalog?.offline ? new LocalSocket(context.catalog.offline) : new WebSocket(url)),
  hello: () => ({ name: S.name || null, resume_token: S.token }),
  onMessage: (msg) => /** @type {(m: Proto.ServerMessage) => void} */ (handlers[msg.type])?.(msg),
  onStatus: (state, retry) => connectionChanged(state, retry),
});

const currentTable = () => S.tables.get(S.current) ?? null;
// Requests whose answer is a table to show (a seat given back after a reload is not shown
// unless the address names it: the page shows what its address says).
const ASKS_FOR_TABLE = new Set(["play_computer", "create_table", "join_table", "spectate", "quick_match", "rematch"]);

/** Draw table tb, and its facts when the text mode is on; a lone playable card goes by
 *  itself where the player asked for that. */
function renderTable(tb) {
  drawTable(tb);
  renderText(tb);
  autoPlay(tb, canAct, play);
}

/** @param {Proto.ClientMessage} msg @returns {boolean} */
function send(msg) {
  // Asking for a table again (join, watch): what the server says of it is news again.
  if (msg.type === "join_table" || msg.type === "spectate") S.left.delete(msg.table_id);
  if (net.send(msg)) {
    if (ASKS_FOR_TABLE.has(msg.type)) S.asked = true;
    return true;
  }
  if (context.catalog?.offline && ASKS_FOR_TABLE.has(msg.type)) {
    // The page's own engine is still starting (seconds, the first time): the game asked
    // for starts once it is up (welcome).
    S.queued = msg;
    status(t("Starting the game on this device…"), "wait");
    return true;
  }
  status(t("Not connected to the server yet."), "error");
  return false;
}

// ------------------------------------------------------------------ status line

let statusTimer = 0;

/** Show a message; `detail` is the server's own (English) words, in smaller print. */
function status(text, kind = "error", detail = null) {
  const box = $("status");
  clearTimeout(statusTimer);
  box.className = `status ${kind}`;
  put(box, el("span", { class: "status-text" }, text, detail ? el("small", {}, ` (${detail})`) : null),
    el("button", { type: "button", class: "ghost", "aria-label": t("Dismiss"), onclick: () => { box.hidden = true; } }, "×"));
  box.hidden = false;
  if (kind === "info") statusTimer = setTimeout(() => { box.hidden = true; }, 5000);
}

// ------------------------------------------------------------------ server messages

/** @type {Proto.Handlers} */
const handlers = {
  welcome(m) {
    Object.assign(S, { playerId: m.player_id, name: m.name ?? "", token: m.resume_token, account: m.account ?? null });
    if (load("named")) save("name", S.name); // a name the player chose, not the default one
    // (the page's own engine names no player to a server: the server's token is kept)
    if (!context.catalog?.offline) save("token", S.token);
    // Seats the server gave back get a table_state each; tables we only watched need asking.
    const seated = new Set(m.tables ?? []);
    for (const tb of S.tables.values()) {
      if (!seated.has(tb.id) && !tb.outcome) send({ type: "spectate", table_id: tb.id });
    }
    if (S.invite) openNamed(seated);
    if (S.queued) {
      const queued = S.queued;
      S.queued = null;
      $("status").hidden = true;
      send(queued);
    }
    if (S.waiting) send({ type: "quick_match", game: S.waiting.game, rules: S.waiting.rules ?? null, rated: S.waiting.rated });
    // Rebuild the views when who I am changed (the name and account show in the lobby).
    const who = `${S.name}\n${S.account}`;
    if (who !== S.who) {
      S.who = who;
      mountAll();
    } else {
      show(S.section);
    }
    document.documentElement.dataset.ready = "1";
  },

  error(m) {
    const tb = m.table_id ? S.tables.get(m.table_id) : null;
    if (tb) Object.assign(tb, { sent: false, resyncing: false, hint: tb.hint?.pending ? null : tb.hint });
    // An answer about a table the player left (its leave_table meets a finished table the
    // server has dropped since: "no_such_table"): not news for the table shown now.
    if (!tb && m.table_id && S.left.has(m.table_id)) return;
    if (m.code === "unavailable" && !net.welcomed) {
      // The server is up but cannot reach its database or Redis: say so, and ask again soon.
      status(errorText(m.code), "error");
      setTimeout(() => { if (!net.welcomed) net.hello(); }, 3000);
      return;
    }
    if (m.code === "bad_token" && !net.welcomed) {
      S.token = null; // the stored token is no good any more: start again as a new guest
      save("token", null);
      net.hello();
      return;
    }
    if (m.table_id && m.table_id === S.invite?.id && !["table_full", "not_allowed", "game_over"].includes(m.code)) {
      S.invite = null; // the table the address names is gone: the first screen, and say why
      show(S.section);
    }
    if (m.table_id && m.table_id === S.pendingJoin) {
      S.pendingJoin = null;
      if (m.code === "table_full" || m.code === "not_allowed" || m.code === "game_over") {
        send({ type: "spectate", table_id: m.table_id });
        status(t("That table has no open seat: you are watching it."), "info");
        return;
      }
    }
    if (m.code === "stale_event" && tb) {
      tb.resyncing = send({ type: "resync", table_id: tb.id, last_event: tb.event });
      status(errorText(m.code), "info");
    } else if (m.code === "bad_rules" && !m.table_id && showCreateError(m)) {
      // said in the form, by the option at fault; nothing was created
    } else {
      status((m.code === "illegal_action" && whyText(m.why)) || errorText(m.code), "error", m.message);
    }
    if (tb && tb.id === S.current) renderTable(tb);
  },

  table_list(m) {
    S.lobby = m.tables ?? [];
    S.lobbyPage = { offset: m.offset ?? 0, total: m.total ?? S.lobby.length };
    renderTables();
  },

  table_state(m) {
    // Our seat's part of the deal, once we know the commitment it is mixed with.
    if (m.seat !== null && m.commitment && !m.contributed && !m.dealt && !m.outcome) {
      net.send({ type: "contribute", table_id: m.table_id, value: contributionFor(m.table_id, m.commitment) });
    }
    if (m.record_id !== null && m.record_id !== undefined) rememberGame(m.table_id, m.record_id);
    const known = S.tables.has(m.table_id);
    const tb = known ? S.tables.get(m.table_id) : newTable(m.table_id);
    applySnapshot(tb, m);
    if (!known) {  // a table opened here (or after a reload): the chat so far, as stored
      for (const c of m.chat ?? []) tb.chat.push({ number: ++tb.chatSeq, seat: c.seat, name: c.name, text: c.text });
      tb.chatSeen = tb.chatSeq; // what was said before the table opened here is not news
    }
    if (S.pendingJoin === tb.id) S.pendingJoin = null;
    if (!known) createAnswered();
    if (!known) {
      S.tables.set(tb.id, tb);
      S.waiting = null;
      renderQuick();
      // A rematch replaces the finished table it came from.
      for (const old of [...S.tables.values()]) {
        if (old.id !== tb.id && (old.id === S.rematchFrom || old.rematch?.new_table_id === tb.id)) {
          net.send({ type: "leave_table", table_id: old.id });
          S.tables.delete(old.id);
          S.left.add(old.id);
        }
      }
      S.rematchFrom = null;
      // The table asked for, or the one the address names; a seat given back after a
      // reload only on the first screen (a page at #lobby or #history stays there).
      if (S.invite ? S.invite.id === tb.id : S.asked || S.section === "home") {
        S.invite = null;
        S.asked = false;
        S.current = tb.id;
        show("table");
        if (canAct(tb)) playSound("turn");
      } else {
        S.current ??= tb.id; // the Table button opens it
        show(S.section); // (the Table button appears)
      }
    } else if (tb.id === S.current) {
      renderTable(tb);
    }
    renderMine();
    renderTitle();
    renderOverlay(); // a snapshot: this tab holds the seat (again)
  },

  event(m) {
    const tb = S.tables.get(m.table_id);
    if (!tb) return;
    const mineBefore = canAct(tb);
    const result = applyEvent(tb, m);
    if (result === "gap") {
      if (!tb.resyncing) tb.resyncing = send({ type: "resync", table_id: tb.id, last_event: tb.event });
      return;
    }
    if (result !== "applied") return;
    if (tb.id === S.current) {
      renderTable(tb);
      eventSounds(m).forEach((kind, i) => (i ? setTimeout(() => playSound(kind), 250 * i) : playSound(kind)));
      if (!mineBefore && canAct(tb)) playSound("turn");
    }
    noteTurn(tb.id, canAct(tb), gameName(tb.game));
    renderMine();
    renderTitle();
  },

  chat(m) {
    const tb = S.tables.get(m.table_id);
    if (!tb) return;
    const caughtUp = (tb.chatSeen ?? 0) === tb.chatSeq;
    tb.chat.push({ number: ++tb.chatSeq, seat: m.seat, name: m.name, text: m.text });
    if (caughtUp && m.seat !== null && m.seat === tb.seat) tb.chatSeen = tb.chatSeq; // my own line
    if (tb.chat.length > 300) tb.chat.shift();
    if (tb.id === S.current) renderTable(tb);
  },

  game_over(m) {
    const tb = S.tables.get(m.table_id);
    if (!tb && (m.table_id === S.invite?.id || m.table_id === S.pendingJoin)) {
      // The table an address names has ended and is gone: say so; its game is in the history.
      S.invite = null;
      S.pendingJoin = null;
      show(S.section);
      status(t("The game at that table has ended; it is in the history."), "info");
      return;
    }
    if (!tb) return;
    Object.assign(tb, { outcome: m.outcome, record_id: m.record_id ?? null, hint: null });
    rememberGame(tb.id, tb.record_id);
    if (tb.id === S.current) {
      renderTable(tb);
      playSound("end");
    }
    renderMine();
    renderTitle();
  },

  waiting(m) {
    S.waiting = { game: m.game, rules: m.rules ?? null, rated: !!m.rated };
    renderQuick();
  },

  hint(m) {
    const tb = S.tables.get(m.table_id);
    if (!tb) return;
    tb.hint = { action: m.action, why: m.why ?? null, values: m.values ?? null, event: m.event ?? tb.event };
    if (tb.id === S.current) renderTable(tb);
  },

  replaced(m) {
    // Another tab (or device) of mine plays this seat now: this one hears no more of it.
    const tb = S.tables.get(m.table_id);
    if (!tb) return;
    Object.assign(tb, { replaced: true, sent: false, hint: null });
    if (tb.id === S.current) renderTable(tb);
    renderOverlay();
    renderTitle();
  },

  table_closed(m) {
    // The server gave the table up unfinished (bots nobody watched, or a game that never
    // started): it is gone from the lobby list, and from here.
    status(m.reason === "idle"
      ? t("A table of bots nobody watched was closed.")
      : t("A table whose game never started was closed."), "info");
    S.lobby = (S.lobby ?? []).filter((row) => row.table_id !== m.table_id);
    renderTables();
    if (!S.tables.delete(m.table_id)) return;
    if (S.current === m.table_id) {
      S.current = S.tables.keys().next().value ?? null;
      show(S.back);
    }
    renderTitle();
  },
  spectators(m) {
    const tb = S.tables.get(m.table_id);
    if (!tb) return;
    tb.spectators = { count: m.count ?? 0, names: m.names ?? [] };
    if (tb.id === S.current) renderTable(tb);
  },

  rematch(m) {
    const tb = S.tables.get(m.table_id);
    if (!tb) return;
    tb.rematch = { new_table_id: m.new_table_id, by: m.by };
    if (tb.id === S.current) renderTable(tb);
    status(t("{name} asks for a rematch.", { name: personName(m.by) }), "info");
  },
};

// ------------------------------------------------------------------ actions for the views

function play(tb, action) {
  if (!canAct(tb)) return;
  if (send({ type: "action", table_id: tb.id, action, expected: tb.event })) {
    tb.sent = true; // one move in flight; its event or an error clears this
    renderTable(tb);
  }
}

function leave(tb) {
  if (!tb) return;
  const running = tb.seat !== null && !tb.outcome && tb.to_move !== null;
  if (running && !window.confirm(t("Leave the table? A bot will play your seat."))) return;
  net.send({ type: "leave_table", table_id: tb.id });
  S.tables.delete(tb.id);
  S.left.add(tb.id);
  S.current = S.tables.keys().next().value ?? null;
  show(S.back);
}

function rematch(tb) {
  if (tb.rematch?.new_table_id) {
    send({ type: "join_table", table_id: tb.rematch.new_table_id, seat: tb.seat });
  } else if (send({ type: "rematch", table_id: tb.id })) {
    S.rematchFrom = tb.id;
  }
}

/** @param {string} path @param {{method?: string, body?: any, auth?: boolean}} [options] */
async function api(path, { method = "GET", body = undefined, auth = false } = {}) {
  if (context.catalog?.offline && path.startsWith("/api/games")) return askEngine(path, method);
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (auth && S.token) headers.Authorization = `Bearer ${S.token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch { /* no JSON body */ }
  if (!res.ok) {
    throw Object.assign(new Error(data?.message || `${res.status} ${res.statusText}`),
      { status: res.status, code: data?.error ?? null });
  }
  return data;
}

/** The games kept on this device, asked of the page's own engine as of a server
 *  (offline/games.js): their listing, records, replays and analyses. */
async function askEngine(path, method, engine = net.ws) {
  if (!engine?.ask) {
    throw Object.assign(new Error(t("The game's engine on this device is not running.")), { code: "not_offline" });
  }
  const { status: code, body } = await engine.ask(path, method);
  if (code >= 400) {
    const err = new Error(body?.message || String(code));
    Object.assign(err, { status: code, code: body?.error ?? null });
    throw err;
  }
  return body;
}

let deviceEngine = null; // the device's engine, started to replay its games beside a server's

/** A request about the games kept on this device (a server that offers its engine: its
 *  page lists them beside the server's games, offline/keep.js): asked of the page's own
 *  engine, started for it while the page talks to the server. */
async function deviceApi(path, { method = "GET" } = {}) {
  if (context.catalog?.offline) return api(path, { method });
  if (!deviceEngine || deviceEngine.readyState === WebSocket.CLOSED) deviceEngine = new LocalSocket(context.catalog.device);
  return askEngine(path, method, deviceEngine);
}

/** Use the identity an account request returned: the new token, a new connection. */
function adopt(data, sameUser) {
  Object.assign(S, { token: data.resume_token, name: data.name || S.name });
  save("token", S.token);
  save("name", S.name);
  save("named", "1");
  if (!sameUser) S.tables.clear(); // another player: their seats come back after welcome
  net.restart();
  status(t("Welcome, {name}!", { name: S.name }), "info");
}

/** End this session on the server (or every session of mine: `everywhere`), then start
 *  afresh as a new guest. */
async function logout(everywhere = false) {
  if (S.token) {
    try {
      await api(everywhere ? "/api/logout/everywhere" : "/api/logout", { method: "POST", auth: true });
    } catch { /* ended already: the token opens nothing either way */ }
  }
  Object.assign(S, { token: null, account: null });
  save("token", null);
  S.tables.clear();
  net.restart(); // hello without a token: a fresh guest
  show("lobby");
}

/** The protocol has no rename: a new hello with the same token carries the new name. */
function rename(name) {
  S.name = name;
  save("name", name);
  save("named", "1");
  net.restart();
  mountLobby($("lobby"), context); // (the first visit's welcome box goes)
}

/** The games, presets and bot levels the server offers (GET /api/catalog); null when it
 *  could not be loaded (the lobby then says so and offers to try again). */
async function loadCatalog() {
  try {
    const res = await fetch("/api/catalog", { headers: { Accept: "application/json" } });
    if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
    const catalog = await res.json();
    // The server could not be reached and the copy kept on this device answered (a server
    // that offers its engine, offline/keep.js): the page plays the computer on the device.
    if (catalog.device && fromDevice(res)) catalog.offline = catalog.device;
    context.catalog = catalog;
  } catch (err) {
    context.catalog = null;
    status(t("The list of games could not be loaded from the server."), "error", err.message);
  }
}

/** What the page's views are given: app.js's actions and state.
 *  @typedef {typeof context} Context */
const context = {
  send, status, play, leave, rematch, api, deviceApi, adopt, logout, rename, state: S, catalog: null, canAct,
  current: currentTable, openTable: (id) => { S.current = id; show("table"); }, show: (name) => show(name),
  reloadCatalog: async () => {
    await loadCatalog();
    if (context.catalog) $("status").hidden = true;
    mountHome($("home"), context);
    mountLobby($("lobby"), context);
    show(S.section);
  },
};

// ------------------------------------------------------------------ connection state

/** The socket went online, connecting or offline: the tables cannot be played while it is
 *  not online; once it is, errors shown while it was away are stale and go. */
function connectionChanged(state, retry) {
  S.connection = [state, retry];
  const off = state !== "online";
  for (const tb of S.tables.values()) tb.offline = off;
  if (!off) {
    const box = $("status");
    if (box && !box.hidden && box.classList.contains("error")) box.hidden = true;
  }
  renderConnection();
  renderOverlay();
  const tb = currentTable();
  if (tb && S.section === "table") renderTable(tb);
  renderTitle();
}

/** What covers the table: the connection lost (with "Retry now"), or the seat played in
 *  another tab (with "Play here"); nothing while this tab can play. */
function renderOverlay() {
  const box = $("conn-overlay");
  if (!box) return;
  const [state] = S.connection;
  const tb = currentTable();
  const kind = state !== "online" && tb ? "offline" : tb?.replaced ? "replaced" : null;
  if (!kind) {
    box.hidden = true;
    delete box.dataset.state;
    return;
  }
  const when = state === "offline" && net.retryIn() > 0
    ? t("Trying again in {n} s.", { n: net.retryIn() }) : t("Connecting…");
  if (box.dataset.state === kind && !box.hidden) {  // the same message: only the countdown moves
    const line = box.querySelector(".overlay-when");
    if (line && line.textContent !== when) line.textContent = when;
    return;
  }
  const content = kind === "offline" ? [
    el("h3", {}, t("No connection to the server")),
    el("p", { class: "overlay-when" }, when),
    el("button", { type: "button", class: "primary", testid: "retry-now", onclick: () => net.retryNow() }, t("Retry now")),
  ] : [
    el("h3", {}, t("This game is open in another tab.")),
    el("p", {}, t("Play on there, or take the seat back here.")),
    el("button", { type: "button", class: "primary", testid: "play-here",
      onclick: () => send({ type: "join_table", table_id: tb.id }) }, t("Play here")),
  ];
  put(box, el("div", { class: "overlay-box" }, ...content));
  box.dataset.state = kind;
  box.hidden = false;
}

/** Retry at once when the network or the page comes back (a phone waking up, a tab shown). */
function watchNetwork() {
  window.addEventListener("online", () => net.retryNow());
  window.addEventListener("pageshow", (e) => { if (e.persisted) net.retryNow(); });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") net.retryNow();
  });
  setInterval(() => {  // the countdowns of the header and the overlay
    if (S.connection[0] === "offline") {
      renderConnection();
      renderOverlay();
    }
  }, 500);
}

// ------------------------------------------------------------------ header and sections

function renderConnection() {
  const node = $("connection");
  if (!node) return;
  const [state, retry] = S.connection;
  node.className = `conn ${state}`;
  node.dataset.state = state;
  // (a static site plays on this device: its "connection" is its own engine)
  const online = context.catalog?.offline ? t("on this device") : t("online");
  node.textContent = state === "online" ? online : state === "connecting" ? t("connecting…")
    : t("offline, retrying in {n} s", { n: net.retryIn() || retry });
}

function renderTitle() {
  const mine = [...S.tables.values()].some((tb) => canAct(tb));
  const turn = t("Your turn.");
  document.title = mine ? `● ${turn} — trumps` : "trumps";
}

function mountHeader() {
  const nav = (name, label) => el("button", { type: "button", "data-show": name, onclick: () => show(name),
    "aria-current": S.section === name ? "page" : null, hidden: name === "table" && S.tables.size === 0 }, label);
  const langs = select({ id: "lang-select", testid: "lang-select", "aria-label": t("Language") }, LANGS, lang());
  langs.addEventListener("change", async () => {
    await setLang(langs.value, true);
    mountAll();
  });
  const deck = el("input", { type: "checkbox", id: "deck-4color", testid: "deck-4color", checked: deck4(),
    onchange: (e) => { setDeck4(e.target.checked); mountAll(); } });
  const alerts = el("input", { type: "checkbox", id: "turn-alerts", testid: "turn-alerts", checked: alertsOn(),
    onchange: (e) => setAlerts(e.target.checked) });
  // Display, sound, language and accessibility settings live in a panel of their own.
  const panel = el("div", { class: "settings-panel", id: "settings-panel", testid: "settings-panel", role: "group",
    "aria-label": t("Settings"), hidden: !settingsOpen },
  el("label", { for: "lang-select" }, t("Language")), langs,
  ...a11ySettings().flatMap((control) => [el("label", { for: control.id }, control.getAttribute("aria-label")), control]),
  animControl(() => { const tb = currentTable(); if (tb && S.section === "table") renderTable(tb); }),
  cardSizeControl(() => layoutHand(document.querySelector("#table [data-testid='hand']"))),
  handOrderControl(() => {
    const tb = currentTable();
    if (tb) tb.arranged = null; // a new sorting replaces the player's own arrangement
    if (tb && S.section === "table") renderTable(tb);
  }),
  pauseControl(),
  el("div", { class: "checks" },
    textModeSetting(() => {
      const tb = currentTable();
      if (S.section !== "table" || !tb) return;
      renderTable(tb);
      textEntered();
    }),
    el("label", { class: "check", for: "deck-4color" }, deck, " ", t("Four-colour deck")),
    autoPlaySetting(),
    el("label", { class: "check", for: "turn-alerts", title: t("A sound and a notification when it becomes your turn in a background tab") },
      alerts, " ", t("Turn alerts"))));
  const gear = el("button", { type: "button", class: "ghost settings-button", testid: "settings", "aria-expanded": String(settingsOpen),
    "aria-label": t("Settings"),
    "aria-controls": "settings-panel", onclick: () => toggleSettings() },
  el("span", { "aria-hidden": "true" }, "⚙"), el("span", { class: "label" }, t("Settings")));
  $("top").replaceChildren(
    el("h1", {}, el("span", { class: "logo", "aria-hidden": "true" }, "♠♥♦♣"), " trumps"),
    // A static site has no server: no lobby or ratings; its history is the games kept on
    // this device (docs/offline.md).
    el("nav", { "aria-label": t("Sections") }, context.catalog?.offline
      ? [nav("home", t("Play")), nav("table", t("Table")), nav("history", t("History"))]
      : [nav("home", t("Play")), nav("lobby", t("Lobby")), nav("table", t("Table")), nav("history", t("History")),
        el("button", { type: "button", "data-show": "leaderboard", testid: "nav-ratings",
          onclick: () => { location.hash = hashOf("leaderboard", boardFamily()); } }, t("Ratings"))]),
    el("div", { class: "settings" },
      helpButton(() => context.catalog, () => (S.section === "table" ? currentTable()?.game : null)),
      gear,
      el("span", { id: "connection", testid: "connection", role: "status" })),
    panel);
  renderConnection();
}

/** Open or close the settings panel (Escape or a click elsewhere closes it too); it stays
 *  as it is when the header is built again (a language chosen in it). */
let settingsOpen = false;
function toggleSettings(open = $("settings-panel")?.hidden) {
  const panel = $("settings-panel");
  if (!panel) return;
  settingsOpen = !!open;
  panel.hidden = !open;
  document.querySelector("[data-testid='settings']")?.setAttribute("aria-expanded", String(!!open));
}
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && !$("settings-panel")?.hidden) {
    toggleSettings(false);
    /** @type {HTMLElement | null} */ (document.querySelector("[data-testid='settings']"))?.focus();
  }
});
document.addEventListener("pointerdown", (e) => {
  const panel = $("settings-panel");
  if (panel && !panel.hidden && !/** @type {Element} */ (e.target).closest?.("#settings-panel, [data-testid='settings']")) toggleSettings(false);
});

/** Build every view again (first render, language or deck change). */
function mountAll() {
  mountHeader();
  mountHome($("home"), context);
  mountLobby($("lobby"), context);
  mountTable($("table"), context);
  mountText($("table"), context);
  $("table").append(el("div", { id: "conn-overlay", class: "conn-overlay", testid: "conn-overlay",
    role: "alertdialog", "aria-live": "assertive", hidden: true }));
  renderOverlay();
  resetLists();
  mountHistory($("history"), context);
  mountLeaderboard($("leaderboard"), context);
  mountProfile($("profile"), context);
  show(S.section);
}

/** The address changed (a link, Back or Forward): show what it names. */
function addressChanged() {
  const route = routeOf(location.hash);
  const named = tableOf(location.search);
  if (route) {
    S.route = route;
    show(route.section);
  } else if (named && S.tables.has(named.id)) {
    S.current = named.id;
    show("table");
  } else {
    show("home");
  }
}

/** Open the table the address names, once welcomed: mine comes back by itself (its
 *  table_state shows it); one to watch is watched; an invite link asks a guest's name once,
 *  then takes a seat (a full table is watched instead). */
function openNamed(seated) {
  const { id, watch } = S.invite;
  if (S.tables.has(id)) {
    S.invite = null;
    S.current = id;
    show("table");
  } else if (seated.has(id)) {
    // its table_state is on its way
  } else if (context.catalog?.offline) {
    // The page's own engine holds one game, mine: a table it did not give back has ended
    // (it is in the history) and nobody else is there to join.
    S.invite = null;
    show(S.section);
  } else if (watch) {
    send({ type: "spectate", table_id: id });
  } else if (!load("named") && !load("name-asked")) {
    askName((name) => {
      save("name-asked", "1");
      if (name) rename(name); // a new hello: its welcome joins
      else openNamed(seated);
    });
  } else {
    S.pendingJoin = id;
    send({ type: "join_table", table_id: id });
  }
}

function show(name) {
  if (name === "table" && !currentTable()) name = S.back;
  // Where a table was opened from: leaving it (or its closing) goes back there.
  if (name === "table" && ["home", "lobby", "history"].includes(S.section)) S.back = S.section;
  const entering = name === "table" && (S.section !== "table" || $("table").hidden || S.shownTable !== S.current);
  S.section = name;
  // The address names what is shown (routes.js), so that a reload or a shared link opens it;
  // it stays as it is while the table it names is still on its way.
  if (!S.invite) {
    const want = location.pathname + addressOf(name, currentTable(), location.hash);
    if (want !== location.pathname + location.search + location.hash) history.pushState(null, "", want);
  }
  for (const id of ["home", "lobby", "table", "history", ...ROUTED]) $(id).hidden = id !== name;
  document.documentElement.dataset.section = name; // the table fills the window (style.css)
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("nav button"))) {
    if (b.dataset.show === name) b.setAttribute("aria-current", "page");
    else b.removeAttribute("aria-current");
    if (b.dataset.show === "table") b.hidden = S.tables.size === 0;
  }
  if (name === "lobby") {
    net.send({ type: "list_tables" }); // silently: before welcome, welcome sends it again
    renderTables();
    renderMine();
  } else if (name === "table") {
    renderTable(currentTable());
    renderOverlay();
    S.shownTable = S.current;
    if (entering) {
      tableEntered(); // opened at its top, the focus in the hand …
      textEntered(); // … or in the command input of the text mode
    }
  } else if (name === "history") {
    loadHistory();
  } else if (name === "leaderboard") {
    loadLeaderboard(S.route?.arg);
  } else if (name === "profile") {
    loadProfile(S.route?.arg);
  }
  renderTitle();
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const target = e.target;
  if (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return;
  const tb = currentTable();
  const used = S.section === "table" && tb ? onTableKey(e, tb) : S.section === "history" ? onHistoryKey(e) : false;
  if (used) e.preventDefault();
}

async function init() {
  if (load("name") && !load("named")) save("named", "1"); // a name saved by an older page
  await setLang(pickLang());
  await loadCatalog();
  // A static site keeps itself for use with no network (offline/sw.js, `trumps site`); a
  // server's page does where its player agreed to (offline/keep.js).
  const sw = context.catalog?.offline?.sw;
  if (context.catalog?.device) keepRegistered(context.catalog.device);
  else if (sw && "serviceWorker" in navigator) navigator.serviceWorker.register(sw).catch(() => {});
  document.addEventListener("keydown", onKey);
  watchNetwork();
  window.addEventListener("popstate", addressChanged); // (a hash followed fires it too)
  if (S.route) S.section = S.route.section;
  mountAll();
  net.connect();
}

init();
