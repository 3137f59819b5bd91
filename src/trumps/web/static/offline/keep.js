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

/** The home screen's offer to keep the game on this device, or null where there is nothing
 *  to offer (no `device` in the catalog, no service workers, already playing on it). */
export function deviceOffer(catalog) {
  const device = catalog?.device;
  if (!device || catalog.offline || !supported()) return null;
  const box = el("p", { class: "home-device", testid: "device", "aria-live": "polite" });
  const offer = (failed) => put(box,
    failed ? el("span", { class: "note error", role: "alert" }, t("Could not keep the game on this device: {reason}", { reason: failed })) : null,
    el("button", { type: "button", class: "ghost", testid: "device-keep", onclick: () => keepIt() },
      t("Play offline too (about {n} MB)", { n: megabytes(device.bytes) })),
    " ", el("span", { class: "note" }, t("Keeps the game on this device, to play the computer with no connection.")));
  const kept = () => put(box,
    el("span", { class: "note", testid: "device-kept" }, t("Kept on this device: with no connection, this page plays the computer.")),
    " ", el("button", { type: "button", class: "link", testid: "device-remove", onclick: () => removeIt() }, t("Remove")));
  const progress = (done, total) => put(box, el("span", { class: "note", testid: "device-keeping" },
    t("Keeping the game on this device… {p}%", { p: num(total ? Math.floor((100 * done) / total) : 0) })));

  const onMessage = (event) => {
    if (event.data?.kind === "trumps-keeping") progress(event.data.done, event.data.total);
    else if (event.data?.kind === "trumps-keeping-failed") failed(event.data.reason);
  };
  const failed = (reason) => {
    navigator.serviceWorker.removeEventListener("message", onMessage);
    save(KEPT, null);
    navigator.serviceWorker.getRegistration(device.sw).then((r) => r?.unregister()).catch(() => {});
    offer(reason);
  };

  async function keepIt() {
    progress(0, 0);
    navigator.serviceWorker.addEventListener("message", onMessage);
    try {
      const registration = await navigator.serviceWorker.register(device.sw);
      const worker = registration.installing ?? registration.waiting ?? registration.active;
      await new Promise((resolve, reject) => {
        const check = () => {
          if (worker.state === "activated") resolve();
          else if (worker.state === "redundant") reject(new Error(t("the download stopped")));
        };
        worker.addEventListener("statechange", check);
        check();
      });
      navigator.serviceWorker.removeEventListener("message", onMessage);
      save(KEPT, "1");
      kept();
    } catch (err) {
      failed(err?.message ?? String(err));
    }
  }

  async function removeIt() {
    save(KEPT, null);
    for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
    for (const name of await caches.keys()) if (name.startsWith(CACHES)) await caches.delete(name);
    offer(null);
  }

  if (load(KEPT) === "1") kept();
  else offer(null);
  return box;
}
