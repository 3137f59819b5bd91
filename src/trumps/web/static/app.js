// trumps: the minimal browser client of the game server (protocol: docs/protocol.md).
//
// One WebSocket (/ws) carries the game; the JSON API (/api/…) carries accounts and history.
// Everything the server sends that people wrote (names, chat) is plain text: it reaches the
// page only through text nodes / textContent, never through innerHTML.

const PROTOCOL = 1;
const LEVELS = ["random", "easy", "medium", "hard", "expert"];
const GAMES = { kozyri: "Svoi Kozyri", twentyfive: "Twenty-Five" };
const MAX_SEATS = { kozyri: 4, twentyfive: 8 };
const PRESETS = { kozyri: ["seed", "pagat"], twentyfive: ["classic", "as-written", "forty-five"] };
const SUITS = { S: ["♠", "spades"], H: ["♥", "hearts"], D: ["♦", "diamonds"], C: ["♣", "clubs"] };
const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", T: "10" };
const REASONS = {
  out_of_cards: "out of cards", draw_rule: "draw rule", repetition: "repetition",
  max_plies: "move limit", target: "target reached", resigned: "resignation", timeout: "time",
};
const PING_MS = 25000;
const RETRY_MAX_MS = 10000;
const LOG_MAX = 200;
const PAGE = 20;

// ------------------------------------------------------------------ small helpers

const $ = (id) => document.getElementById(id);

/** Make an element. props: class, text, on<event>, booleans as properties, the rest as
 *  attributes. Children are nodes or strings (strings become text nodes, never markup). */
function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (typeof value === "boolean") node[key] = value;
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

function load(key) {
  try { return localStorage.getItem(`trumps.${key}`); } catch { return null; }
}

function save(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(`trumps.${key}`);
    else localStorage.setItem(`trumps.${key}`, value);
  } catch { /* storage disabled: the session just is not remembered */ }
}

const isCard = (s) => typeof s === "string" && (s === "JK" || /^[AKQJT98765432][SHDC]$/.test(s));
const isRed = (code) => code[1] === "H" || code[1] === "D";

function cardLabel(code) {
  if (code === "JK") return "Joker";
  return (code[0] === "T" ? "10" : code[0]) + SUITS[code[1]][0];
}

function cardName(code) {
  if (code === "JK") return "joker";
  return `${RANK_NAMES[code[0]] ?? code[0]} of ${SUITS[code[1]][1]}`;
}

function cardNode(code, extra = "") {
  const cls = `card ${code === "JK" ? "joker" : isRed(code) ? "red" : "black"} ${extra}`;
  return el("span", { class: cls.trim(), title: cardName(code) }, cardLabel(code));
}

function suitNode(letter) {
  if (!SUITS[letter]) return el("span", { text: "?" });
  return el("span", { class: `suit ${"HD".includes(letter) ? "red" : "black"}`, title: SUITS[letter][1] },
    SUITS[letter][0]);
}

/** Cards in a row, separated by spaces (for lists of public cards). */
const cardRow = (cards) => cards.flatMap((c, i) => (i ? [" ", cardNode(c)] : [cardNode(c)]));

/** A button label for a legal action (SPEC §2 syntax). */
function actionLabel(a) {
  if (a === "take") return "Take the pile";
  if (a.startsWith("trump ")) return `Trumps: ${SUITS[a.slice(6)]?.[0] ?? a.slice(6)}`;
  if (a === "rob") return "Rob the turn-up";
  if (a.startsWith("rob ")) return `Rob (discard ${cardLabel(a.slice(4))})`;
  return isCard(a) ? cardLabel(a) : a;
}

/** What a log line says someone did. */
function describeAction(a) {
  if (!a) return "acted";
  if (a === "take") return "took the pile";
  if (a.startsWith("trump ")) return `chose ${SUITS[a.slice(6)]?.[0] ?? a.slice(6)} as trumps`;
  if (a === "rob") return "robbed the turn-up";
  if (a.startsWith("rob ")) return `robbed the turn-up, discarding ${cardLabel(a.slice(4))}`;
  return isCard(a) ? `played ${cardLabel(a)}` : `played ${a}`;
}

function clockText(tc) {
  if (!tc) return "none";
  return `${+(tc.base / 60).toFixed(2)} min + ${tc.increment ?? 0} s`;
}

