// Provably fair deals (docs/fairness.md), the page's part: give each seat's contribution
// once the table's commitment is known, remember both, and check a finished game's record
// against them (the secret's SHA-256 is the commitment shown before the game, the seed is
// the one the secret and the contributions give, and our own value is among them).
// The independent check is `trumps record verify` with one's own install: this one runs
// the server's page.

import { t } from "./i18n.js";

const KEY = "trumps.fair.";
const SCHEME = "trumps-deal/1";

function load(key) {
  try {
    return JSON.parse(localStorage.getItem(KEY + key) ?? "null");
  } catch {
    return null;
  }
}

function save(key, entry) {
  try {
    localStorage.setItem(KEY + key, JSON.stringify(entry));
  } catch {
    // storage full or refused: the deal is still fair, only this page cannot check it later
  }
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Our value for table `tableId`, whose commitment is `commitment`: the one given before
 *  (after a reload), or 32 fresh random bytes, remembered with the commitment. */
export function contributionFor(tableId, commitment) {
  const kept = load(`t.${tableId}`);
  if (kept && kept.commitment === commitment && typeof kept.value === "string") return kept.value;
  const value = hex(crypto.getRandomValues(new Uint8Array(32)));
  save(`t.${tableId}`, { commitment, value });
  return value;
}

/** The game stored as `recordId` was played at `tableId`: keep what we gave under its id. */
export function rememberGame(tableId, recordId) {
  const kept = load(`t.${tableId}`);
  if (kept && recordId !== null && recordId !== undefined) save(`g.${recordId}`, kept);
}

async function sha256(text) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** Check a finished game's record: {state, seat}, state one of "verified" (and `seat`, when
 *  our contribution is in it), "none" (the record has no fair-deal data), "unavailable"
 *  (this page cannot compute SHA-256: not a secure context), or "failed" with `reason`:
 *  "commitment" (the secret is not the one committed to), "shown" (not the commitment we
 *  were shown), "seed" (the deals are not the ones derived), "mine" (our value is missing). */
export async function checkRecord(record, recordId) {
  const fair = record?.fair;
  if (!fair || fair.scheme !== SCHEME) return { state: "none" };
  if (!globalThis.crypto?.subtle) return { state: "unavailable" };
  if (hex(await sha256(fair.secret)) !== fair.commitment) return { state: "failed", reason: "commitment" };
  const kept = load(`g.${recordId}`);
  if (kept && kept.commitment !== fair.commitment) return { state: "failed", reason: "shown" };
  const text = [SCHEME, fair.secret, ...fair.contributions.map((c) => c ?? "-")].join("\n");
  const digest = await sha256(text);
  let seed = 0n;
  for (const b of digest.slice(0, 8)) seed = (seed << 8n) | BigInt(b);
  if (String(seed >> 11n) !== String(record.seed)) return { state: "failed", reason: "seed" };
  if (!kept) return { state: "verified", seat: null };
  const seat = fair.contributions.indexOf(kept.value);
  if (seat < 0) return { state: "failed", reason: "mine" };
  return { state: "verified", seat };
}

/** A check's result in words (null when the record has no fair-deal data). */
export function fairText(result) {
  switch (result?.state) {
    case "checking": return t("Fair deal: checking…");
    case "verified":
      return result.seat === null
        ? t("Fair deal verified: every deal came from the commitment published before the game.")
        : t("Fair deal verified: every deal came from the commitment published before the game and from your own contribution.");
    case "unavailable": return t("Fair deal: this page cannot check it here (it needs HTTPS); download the record and run trumps record verify.");
    case "failed": return `${t("Fair deal check FAILED:")} ${FAILURES[result.reason]?.() ?? result.reason}`;
    default: return null;
  }
}

const FAILURES = {
  commitment: () => t("the secret is not the one committed to."),
  shown: () => t("the commitment is not the one shown before the game."),
  seed: () => t("the deals are not the ones derived from the secret and the contributions."),
  mine: () => t("your contribution is not in the record."),
};
