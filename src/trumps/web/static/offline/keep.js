// "Play offline too": a server that offers its page's own engine (`trumps serve --offline`,
// the catalog's `device`) lets a player keep the page, Pyodide and the engine on the device,
// so that with no connection the page still opens and plays the computer (issue 28).
// Nothing is downloaded until the player agrees (on a phone, data costs money): only then
// is the service worker (offline/sw.js) registered, and it keeps the files; the player may
// remove the copy again.

import { el, load, put, save } from "../dom.js";
import { num, t } from "../i18n.js";

const KEPT = "device"; // localStorage (dom.js's save/load): "1" once the player agreed
const CACHES = "trumps-site-"; // the service worker's caches (offline/sw.js)

const supported = () => "serviceWorker" in navigator && window.isSecureContext;

/** Whether this page was loaded from the device's copy because the server could not be
 *  reached (the service worker marks such answers): it then plays on the device. */
export const fromDevice = (response) => response.headers.get("x-trumps-kept") === "1";

/** The device's copy still registered where the player kept it (a later visit: browsers
 *  then fetch the service worker again and install a new version beside the old). */
export function keepRegistered(device) {
  if (device?.sw && supported() && load(KEPT) === "1") {
    navigator.serviceWorker.register(device.sw).catch(() => {});
  }
}

/** "About 7 MB" of `bytes`. */
const megabytes = (bytes) => num(Math.max(1, Math.round(bytes / 1e6)));

/** Whether this origin's copy is kept: a service worker installed (active, or waiting to
 *  take over) and its cache there. */
async function keptHere() {
  const registration = await navigator.serviceWorker.getRegistration("/");
  if (!registration?.active && !registration?.waiting) return false;
  return (await caches.keys()).some((name) => name.startsWith(CACHES));
}

/** Resolve once `worker` has kept every file (installed, or active already); reject when
 *  its install failed. */
function installed(worker) {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (["installed", "activating", "activated"].includes(worker.state)) resolve();
      else if (worker.state === "redundant") reject(new Error(t("the download stopped")));
    };
    worker.addEventListener("statechange", check);
    check();
  });
}

/** The home screen's offer to keep the game on this device, or null where there is nothing
 *  to offer (no `device` in the catalog, no service workers, already playing on it). */
export function deviceOffer(catalog) {
  const device = catalog?.device;
  if (!device || catalog.offline || !supported()) return null;
  const shown = el("div", {}); // what is shown, drawn again at each change
  const said = el("p", { class: "sr-only", role: "status" }); // what a screen reader hears
  const box = el("div", { class: "home-device", testid: "device" }, shown, said);
  let failure = null; // the first reason a keeping failed (the worker's, if it says)
  const show = (focus, ...nodes) => {
    put(shown, nodes);
    if (focus) focus.focus();
  };
  const offer = (failed, focus = false) => {
    const button = el("button", { type: "button", class: "ghost", testid: "device-keep", onclick: () => keepIt() },
      t("Play offline too (about {n} MB)", { n: megabytes(device.bytes) }));
    show(focus ? button : null,
      failed ? el("p", { class: "note error", role: "alert" }, t("Could not keep the game on this device: {reason}", { reason: failed })) : null,
      button,
      el("p", { class: "note" }, t("Keeps the game on this device, to play the computer with no connection.")));
  };
  const kept = (focus = false) => {
    const remove = el("button", { type: "button", class: "link", testid: "device-remove", onclick: () => removeIt() }, t("Remove"));
    const line = el("p", { class: "note", testid: "device-kept" }, t("Kept on this device: with no connection, this page plays the computer."));
    show(focus ? remove : null, line, remove);
    if (focus) said.textContent = line.textContent;
  };
  // The progress line, made once and its text changed (the focus stays on it), and each
  // tenth of it said to a screen reader.
  const line = el("p", { class: "note", testid: "device-keeping", tabindex: "-1" });
  let tenth = -1;
  const progress = (done, total, focus = false) => {
    const p = total ? Math.floor((100 * done) / total) : 0;
    line.textContent = t("Keeping the game on this device… {p}%", { p: num(p) });
    if (!shown.contains(line)) show(focus ? line : null, line);
    if (Math.floor(p / 10) !== tenth) {
      tenth = Math.floor(p / 10);
      said.textContent = line.textContent;
    }
  };

  const onMessage = (event) => {
    if (event.data?.kind === "trumps-keeping") progress(event.data.done, event.data.total);
    else if (event.data?.kind === "trumps-keeping-failed") failure ??= event.data.reason;
  };
  const listen = (on) => navigator.serviceWorker[on ? "addEventListener" : "removeEventListener"]("message", onMessage);

  async function follow(worker, focus) {
    listen(true);
    try {
      await installed(worker);
      // (a registration that outlived its cache answers at once: it must be kept again)
      if (!(await keptHere())) throw new Error(t("the download stopped"));
      save(KEPT, "1");
      kept(focus);
    } catch (err) {
      save(KEPT, null);
      navigator.serviceWorker.getRegistration("/").then((r) => r?.unregister()).catch(() => {});
      offer(failure ?? err?.message ?? String(err), focus);
    } finally {
      listen(false);
      failure = null;
    }
  }

  async function keepIt() {
    progress(0, 0, true);
    navigator.storage?.persist?.().catch(() => {}); // asked not to evict it when space is short
    try {
      const registration = await navigator.serviceWorker.register(device.sw);
      await follow(registration.installing ?? registration.waiting ?? registration.active, true);
    } catch (err) {
      offer(err?.message ?? String(err), true);
    }
  }

  async function removeIt() {
    save(KEPT, null);
    for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
    for (const name of await caches.keys()) if (name.startsWith(CACHES)) await caches.delete(name);
    // A fresh page, no longer served by the removed worker (which a new keeping in this one
    // would bring back without keeping anything).
    location.reload();
  }

  // What is kept here is the registration's and the cache's to say, not only the note in
  // localStorage: a page reloaded while keeping, or another tab, may have kept it since.
  if (load(KEPT) === "1") kept();
  else offer(null);
  navigator.serviceWorker.getRegistration("/").then(async (registration) => {
    if (registration?.installing && !registration.active) {
      progress(0, 0);
      await follow(registration.installing, false);
    } else if (await keptHere()) {
      save(KEPT, "1");
      kept();
    } else if (load(KEPT) === "1") {
      save(KEPT, null); // dropped by the browser (storage cleared, or evicted)
      offer(null);
    }
  }).catch(() => {});
  return box;
}
