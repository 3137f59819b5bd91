// A stand-in for the server's WebSocket whose other end is the page's own table host (a
// Web Worker running the project's engine, offline/worker.js): the same messages, so the
// table code (net.js and the views) does not know which it talks to (issue 28).

const CONNECTING = 0, OPEN = 1, CLOSED = 3;
// The game under way, kept by the page so that it survives closing the tab (the worker
// cannot reach localStorage).
const SAVED = "trumps.offline.game";

export class LocalSocket extends EventTarget {
  /** urls: {worker, pyodide, engine}, each on the page's own origin. */
  constructor(urls) {
    super();
    this.readyState = CONNECTING;
    this.asked = new Map(); // id -> {resolve, reject} of each ask() not yet answered
    this.asks = 0;
    this.worker = new Worker(urls.worker, { type: "module" });
    this.worker.onmessage = (event) => this.received(event.data);
    this.worker.onerror = (event) => this.fail(event.message || "the engine's worker failed");
    let saved = null;
    try { saved = localStorage.getItem(SAVED); } catch { /* storage refused: nothing kept */ }
    this.worker.postMessage({ kind: "boot", pyodide: urls.pyodide, engine: urls.engine, saved });
  }

  received(msg) {
    if (msg.kind === "ready") {
      this.readyState = OPEN;
      this.dispatchEvent(new Event("open"));
    } else if (msg.kind === "message") {
      this.dispatchEvent(new MessageEvent("message", { data: msg.text }));
    } else if (msg.kind === "saved") {
      try {
        if (msg.text) localStorage.setItem(SAVED, msg.text);
        else localStorage.removeItem(SAVED);
      } catch { /* storage full or refused: the game goes on, unkept */ }
    } else if (msg.kind === "answer") {
      const waiting = this.asked.get(msg.id);
      this.asked.delete(msg.id);
      waiting?.resolve({ status: msg.status, body: msg.body });
    } else if (msg.kind === "note") {
      console.info(`trumps: ${msg.text}`);
    } else if (msg.kind === "failed") {
      this.fail(msg.reason);
    }
  }

  fail(reason) {
    this.reason = reason;
    this.close();
  }

  /** A request about the games kept on this device (`/api/games…`: a GET, or the POST that
   *  asks for an analysis), answered by the worker as the server answers it: {status, body}.
   *  Asked while the engine starts, it waits for it. */
  ask(path, method = "GET") {
    if (this.readyState === CLOSED) return Promise.reject(new Error("the engine is not running"));
    const id = ++this.asks;
    return new Promise((resolve, reject) => {
      this.asked.set(id, { resolve, reject });
      this.worker.postMessage({ kind: "api", id, path, method });
    });
  }

  send(text) {
    if (this.readyState === OPEN) this.worker.postMessage({ kind: "send", text });
  }

  close() {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSED;
    this.worker.terminate();
    for (const { reject } of this.asked.values()) reject(new Error("the engine stopped"));
    this.asked.clear();
    this.dispatchEvent(new CloseEvent("close"));
  }
}