function formatSeconds(sec) {
  const s = Math.max(0, Math.ceil(sec));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function formatDate(value) {
  if (!value) return "";
  const d = new Date(typeof value === "number" && value < 1e12 ? value * 1000 : value);
  return Number.isNaN(d.getTime()) ? String(value) : d.toLocaleString();
}

/** "Winner: …" text for an outcome (SPEC §5); nameOf maps a seat to a label. */
function resultText(o, nameOf, mySeat = null) {
  const reason = REASONS[o.reason] ?? o.reason;
  if (o.draw) return `Draw (${reason}).`;
  let me = "";
  if (mySeat !== null && mySeat !== undefined) {
    if (o.winners.includes(mySeat)) me = "You won! ";
    else if (o.losers.includes(mySeat)) me = "You lost. ";
  }
  // Svoi Kozyri with 3–4 players: one loser, everyone else wins (SPEC §5).
  if (o.winners.length > 1 && o.losers.length === 1) {
    return `${me}Loser: ${nameOf(o.losers[0])} (${reason}).`;
  }
  return `${me}Winner${o.winners.length > 1 ? "s" : ""}: ${o.winners.map(nameOf).join(", ")} (${reason}).`;
}

// ------------------------------------------------------------------ state

const S = {
  ws: null, welcomed: false, retryMs: 1000, retryTimer: 0, pingTimer: 0, nonce: 0,
  name: load("name"), token: load("token"), account: null, playerId: null,
  tables: new Map(), // table id → table (see newTable)
  current: null, // the table shown in the table section
  section: "lobby",
  lobby: [], // the last table_list
  waiting: null, // {game, rules} while a quick match waits
  invite: new URLSearchParams(location.search).get("table"), // from an invite link
  pendingJoin: null, // the invited table we asked to join (table_full → spectate)
  hist: { offset: 0, count: 0 },
  replay: null, // {id, record, positions, i}
};

function newTable(id) {
  return {
    id, game: "kozyri", rules: {}, seats: [], seat: null, event: 0, view: {}, legal: [],
    to_move: null, clocks: null, clockAt: 0, private: false, outcome: null, record_id: null,
    time_control: null, log: [], chat: [], chatSeq: 0, sent: false,
    resyncing: false,
  };
}

const currentTable = () => S.tables.get(S.current) ?? null;

function seatName(t, s) {
  const info = t.seats[s];
  const who = info?.name ?? (info?.bot ? `${info.bot} bot` : "open");
  return `Seat ${s} (${who})`;
}

function setClocks(t, clocks) {
  t.clocks = Array.isArray(clocks) ? clocks.slice() : null;
  t.clockAt = performance.now();
}

/** Seconds left on a seat's clock, counting down locally for the seat to move. */
function clockLeft(t, s) {
  const base = t.clocks?.[s];
  if (base === null || base === undefined) return null;
  const running = s === t.to_move && !t.outcome;
  return running ? base - (performance.now() - t.clockAt) / 1000 : base;
}

const canAct = (t) => t.seat !== null && !t.outcome && !t.sent && t.to_move === t.seat;

// ------------------------------------------------------------------ connection

function setConn(text, cls) {
  const node = $("conn");
  node.textContent = text;
  node.className = `conn ${cls}`;
}

function connect() {
  clearTimeout(S.retryTimer);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws`);
  S.ws = ws;
  S.welcomed = false;
  setConn("connecting…", "pending");
  ws.addEventListener("open", () => {
    sendHello();
    S.pingTimer = setInterval(() => send({ type: "ping", nonce: ++S.nonce }), PING_MS);
  });
  ws.addEventListener("message", (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    if (msg && typeof msg === "object") dispatch(msg);
  });
  ws.addEventListener("close", () => {
    clearInterval(S.pingTimer);
    if (S.ws !== ws) return; // replaced on purpose (reconnectNow)
    S.ws = null;
    S.welcomed = false;
    const delay = S.retryMs;
    S.retryMs = Math.min(S.retryMs * 2, RETRY_MAX_MS); // 1 s, 2 s, 4 s … 10 s
    setConn(`offline, retrying in ${delay / 1000} s`, "offline");
    S.retryTimer = setTimeout(connect, delay);
  });
}

/** Drop the socket and open a new one now (new name or new token). */
function reconnectNow() {
  const old = S.ws;
  S.ws = null;
  clearInterval(S.pingTimer);
  if (old) old.close();
  S.retryMs = 1000;
  connect();
}

function sendHello() {
  const msg = { type: "hello", protocol: PROTOCOL, name: S.name || "Guest" };
  if (S.token) msg.resume_token = S.token;
  S.ws.send(JSON.stringify(msg));
}

function send(msg) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN || !S.welcomed) {
    if (msg.type !== "ping") showStatus("Not connected to the server yet.");
    return false;
  }
  S.ws.send(JSON.stringify(msg));
  return true;
}

/** Ask for a fresh snapshot of a table (one outstanding request is enough); true while one
 *  is on its way. */
function requestResync(t) {
  if (!t.resyncing) t.resyncing = send({ type: "resync", table_id: t.id, last_event: t.event });
  return t.resyncing;
}

// ------------------------------------------------------------------ server messages

const handlers = {
  welcome(m) {
    Object.assign(S, {
      welcomed: true, retryMs: 1000, playerId: m.player_id, name: m.name,
      token: m.resume_token, account: m.account ?? null,
    });
    save("name", S.name);
    save("token", S.token);
    setConn("online", "online");
    renderHeader();
    // Seats the server re-attached get a table_state each; other tables we had open need
    // asking again (a spectator's subscription does not survive the connection).
    const seated = new Set(m.tables ?? []);
    for (const t of S.tables.values()) {
      // A seat not given back means the game ended or the seat was lost: watch it instead.
      if (!seated.has(t.id) && !t.outcome) send({ type: "spectate", table_id: t.id });
    }
    if (S.invite) {
      const id = S.invite;
      S.invite = null;
      history.replaceState(null, "", location.pathname);
      if (S.tables.has(id) || seated.has(id)) {
        S.current = id;
      } else {
        S.pendingJoin = id;
        send({ type: "join_table", table_id: id });
      }
    }
    if (S.waiting) send({ type: "quick_match", game: S.waiting.game, rules: S.waiting.rules ?? null });
    if (S.section === "lobby") send({ type: "list_tables" });
  },

  error(m) {
    const t = m.table_id ? S.tables.get(m.table_id) : null;
    if (t) Object.assign(t, { sent: false, resyncing: false });
    if (m.code === "bad_token" && !S.welcomed) {
      // The stored token is no good any more: start again as a new guest.
      S.token = null;
      save("token", null);
      sendHello();
      return;
    }
    if (m.table_id && m.table_id === S.pendingJoin) {
      S.pendingJoin = null;
      if (m.code === "table_full") {
        send({ type: "spectate", table_id: m.table_id });
        showStatus("That table has no open seat: you are watching it.", "info");
        return;
      }
    }
    if (m.code === "stale_event" && t) {
      requestResync(t); // the table moved on: take the fresh snapshot, then try again
      showStatus("The table moved on before your move arrived; please look again.", "info");
    } else {
      showStatus(m.message || m.code);
    }
    if (t && t.id === S.current) renderTable();
  },

  table_list(m) {
    S.lobby = m.tables ?? [];
    renderLobbyList();
  },

  table_state(m) {
    const known = S.tables.has(m.table_id);
    const t = known ? S.tables.get(m.table_id) : newTable(m.table_id);
    Object.assign(t, {
      game: m.game, rules: m.rules, seats: m.seats, seat: m.seat, event: m.event, view: m.view,
      legal: m.legal ?? [], to_move: m.to_move, private: !!m.private,
      outcome: m.outcome ?? null, record_id: m.record_id ?? null,
      time_control: m.time_control ?? null, sent: false, resyncing: false,
    });
    setClocks(t, m.clocks);
    if (Array.isArray(m.log)) t.log = m.log.slice(-LOG_MAX);
    if (S.pendingJoin === t.id) S.pendingJoin = null;
    if (!known) {
      S.tables.set(t.id, t);
      S.waiting = null;
      renderWaiting();
      S.current = t.id;
      show("table");
    } else if (t.id === S.current) {
      renderTable();
    }
    renderMyTables();
  },

  event(m) {
    const t = S.tables.get(m.table_id);
    if (!t || m.number <= t.event) return; // not ours, or already in a snapshot
    if (m.number !== t.event + 1) {
      requestResync(t); // a gap: replace the state with a fresh snapshot
      return;
    }
    Object.assign(t, { event: m.number, view: m.view, legal: m.legal ?? [], to_move: m.to_move, sent: false });
    setClocks(t, m.clocks);
    const info = m.seat === null || m.seat === undefined ? null : t.seats[m.seat];
    if (info) {
      if (m.kind === "join" || m.kind === "return") Object.assign(info, { connected: true, away: false });
      if (m.kind === "leave") info.connected = false;
      if (m.kind === "takeover") info.away = true;
    }
    t.log.push({ number: m.number, kind: m.kind, seat: m.seat, action: m.action, by_bot: m.by_bot });
    if (t.log.length > LOG_MAX) t.log.splice(0, t.log.length - LOG_MAX);
    // Events carry no seat names: after a join or leave, ask for a snapshot, and render from
    // it (with the names) rather than before it.
    if (m.kind === "join" || m.kind === "leave") requestResync(t);
    if (t.resyncing) return;
    if (t.id === S.current) renderTable();
    renderMyTables();
  },

  chat(m) {
    const t = S.tables.get(m.table_id);
    if (!t) return;
    t.chat.push({ number: ++t.chatSeq, seat: m.seat, name: m.name, text: m.text });
    if (t.chat.length > LOG_MAX) t.chat.shift();
    if (t.id === S.current) renderChat(t);
  },

  game_over(m) {
    const t = S.tables.get(m.table_id);
    if (!t) return;
    t.outcome = m.outcome;
    t.record_id = m.record_id ?? null;
    t.legal = [];
    if (t.id === S.current) renderTable();
    renderMyTables();
  },

  waiting(m) {
    S.waiting = { game: m.game, rules: m.rules ?? null };
    renderWaiting();
  },

  pong() {},
};

function dispatch(msg) {
  const handler = handlers[msg.type];
  if (handler) handler(msg);
}

// ------------------------------------------------------------------ status line, header

function showStatus(text, kind = "error") {
  const box = $("status");
  $("status-text").textContent = text;
  box.className = `status ${kind}`;
  box.hidden = false;
}

function renderHeader() {
  const input = $("name-input");
  if (document.activeElement !== input) input.value = S.name || "Guest";
  $("account-status").textContent = S.account ? `Account: ${S.account}` : "Guest (no account)";
  $("logout").hidden = !S.account;
  $("account-forms").hidden = !!S.account;
  if (S.account) $("account-forms").open = false;
}

// ------------------------------------------------------------------ sections

function show(name) {
  S.section = name;
  for (const id of ["first-run", "lobby", "table", "history"]) $(id).hidden = id !== name;
  $("nav-table").hidden = S.tables.size === 0;
  for (const b of document.querySelectorAll("nav button")) {
    if (b.dataset.show === name) b.setAttribute("aria-current", "page");
    else b.removeAttribute("aria-current");
  }
  if (name === "lobby") {
    if (S.welcomed) send({ type: "list_tables" });
    renderLobbyList();
    renderMyTables();
  } else if (name === "table") {
    renderTable();
  } else if (name === "history") {
    loadHistory();
  }
}

// ------------------------------------------------------------------ lobby

function seatsSummary(seats) {
  return seats.map((s) => {
    if (s.name) return s.bot ? `${s.name} (${s.bot} bot)` : s.name;
    return s.bot ? `${s.bot} bot` : "open";
  }).join(", ");
}

function renderLobbyList() {
  const body = $("table-list");
  if (!S.lobby.length) {
    body.replaceChildren(el("tr", {}, el("td", { colspan: 7 }, "No public tables.")));
    return;
  }
  body.replaceChildren(...S.lobby.map((ts) => {
    const mine = S.tables.get(ts.table_id);
    return el("tr", {},
      el("td", {}, GAMES[ts.game] ?? ts.game),
      el("td", {}, typeof ts.rules === "string" ? ts.rules
        : el("details", {}, el("summary", {}, "options"), el("code", {}, JSON.stringify(ts.rules)))),
      el("td", {}, seatsSummary(ts.seats)),
      el("td", {}, String(ts.open_seats)),
      el("td", {}, ts.started ? "playing" : "waiting"),
      el("td", {}, clockText(ts.time_control)),
      el("td", {},
        el("button", {
          type: "button", disabled: ts.open_seats === 0 || (mine && mine.seat !== null),
          onclick: () => send({ type: "join_table", table_id: ts.table_id }),
        }, "Join"),
        " ",
        el("button", {
          type: "button", onclick: () => send({ type: "spectate", table_id: ts.table_id }),
        }, "Watch")));
  }));
}

function renderMyTables() {
  const list = $("my-tables");
  $("my-tables-box").hidden = S.tables.size === 0;
  $("nav-table").hidden = S.tables.size === 0;
  list.replaceChildren(...[...S.tables.values()].map((t) => {
    const state = t.outcome ? "finished" : t.to_move === null ? "waiting"
      : t.to_move === t.seat ? "your turn" : "playing";
    const role = t.seat === null ? "watching" : `seat ${t.seat}`;
    return el("li", {},
      `${GAMES[t.game] ?? t.game}, table ${t.id} (${role}, ${state}) `,
      el("button", { type: "button", onclick: () => { S.current = t.id; show("table"); } }, "Open"));
  }));
}

function renderWaiting() {
  $("waiting").hidden = !S.waiting;
  if (S.waiting) {
    $("waiting-text").textContent = `Waiting for an opponent (${GAMES[S.waiting.game] ?? S.waiting.game})… `;
  }
}

/** The rules field: empty → server default, "{…}" → options, anything else → a preset. */
function parseRules(text) {
  const value = text.trim();
  if (!value) return null;
  if (!value.startsWith("{")) return value;
  try {
    const obj = JSON.parse(value);
    if (obj && typeof obj === "object" && !Array.isArray(obj)) return obj;
  } catch { /* reported below */ }
  showStatus("Rules must be a preset name or a JSON object of options.");
  return undefined;
}

function renderSeatKinds() {
  const form = $("create-form");
  const game = form.elements.game.value;
  const max = MAX_SEATS[game];
  const count = form.elements.nseats;
  count.max = String(max);
  const n = Math.min(max, Math.max(2, Number(count.value) || 2));
  count.value = String(n);
  const list = $("seat-kinds");
  const old = [...list.querySelectorAll("select")].map((s) => s.value);
  list.replaceChildren();
  for (let i = 0; i < n; i++) {
    const select = el("select", { id: `seat-kind-${i}`, disabled: i === 0 },
      el("option", { value: "human" }, i === 0 ? "you" : "human"),
      ...LEVELS.map((l) => el("option", { value: l }, `${l} bot`)));
    select.value = i === 0 ? "human" : old[i] ?? "human"; // the creator sits in seat 0
    list.append(el("li", {}, el("label", { for: select.id }, `Seat ${i}`), " ", select));
  }
  $("presets").replaceChildren(...PRESETS[game].map((p) => el("option", { value: p })));
}

function wireLobby() {
  for (const select of document.querySelectorAll("select.levels")) {
    select.replaceChildren(...LEVELS.map((l) => el("option", { value: l }, l)));
    select.value = "medium";
  }
  const create = $("create-form");
  create.elements.game.addEventListener("change", renderSeatKinds);
  create.elements.nseats.addEventListener("change", renderSeatKinds);
  const syncClock = () => {
    for (const name of ["base", "increment", "on_timeout"]) create.elements[name].disabled = !create.elements.clock.checked;
  };
  create.elements.clock.addEventListener("change", syncClock);
  syncClock();
  renderSeatKinds();
  create.addEventListener("submit", (e) => {
    e.preventDefault();
    const f = create.elements;
    const rules = parseRules(f.rules.value);
    if (rules === undefined) return;
    const msg = {
      type: "create_table", game: f.game.value,
      seats: [...$("seat-kinds").querySelectorAll("select")].map((s) => s.value),
      private: f.private.checked, grace: Number(f.grace.value) || 0, takeover: f.takeover.value,
    };
    if (rules !== null) msg.rules = rules;
    if (f.clock.checked) {
      msg.time_control = { base: Number(f.base.value) * 60, increment: Number(f.increment.value) || 0 };
      msg.on_timeout = f.on_timeout.value;
    }
    send(msg);
  });

  const quick = $("quick-form");
  quick.addEventListener("submit", (e) => {
    e.preventDefault();
    send({ type: "quick_match", game: quick.elements.game.value });
  });
  $("cancel-quick").addEventListener("click", () => {
    send({ type: "cancel_quick_match" });
    S.waiting = null;
    renderWaiting();
  });

  const computer = $("computer-form");
  const clampPlayers = () => {
    const p = computer.elements.players;
    p.max = String(MAX_SEATS[computer.elements.game.value]);
    p.value = String(Math.min(Number(p.max), Math.max(2, Number(p.value) || 2)));
  };
  computer.elements.game.addEventListener("change", clampPlayers);
  computer.addEventListener("submit", (e) => {
    e.preventDefault();
    clampPlayers();
    const f = computer.elements;
    send({ type: "play_computer", game: f.game.value, players: Number(f.players.value), level: f.level.value });
  });
}

// ------------------------------------------------------------------ positions (views)

/** The per-seat extras of a position: a Svoi Kozyri seat's trump suit. */
function seatExtras(game, v, s) {
  if (game === "kozyri" && Array.isArray(v.trumps)) {
    const suit = v.trumps[s];
    return suit ? [" · trumps ", suitNode(suit)] : [" · trumps not chosen yet"];
  }
  return [];
}

/** The table centre of a position or view (SPEC §4/§6); nameOf labels a seat. */
function boardNode(game, v, nameOf) {
  return game === "kozyri" ? kozyriBoard(v, nameOf) : twentyfiveBoard(v, nameOf);
}

function kozyriBoard(v, nameOf) {
  const pile = v.pile ?? [];
  const shown = pile.slice(-10); // the top of the pile is what matters for play
  const box = el("div", {},
    el("p", {}, el("strong", {}, `Pile (${pile.length} card${pile.length === 1 ? "" : "s"}): `),
      pile.length > shown.length ? "… " : "",
      pile.length ? shown.map((c, i) => [i ? " " : "", cardNode(c, i === shown.length - 1 ? "top" : "")]) : "empty",
      pile.length ? " (top last)" : ""));
  if (v.owes_second && v.to_move !== null && v.to_move !== undefined) {
    box.append(el("p", {}, `${nameOf(v.to_move)} beat the top card and now plays a second card.`));
  }
  if (v.out?.length) box.append(el("p", {}, `Out, in order: ${v.out.map(nameOf).join(", ")}`));
  if ((v.rules?.match_losses ?? 1) > 1 && Array.isArray(v.losses)) {
    box.append(el("p", {}, `Hands lost: ${v.losses.map((n, s) => `${nameOf(s)} ${n}`).join(", ")}`));
  }
  return box;
}

function twentyfiveBoard(v, nameOf) {
  const n = v.hands?.length ?? 0;
  const box = el("div", {});
  const top = el("p", {}, el("strong", {}, "Turn-up: "), v.turnup ? cardNode(v.turnup) : "none",
    " · ", el("strong", {}, "Trumps: "), v.trump ? suitNode(v.trump) : "?");
  if (v.robbed) {
    top.append(` · robbed by ${nameOf(v.robbed.seat)}`);
    if (v.robbed.discard) top.append(" (discarded ", cardNode(v.robbed.discard), ")");
  }
  box.append(top);
  const trick = v.trick ?? [];
  box.append(el("p", {}, el("strong", {}, "Trick: "), trick.length
    ? trick.map((c, i) => [i ? " · " : "", `${nameOf((v.leader + i) % n)} `, cardNode(c)])
    : `${v.to_move === null || v.to_move === undefined ? "none" : `${nameOf(v.to_move)} leads`}`));
  const last = v.tricks?.at(-1);
  if (last) {
    box.append(el("p", {}, el("strong", {}, "Last trick: "),
      last.cards.map((c, i) => [i ? " · " : "", `${nameOf((last.leader + i) % n)} `, cardNode(c)]),
      ` (won by ${nameOf(last.winner)})`));
  }
  const scores = v.scores ?? [];
  const parts = Array.isArray(v.teams)
    ? v.teams.map((team, i) => `Team ${i + 1} (${team.map(nameOf).join(", ")}) ${scores[i] ?? 0}`)
    : scores.map((p, s) => `${nameOf(s)} ${p}`);
  const target = v.rules?.target;
  box.append(el("p", {}, el("strong", {}, `Scores${target ? ` (target ${target})` : ""}: `), parts.join(" · ")));
  return box;
}

// ------------------------------------------------------------------ the table

function inviteUrl(id) {
  return `${location.origin}/?table=${encodeURIComponent(id)}`;
}

function seatItem(t, info) {
  const s = info.seat;
  const hand = t.view.hands?.[s];
  const count = Array.isArray(hand) ? hand.length : hand?.count ?? 0;
  const cls = [s === t.to_move && !t.outcome ? "to-move" : "", s === t.seat ? "me" : ""].join(" ").trim();
  const li = el("li", { class: cls || null },
    el("strong", {}, `Seat ${s}`), " ",
    info.name ?? (info.bot ? "" : "open"),
    info.bot ? ` [${info.bot} bot]` : "",
    s === t.seat ? " (you)" : "",
    !info.bot && info.name && !info.connected ? " · offline" : "",
    info.away ? " · away, a bot plays" : "",
    ` · ${count} card${count === 1 ? "" : "s"}`,
    seatExtras(t.game, t.view, s));
  if (hand && !Array.isArray(hand) && hand.known?.length) li.append(" · known: ", ...cardRow(hand.known));
  const left = clockLeft(t, s);
  if (left !== null) li.append(" · ", el("span", { class: "clock", "data-seat": s }, formatSeconds(left)));
  if (s === t.to_move && !t.outcome) li.append(el("span", { class: "mark" }, " ◀ to move"));
  return li;
}

function turnText(t) {
  if (t.outcome) return "Game over.";
  if (t.to_move === null || t.to_move === undefined) return "Waiting for the game to start.";
  if (t.to_move === t.seat) return t.sent ? "Sent…" : "Your turn.";
  return `${seatName(t, t.to_move)} to move.`;
}

function play(t, action) {
  if (!canAct(t)) return;
  if (send({ type: "action", table_id: t.id, action, expected: t.event })) {
    t.sent = true; // one move in flight; the next event or error re-enables the buttons
    renderTable();
  }
}

function actionButton(t, action, index, label, cls) {
  return el("button", {
    type: "button", class: cls, disabled: index < 0 || !canAct(t),
    "aria-label": index < 0 ? null : `${index < 9 ? `${index + 1}: ` : ""}${isCard(action) ? `play ${cardName(action)}` : label}`,
    onclick: () => play(t, action),
  }, label, index >= 0 && index < 9 ? el("kbd", {}, String(index + 1)) : null);
}

function renderHand(t) {
  const mine = t.seat !== null && Array.isArray(t.view.hands?.[t.seat]) ? t.view.hands[t.seat] : null;
  $("t-hand-box").hidden = mine === null || !!t.outcome;
  if (mine === null) return;
  const index = new Map(t.legal.map((a, i) => [a, i]));
  $("t-hand").replaceChildren(...mine.map((c) =>
    actionButton(t, c, index.get(c) ?? -1, cardLabel(c), `card-btn ${c === "JK" ? "joker" : isRed(c) ? "red" : "black"}`)));
  // Legal actions that are not a card of the hand: take, trump S, rob XX.
  $("t-extra").replaceChildren(...t.legal.map((a, i) => [a, i]).filter(([a]) => !mine.includes(a))
    .map(([a, i]) => actionButton(t, a, i, actionLabel(a), "word-btn")));
}

function logText(t, e) {
  const who = e.seat === null || e.seat === undefined ? "" : seatName(t, e.seat);
  switch (e.kind) {
    case "start": return "The game started.";
    case "action":
      if (e.by_bot && !t.seats[e.seat]?.bot) return `A bot played for ${who}: ${describeAction(e.action)}.`;
      return `${who} ${describeAction(e.action)}.`;
    case "resign": return `${who} resigned.`;
    case "timeout": return `${who} ran out of time.`;
    case "join": return `${who} joined.`;
    case "leave": return `${who} left.`;
    case "takeover": return `A bot now plays for ${who}.`;
    case "return": return `${who} is back.`;
    default: return `${who} ${e.kind}`.trim();
  }
}

/** Append to a live list the items whose number is past the last one shown (a rebuild only
 *  when another table is shown), so that its aria-live region announces new lines only. */
function appendNew(list, t, items, make) {
  if (list.dataset.table !== t.id) {
    list.replaceChildren();
    Object.assign(list.dataset, { table: t.id, last: "0" });
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
  list.scrollTop = list.scrollHeight;
}

const renderLog = (t) => appendNew($("t-log"), t, t.log,
  (e) => el("li", { value: e.number, class: e.by_bot ? "by-bot" : null }, logText(t, e)));

const renderChat = (t) => appendNew($("t-chat"), t, t.chat, (c) => el("li", {},
  el("strong", {}, c.name), c.seat === null || c.seat === undefined ? " (watching)" : ` (seat ${c.seat})`,
  ": ", c.text));

function renderTable() {
  const t = currentTable();
  if (!t || S.section !== "table") return;
  const role = t.seat === null ? "watching" : `you are seat ${t.seat}`;
  $("t-title").textContent = `${GAMES[t.game] ?? t.game}, table ${t.id} (${role}; clock: ${clockText(t.time_control)})`;
  $("t-invite").hidden = !t.private;
  if (t.private) $("invite-link").value = inviteUrl(t.id);
  $("t-seats").replaceChildren(...t.seats.map((info) => seatItem(t, info)));
  $("t-turn").textContent = turnText(t);
  $("t-turn").className = `turn ${t.to_move === t.seat && !t.outcome ? "mine" : ""}`;
  const nameOf = (s) => seatName(t, s);
  $("t-board").replaceChildren(boardNode(t.game, t.view, nameOf));
  $("t-rules-text").textContent = JSON.stringify(t.rules, null, 1);
  renderHand(t);
  $("t-over").hidden = !t.outcome;
  if (t.outcome) {
    $("t-result").textContent = resultText(t.outcome, nameOf, t.seat);
    const link = $("t-download");
    link.hidden = t.record_id === null;
    if (t.record_id !== null) {
      link.href = `/api/games/${encodeURIComponent(t.record_id)}?download=1`;
      link.setAttribute("download", `trumps-game-${t.record_id}.json`);
    }
  }
  $("resign").hidden = t.seat === null || !!t.outcome;
  $("resign").disabled = t.to_move === null;
  $("leave").textContent = t.seat === null ? "Stop watching" : "Leave";
  renderLog(t);
  renderChat(t);
}

/** Leave (or stop watching) the current table and forget it here. */
function leaveTable(t) {
  send({ type: "leave_table", table_id: t.id });
  S.tables.delete(t.id);
  S.current = S.tables.keys().next().value ?? null;
  show("lobby");
}

function wireTable() {
  $("resign").addEventListener("click", () => {
    const t = currentTable();
    if (t && window.confirm("Resign this game?")) send({ type: "resign", table_id: t.id });
  });
  $("leave").addEventListener("click", () => {
    const t = currentTable();
    if (!t) return;
    const running = t.seat !== null && !t.outcome && t.to_move !== null;
    if (!running || window.confirm("Leave the table? A bot will play your seat.")) leaveTable(t);
  });
  for (const b of document.querySelectorAll(".to-lobby")) {
    b.addEventListener("click", () => {
      const t = currentTable();
      if (t) leaveTable(t);
      else show("lobby");
    });
  }
  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const t = currentTable();
    const input = $("chat-input");
    const text = input.value.trim();
    if (t && text && send({ type: "chat", table_id: t.id, text })) input.value = "";
  });
  $("copy-invite").addEventListener("click", async () => {
    const input = $("invite-link");
    try {
      await navigator.clipboard.writeText(input.value);
      showStatus("Invite link copied.", "info");
    } catch {
      input.select(); // no clipboard permission: leave it selected for Ctrl+C
      showStatus("Press Ctrl+C to copy the selected link.", "info");
    }
  });
  // The clock of the seat to move counts down locally between server updates.
  setInterval(() => {
    const t = currentTable();
    if (!t || S.section !== "table") return;
    for (const span of document.querySelectorAll("#t-seats .clock")) {
      const left = clockLeft(t, Number(span.dataset.seat));
      if (left === null) continue;
      span.textContent = formatSeconds(left);
      span.classList.toggle("low", left < 10);
    }
  }, 250);
}

// ------------------------------------------------------------------ accounts (HTTP API)

async function api(path, { method = "GET", body, auth = false } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (auth && S.token) headers.Authorization = `Bearer ${S.token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch { /* no JSON body */ }
  if (!res.ok) {
    const err = new Error(data?.message || `${res.status} ${res.statusText}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

/** Use the identity an account request returned: new token, reconnect with it. */
function adopt(data, sameUser) {
  S.token = data.resume_token;
  S.name = data.name || S.name;
  save("token", S.token);
  save("name", S.name);
  if (!sameUser) S.tables.clear(); // another player: their own seats come after welcome
  reconnectNow();
  show("lobby");
}

function wireAccount() {
  $("register-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = e.target.elements;
    try {
      // With the guest's token as Bearer, the guest becomes the account (keeps history).
      const data = await api("/api/accounts", {
        method: "POST", auth: true,
        body: { login: f.login.value.trim(), password: f.password.value, name: f.name.value.trim() },
      });
      f.password.value = "";
      showStatus(`Registered as ${data.login}.`, "info");
      adopt(data, true);
    } catch (err) {
      showStatus(`Registration failed: ${err.message}`);
    }
  });
  $("login-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = e.target.elements;
    try {
      const data = await api("/api/login", {
        method: "POST", body: { login: f.login.value.trim(), password: f.password.value },
      });
      f.password.value = "";
      showStatus(`Logged in as ${data.login}.`, "info");
      adopt(data, false);
    } catch (err) {
      showStatus(err.status === 401 ? "Wrong login or password." : `Login failed: ${err.message}`);
    }
  });
  $("logout").addEventListener("click", () => {
    S.token = null;
    S.account = null;
    save("token", null);
    S.tables.clear();
    renderHeader();
    reconnectNow(); // hello without a token: a fresh guest
    show("lobby");
  });
  $("name-form").addEventListener("submit", (e) => {
    e.preventDefault();
    // The protocol has no rename message: a new hello (same token) carries the new name.
    S.name = $("name-input").value.trim() || "Guest";
    save("name", S.name);
    $("name-input").blur();
    if (S.section === "first-run") show("lobby");
    reconnectNow();
  });
}

// ------------------------------------------------------------------ history and replay

async function loadHistory() {
  const body = $("games");
  $("history-note").textContent = "Loading…";
  try {
    const data = await api(`/api/games?mine=1&limit=${PAGE}&offset=${S.hist.offset}`, { auth: true });
    const games = data?.games ?? [];
    S.hist.count = games.length;
    $("history-note").textContent = games.length || S.hist.offset ? "" : "No finished games yet.";
    body.replaceChildren(...games.map((g) => {
      const names = g.players ?? [];
      const nameOf = (s) => names[s] ?? `Seat ${s}`;
      return el("tr", {},
        el("td", {}, String(g.id)),
        el("td", {}, GAMES[g.game] ?? g.game),
        el("td", {}, names.join(", ")),
        el("td", {}, g.outcome ? resultText(g.outcome, nameOf) : "unfinished"),
        el("td", {}, formatDate(g.finished ?? g.started)),
        el("td", {},
          el("a", { href: `/api/games/${encodeURIComponent(g.id)}?download=1`, download: `trumps-game-${g.id}.json` }, "Download"),
          " ",
          el("button", { type: "button", onclick: () => openReplay(g.id) }, "Replay")));
    }));
  } catch (err) {
    $("history-note").textContent = "";
    showStatus(`Could not load your games: ${err.message}`);
  }
  $("games-newer").disabled = S.hist.offset === 0;
  $("games-older").disabled = S.hist.count < PAGE;
}

async function openReplay(id) {
  try {
    const data = await api(`/api/games/${encodeURIComponent(id)}/replay`);
    S.replay = { id, record: data.record, positions: data.positions ?? [], i: 0 };
    $("replay").hidden = false;
    renderReplay();
    $("replay").scrollIntoView({ block: "start" });
  } catch (err) {
    showStatus(`Could not load the replay: ${err.message}`);
  }
}

function stepReplay(to) {
  const r = S.replay;
  if (!r || !r.positions.length) return;
  r.i = Math.max(0, Math.min(r.positions.length - 1, to));
  renderReplay();
}

function renderReplay() {
  const r = S.replay;
  const last = r.positions.length - 1;
  const pos = r.positions[r.i];
  const names = r.record?.players ?? [];
  const nameOf = (s) => `Seat ${s} (${names[s] ?? "?"})`;
  const game = pos?.game ?? r.record?.game;
  $("replay-title").textContent = `Replay of game ${r.id}: ${GAMES[game] ?? game}`;
  let where = r.i === 0 ? "start" : `after move ${r.i}`;
  if (r.i > 0) {
    // The seat that made action i is the seat to move in the position before it.
    const by = r.positions[r.i - 1]?.to_move;
    const action = r.record?.actions?.[r.i - 1];
    if (action) where += `: ${by === null || by === undefined ? "" : `${nameOf(by)} `}${describeAction(action)}`;
  }
  $("rp-pos").textContent = `Position ${r.i} of ${last}, ${where}`;
  $("rp-first").disabled = $("rp-prev").disabled = r.i === 0;
  $("rp-next").disabled = $("rp-last").disabled = r.i >= last;
  if (!pos) {
    $("rp-board").replaceChildren(el("p", {}, "No positions."));
    return;
  }
  const seats = el("ol", { class: "seats" }, ...(pos.hands ?? []).map((hand, s) => el("li",
    { class: s === pos.to_move ? "to-move" : null },
    el("strong", {}, nameOf(s)), seatExtras(game, pos, s), ": ",
    Array.isArray(hand) ? (hand.length ? cardRow(hand) : "no cards") : `${hand?.count ?? 0} cards`)));
  $("rp-board").replaceChildren(seats, boardNode(game, pos, nameOf),
    pos.outcome ? el("p", { class: "result" }, resultText(pos.outcome, nameOf)) : "");
}

function wireHistory() {
  const page = (delta) => {
    S.hist.offset = Math.max(0, S.hist.offset + delta);
    loadHistory();
  };
  $("games-newer").addEventListener("click", () => page(-PAGE));
  $("games-older").addEventListener("click", () => page(PAGE));
  $("rp-first").addEventListener("click", () => stepReplay(0));
  $("rp-prev").addEventListener("click", () => stepReplay(S.replay.i - 1));
  $("rp-next").addEventListener("click", () => stepReplay(S.replay.i + 1));
  $("rp-last").addEventListener("click", () => stepReplay(Infinity));
}

// ------------------------------------------------------------------ keyboard, start-up

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const target = e.target;
  if (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return;
  if (S.section === "table" && /^[1-9]$/.test(e.key)) {
    const t = currentTable();
    const action = t?.legal[Number(e.key) - 1];
    if (t && action && canAct(t)) {
      e.preventDefault();
      play(t, action);
    }
  } else if (S.section === "history" && S.replay && !$("replay").hidden) {
    const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (!(e.key in moves)) return;
    e.preventDefault();
    const d = moves[e.key];
    stepReplay(Number.isFinite(d) ? S.replay.i + d : d < 0 ? 0 : Infinity);
  }
}

function init() {
  wireLobby();
  wireTable();
  wireAccount();
  wireHistory();
  document.addEventListener("keydown", onKey);
  for (const b of document.querySelectorAll("nav button")) b.addEventListener("click", () => show(b.dataset.show));
  $("status-close").addEventListener("click", () => { $("status").hidden = true; });
  renderHeader();
  if (!S.name) {
    // First visit: ask for a name before connecting.
    show("first-run");
    $("first-form").addEventListener("submit", (e) => {
      e.preventDefault();
      S.name = $("first-name").value.trim() || "Guest";
      save("name", S.name);
      renderHeader();
      show("lobby");
      connect();
    }, { once: true });
    $("first-name").focus();
  } else {
    show("lobby");
    connect();
  }
}

init();
