// The page's own table host (issue 28): a module Web Worker running the project's Python
// engine in Pyodide (trumps.host.local.LocalHost), speaking the server's protocol as JSON
// text. The page talks to it through LocalSocket (localsocket.js) as it talks to a server.
//
// Messages from the page: {kind: "boot", pyodide, engine, saved} (the URLs of pyodide.mjs's
// folder and of the engine's zip, both on the page's own origin, and the game under way the
// page kept, or null), then {kind: "send", text} and {kind: "api", id, path, method} (a
// request about the games kept on this device: listing, record, replay, analysis; games.js).
// Messages to the page: {kind: "ready"} or {kind: "failed", reason}, then
// {kind: "message", text} for each message the host sends, in order, and after each change
// {kind: "saved", text}: the game under way (null when none), for the page to keep; and
// {kind: "note", text}: how the engine started, for the browser's console; and
// {kind: "answer", id, status, body} to each "api".

import { answer, keepGame } from "./games.js";
import { dropSnapshot, engineKey, readSnapshot, writeSnapshot } from "./snapshot.js";

let host = null; // the Python LocalHost, once booted
let python = null; // Pyodide, once booted (the analysis is imported when first asked for)
let botTimer = 0;
const waiting = []; // what the page asked before the host was ready, to run then
const ENGINE_DIR = "/trumps-engine";

async function boot(pyodideUrl, engineUrl, saved) {
  const { loadPyodide } = await import(`${pyodideUrl}pyodide.mjs`);
  const response = await fetch(engineUrl);
  if (!response.ok) throw new Error(`the engine (${engineUrl}) answered ${response.status}`);
  const engine = await response.arrayBuffer();
  const key = await engineKey(engine);
  const start = performance.now();
  let pyodide = await fromSnapshot(loadPyodide, pyodideUrl, engine, key);
  if (pyodide) {
    note(`the engine started from its snapshot in ${Math.round(performance.now() - start)} ms`);
  } else {
    pyodide = await loadPyodide({ indexURL: pyodideUrl, _makeSnapshot: true });
    pyodide.unpackArchive(engine, "zip", { extractDir: ENGINE_DIR });
    pyodide.runPython(`import sys; sys.path.insert(0, "${ENGINE_DIR}"); import trumps.host.local`);
    note(`the engine started in ${Math.round(performance.now() - start)} ms`);
    const memory = pyodide.makeMemorySnapshot();
    // Kept while the game starts; said once it is (a test closes the tab only then).
    writeSnapshot(key, memory).then((kept) => note(`the engine's snapshot is ${kept ? "kept" : "not kept"}`));
  }
  host = pyodide.pyimport("trumps.host.local").LocalHost();
  python = pyodide;
  if (saved) host.restore(saved); // a save that cannot be read is dropped: a fresh start
}

/** Pyodide started from the kept snapshot of this engine (snapshot.js), or null. */
async function fromSnapshot(loadPyodide, pyodideUrl, engine, key) {
  const memory = await readSnapshot(key);
  if (!memory) return null;
  try {
    const pyodide = await loadPyodide({ indexURL: pyodideUrl, _loadSnapshot: memory });
    // The snapshot holds memory, not files: the engine's files again, for what it imports
    // later; and fresh randomness, not the snapshot's (deals use the system's randomness).
    pyodide.unpackArchive(engine, "zip", { extractDir: ENGINE_DIR });
    pyodide.runPython("import random; random.seed()");
    pyodide.pyimport("trumps.host.local");
    return pyodide;
  } catch {
    await dropSnapshot();
    return null;
  }
}

/** A line for the browser's console (how the engine started), through the page. */
function note(text) {
  self.postMessage({ kind: "note", text });
}

let delivered = Promise.resolve(); // the messages go out in order, each after what it waits for

/** Hand the page the host's messages, and after them the game under way to keep. A game
 * that just ended is kept on this device (games.js) before the page hears of it. */
function post(texts) {
  const list = texts.toJs ? texts.toJs() : texts;
  texts.destroy?.();
  const finished = host.take_finished_text() ?? null;
  const saved = host.save() ?? null;
  delivered = delivered.then(async () => {
    if (finished) {
      try {
        await keepGame(JSON.parse(finished));
      } catch (e) {
        note(`the finished game could not be kept on this device: ${e?.message ?? e}`);
      }
    }
    for (const text of list) self.postMessage({ kind: "message", text });
    self.postMessage({ kind: "saved", text: saved });
  });
}

/** The page's request about kept games (/api/games…), answered as the server would. */
async function ask(id, path, method) {
  let reply;
  try {
    reply = await answer(path, method ?? "GET", {
      replay: (record) => host.replay_text(record),
      analysis: (record) => python.pyimport("trumps.host.analysis").GameAnalysis(record),
    });
  } catch (e) {
    reply = { status: 500, body: { error: "internal_error", message: String(e?.message ?? e) } };
  }
  await delivered; // after the messages before it (a game that just ended is listed)
  self.postMessage({ kind: "answer", id, ...reply });
}

/** Make the next bot move when the table's pace says it is due (the host owns no timers). */
function schedule() {
  clearTimeout(botTimer);
  const due = host.bot_due();
  if (due === undefined || due === null) return;
  botTimer = setTimeout(() => {
    post(host.bot_move_text());
    schedule();
  }, Math.max(0, due * 1000));
}

function handle(text) {
  post(host.handle_text(text));
  schedule();
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.kind === "boot") {
    try {
      await boot(msg.pyodide, msg.engine, msg.saved);
    } catch (e) {
      self.postMessage({ kind: "failed", reason: String(e?.message ?? e) });
      return;
    }
    self.postMessage({ kind: "ready" });
    for (const run of waiting.splice(0)) run();
  } else if (msg.kind === "send") {
    if (host) handle(msg.text);
    else waiting.push(() => handle(msg.text));
  } else if (msg.kind === "api") {
    if (host) ask(msg.id, msg.path, msg.method);
    else waiting.push(() => ask(msg.id, msg.path, msg.method));
  }
};
