// The connection to the server (docs/protocol.md): one WebSocket, hello → welcome, pings,
// reconnection with backoff, and each table's numbered events with resync on a gap.

/** @type {typeof Proto.PROTOCOL} (the checker fails when the server's version moves on) */
const PROTOCOL = 1;
const PING_MS = 25000;
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 5000; // 1 s, 2 s, 4 s, then every 5 s; retryNow() hurries it
export const LOG_MAX = 300;

/** One socket to /ws that comes back by itself. options:
 *  open(url) → a WebSocket (injected, so tests can use a fake);
 *  hello() → {name, resume_token} for the hello message;
 *  onMessage(msg), onStatus(state, retrySeconds) with state online | connecting | offline.
 *  The messages are the protocol's (Proto: python -m trumps.server.wire.typescript).
 *  @typedef {{open: (url: string) => any, hello: () => {name: string | null, resume_token: string | null},
 *    onMessage: (msg: Proto.ServerMessage) => void, onStatus: (state: string, retry?: number) => void}} NetOptions */
export class Net {
  /** @param {NetOptions} options */
  constructor(options) {
    this.options = options;
    this.ws = null;
    this.welcomed = false;
    this.retryMs = RETRY_FIRST_MS;
    this.retryTimer = 0;
    this.retryAt = 0; // when the next attempt starts (performance.now()), 0 when none waits
    this.pingTimer = 0;
    this.nonce = 0;
  }

  connect() {
    clearTimeout(this.retryTimer);
    this.retryAt = 0;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = this.options.open(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    this.welcomed = false;
    this.options.onStatus("connecting");
    ws.addEventListener("open", () => {
      this.hello();
      this.pingTimer = setInterval(() => this.send({ type: "ping", nonce: ++this.nonce }), PING_MS);
    });
    ws.addEventListener("message", (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (!msg || typeof msg !== "object") return;
      if (msg.type === "welcome") {
        this.welcomed = true;
        this.retryMs = RETRY_FIRST_MS;
        this.options.onStatus("online");
      }
      this.options.onMessage(msg);
    });
    ws.addEventListener("close", () => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return; // replaced on purpose (restart)
      this.ws = null;
      this.welcomed = false;
      const delay = this.retryMs;
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
      this.retryAt = performance.now() + delay;
      this.options.onStatus("offline", delay / 1000);
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
  }

  /** Seconds until the next attempt while offline (0 when none is waiting). */
  retryIn() {
    return this.retryAt ? Math.max(0, Math.ceil((this.retryAt - performance.now()) / 1000)) : 0;
  }

  /** Try again at once (the "Retry now" button, the network or the page coming back);
   *  nothing while connected and welcomed. An attempt still opening is dropped for a new one. */
  retryNow() {
    if (this.welcomed) return;
    const old = this.ws;
    this.ws = null;
    clearInterval(this.pingTimer);
    if (old) old.close();
    this.connect();
  }

  /** Say hello again on the open socket (after a rejected resume token). */
  hello() {
    const { name, resume_token: token } = this.options.hello();
    // contributes: this page gives a random value to every deal it sits at (fairdeal.js).
    // No name chosen: null, and every viewer words it in their own language ("Guest").
    /** @type {Proto.Hello} */
    const msg = { type: "hello", protocol: PROTOCOL, name: name || null, contributes: true };
    if (token) msg.resume_token = token;
    this.ws?.send(JSON.stringify(msg));
  }

  /** Drop the socket and open a new one now (a new name or a new token). */
  restart() {
    const old = this.ws;
    this.ws = null;
    clearInterval(this.pingTimer);
    if (old) old.close();
    this.retryMs = RETRY_FIRST_MS;
    this.connect();
  }

  /** Send a message once welcomed; false when there is no usable connection.
   *  @param {Proto.ClientMessage} msg */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || !this.welcomed) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }
}

// ------------------------------------------------------------------ a table's state

