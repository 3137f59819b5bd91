// The page's own engine keeps two things on this device, in one IndexedDB database
// (`trumps-offline`): the `snapshot` of Pyodide's memory that starts it quickly
// (snapshot.js) and the `games` finished against the computer (their records, for the
// history, the replay and the download). Both worker.js and nothing else open it.

const NAME = "trumps-offline";
const STORES = ["snapshot", "games"];

export function openDb() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(NAME, 1);
    req.onupgradeneeded = () => {
      for (const store of STORES) {
        if (!req.result.objectStoreNames.contains(store)) req.result.createObjectStore(store);
      }
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

const asPromise = (req) => new Promise((resolve, reject) => {
  req.onsuccess = () => resolve(req.result);
  req.onerror = () => reject(req.error);
});

/** Run `work(store)` in one transaction on `store`; its result once the transaction is done. */
export async function inStore(store, mode, work) {
  const db = await openDb();
  try {
    const tx = db.transaction(store, mode);
    const result = await work(tx.objectStore(store), asPromise);
    await new Promise((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = tx.onabort = () => reject(tx.error);
    });
    return result;
  } finally {
    db.close();
  }
}
