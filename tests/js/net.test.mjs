// net.js: a table's numbered events (applied in order, a gap asks for a resync, an old one
// is dropped) and the socket's hello, backoff and sending rules, with a fake WebSocket.
import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.location = { protocol: "http:", host: "example.test" };
globalThis.WebSocket = { OPEN: 1 };
const { Net, applyEvent, applySnapshot, newTable } = await import("../../src/trumps/web/static/net.js");

const event = (number, extra = {}) => ({ type: "event", table_id: "t1", number, kind: "action", seat: 0, action: "7S", legal: [], view: { n: number }, ...extra });
const snapshot = (n) => ({ type: "table_state", table_id: "t1", game: "kozyri", event: n, view: { n }, seats: [], log: [] });

test("events apply in order; an old one is dropped and a gap asks for a resync", () => {
  const tb = newTable("t1");
  applySnapshot(tb, snapshot(3));
  assert.equal(applyEvent(tb, event(3)), "old");
  assert.equal(applyEvent(tb, event(5)), "gap");
  assert.equal(tb.event, 3);
  assert.equal(applyEvent(tb, event(4, { legal: ["8S"] })), "applied");
  assert.deepEqual([tb.event, tb.view, tb.legal], [4, { n: 4 }, ["8S"]]);
  assert.deepEqual(tb.log.map((e) => [e.number, e.action]), [[4, "7S"]]);
});

test("while a resync is on its way, the next event waits for the snapshot", () => {
  const tb = newTable("t1");
  applySnapshot(tb, snapshot(1));
  tb.resyncing = true;
  assert.equal(applyEvent(tb, event(2)), "gap");
  applySnapshot(tb, snapshot(2));
  assert.equal(tb.resyncing, false);
  assert.equal(applyEvent(tb, event(3)), "applied");
});

test("a hint is dropped by a move, kept when someone only comes or goes", () => {
  const tb = newTable("t1");
  applySnapshot(tb, snapshot(0));
  tb.hint = { action: "7S" };
  applyEvent(tb, event(1, { kind: "join", action: null }));
  assert.deepEqual(tb.hint, { action: "7S" });
  applyEvent(tb, event(2));
  assert.equal(tb.hint, null);
});

test("the log keeps the newest 300 entries", () => {
  const tb = newTable("t1");
  applySnapshot(tb, snapshot(0));
  for (let n = 1; n <= 305; n++) assert.equal(applyEvent(tb, event(n)), "applied");
  assert.equal(tb.log.length, 300);
  assert.equal(tb.log[0].number, 6);
});

class FakeSocket {
  constructor(url) {
    this.url = url;
    this.sent = [];
    this.readyState = 0;
    this.listeners = {};
  }
  addEventListener(kind, f) { (this.listeners[kind] ??= []).push(f); }
  fire(kind, data) { for (const f of this.listeners[kind] ?? []) f({ data }); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.readyState = 3; }
}

function connected() {
  const sockets = [];
  const heard = [];
  const states = [];
  const net = new Net({
    open: (url) => { const ws = new FakeSocket(url); sockets.push(ws); return ws; },
    hello: () => ({ name: "Ann", resume_token: "tok" }),
    onMessage: (m) => heard.push(m),
    onStatus: (state, retry) => states.push([state, retry]),
  });
  net.connect();
  return { net, sockets, heard, states };
}

test("hello on open with the protocol and the resume token; nothing is sent before welcome", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "setInterval"] }); // (its pings: none really waits)
  const { net, sockets, heard, states } = connected();
  const ws = sockets[0];
  assert.equal(ws.url, "ws://example.test/ws");
  ws.readyState = 1;
  ws.fire("open");
  assert.deepEqual(ws.sent, [{ type: "hello", protocol: 1, name: "Ann", contributes: true, resume_token: "tok" }]);
  assert.equal(net.send({ type: "list_tables" }), false);
  ws.fire("message", JSON.stringify({ type: "welcome", player_id: "1", name: "Ann", resume_token: "tok" }));
  assert.equal(net.send({ type: "list_tables" }), true);
  assert.deepEqual(ws.sent.at(-1), { type: "list_tables" });
  assert.deepEqual(states, [["connecting", undefined], ["online", undefined]]);
  ws.fire("message", "not json");
  ws.fire("message", "42");
  assert.deepEqual(heard.map((m) => m.type), ["welcome"]);
  t.mock.timers.tick(25000);
  assert.deepEqual(ws.sent.at(-1), { type: "ping", nonce: 1 });
});

test("a lost connection is tried again after 1, 2, 4, then every 5 seconds", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "setInterval"] });
  const { sockets, states } = connected();
  for (const wait of [1, 2, 4, 5, 5]) {
    sockets.at(-1).fire("close");
    assert.deepEqual(states.at(-1), ["offline", wait]);
    const before = sockets.length;
    t.mock.timers.tick(wait * 1000 - 1);
    assert.equal(sockets.length, before);
    t.mock.timers.tick(1);
    assert.equal(sockets.length, before + 1);
  }
});