export function newTable(id) {
  return {
    id, game: "kozyri", rules: {}, seats: [], seat: null, event: 0, view: {}, legal: [],
    why_not: {}, to_move: null, clocks: null, clockAt: 0, private: false, time_control: null, log: [],
    chat: [], chatSeq: 0, outcome: null, record_id: null, bot_pace: "normal",
    spectators: { count: 0, names: [] }, // who watches (a `spectators` message)
    sent: false, // an action is on its way: wait for its event (or error)
    resyncing: false, // a resync is on its way: ignore events until the snapshot
    hint: null, rematch: null,
    takeback: null, can_take_back: false, // a take-back asked, and whether I may (takebackview.js)
    offline: false, // no connection to the server: nothing can be played (app.js)
    replaced: false, // another tab plays this seat now (a `replaced` message)
    closed: null, hands: [], // what the latest move closed, and the hands finished (trickview.js)
  };
}

function setClocks(tb, clocks) {
  tb.clocks = Array.isArray(clocks) ? clocks.slice() : null;
  tb.clockAt = performance.now();
}

/** Replace a table's state with a table_state snapshot.
 *  @param {Proto.TableState} m */
export function applySnapshot(tb, m) {
  Object.assign(tb, {
    game: m.game, rules: m.rules ?? {}, seats: m.seats ?? [], seat: m.seat ?? null, event: m.event,
    view: m.view ?? {}, legal: m.legal ?? [], why_not: m.why_not ?? {}, to_move: m.to_move ?? null, private: !!m.private,
    time_control: m.time_control ?? null, outcome: m.outcome ?? null, record_id: m.record_id ?? null, rated: !!m.rated,
    bot_pace: m.bot_pace ?? "normal", spectators: m.spectators ?? { count: 0, names: [] }, sent: false, resyncing: false, replaced: false, closed: null,
    takeback: m.takeback ?? null, can_take_back: !!m.can_take_back,
  });
  setClocks(tb, m.clocks);
  if (Array.isArray(m.log)) {
    // Each entry tells what its event told (closed, next_hand, took): the log lines, and
    // the hands finished, are the same as from the events (missed ones too).
    tb.log = m.log.slice(-LOG_MAX);
    const known = new Set(tb.hands.map((h) => h.hand));
    const missed = tb.log.map((e) => e.closed?.hand).filter((h) => h && !known.has(h.hand));
    if (missed.length) tb.hands = [...tb.hands, ...missed].sort((a, b) => a.hand - b.hand);
  }
}

/** Apply an event: "applied", "old" (already in a snapshot) or "gap" (resync needed).
 *  @param {Proto.Event} m */
export function applyEvent(tb, m) {
  if (m.number <= tb.event) return "old";
  if (m.number !== tb.event + 1 || tb.resyncing) return "gap";
  const took = m.action === "take" ? tb.view.take_count ?? null : null; // K12: as the view before said
  if (m.kind === "action" || m.kind === "timeout" || m.kind === "takeback") tb.closed = m.closed ?? null;
  if (m.closed?.hand) tb.hands = [...tb.hands, m.closed.hand];
  Object.assign(tb, { event: m.number, view: m.view ?? tb.view, legal: m.legal ?? [], why_not: m.why_not ?? {}, to_move: m.to_move ?? null, sent: false,
    takeback: m.takeback ?? null, can_take_back: !!m.can_take_back });
  setClocks(tb, m.clocks);
  if (Array.isArray(m.seats)) tb.seats = m.seats;
  if (m.kind !== "join" && m.kind !== "leave" && m.kind !== "disconnect" && m.kind !== "return" && m.kind !== "takeover") tb.hint = null;
  tb.log.push({ number: m.number, kind: m.kind, seat: m.seat ?? null, action: m.action ?? null, by_bot: !!m.by_bot,
    closed: m.closed ?? null, took, next_hand: m.closed?.hand && !m.view?.outcome ? m.view?.hand ?? null : null });
  if (tb.log.length > LOG_MAX) tb.log.splice(0, tb.log.length - LOG_MAX);
  return "applied";
}

/** Seconds left on a seat's clock, counting down locally for the seat to move. */
export function clockLeft(tb, seat) {
  const base = tb.clocks?.[seat];
  if (base === null || base === undefined) return null;
  const running = seat === tb.to_move && !tb.outcome;
  return running ? Math.max(0, base - (performance.now() - tb.clockAt) / 1000) : base;
}
