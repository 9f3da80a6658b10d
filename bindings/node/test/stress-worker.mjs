// One worker of stress.test.mjs: mixed calls against the package until the
// deadline, checking every answer. Posts {calls, aborted, errors} at the end.
import { parentPort, workerData } from "node:worker_threads";

const lib = await import("../index.js");
const { glob, fuzzyFind, grep, invalidateFsScanCache } = lib;
const { base, roots, dirs, files, deadline, seed } = workerData;

let state = seed >>> 0 || 1;
const rand = (n) => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return (state >>> 8) % n;
};

let calls = 0;
let aborted = 0;
const errors = [];
const fail = (what, detail) => {
  if (errors.length < 20) errors.push(`${what}: ${detail}`);
};

/** Expects an answer, or (when allowAbort) an "Aborted: ..." rejection. */
async function expect(what, promise, check, allowAbort = false) {
  calls++;
  try {
    const r = await promise;
    const bad = check(r);
    if (bad) fail(what, bad);
  } catch (e) {
    if (allowAbort && e instanceof Error && e.message.startsWith("Aborted: ")) aborted++;
    else fail(what, `rejected: ${e && e.message}`);
  }
}

const total = (n) => (r) => (r.totalMatches === n ? "" : `totalMatches ${r.totalMatches}, want ${n}`);

while (Date.now() < deadline) {
  const r = `${base}/r${String(rand(roots)).padStart(2, "0")}`;
  const op = rand(16);
  if (op < 6) {
    await expect("cached glob", glob({ pattern: "**/*.txt", path: r, cache: true }), total(dirs * files));
  } else if (op < 8) {
    await expect("fuzzyFind", fuzzyFind({ query: "file7", path: r, cache: true }), total(dirs));
  } else if (op < 9) {
    let seen = 0;
    await expect("glob with onMatch", glob({ pattern: "d1/*", path: r }, () => seen++), (res) =>
      res.totalMatches !== files ? `totalMatches ${res.totalMatches}` : "");
  } else if (op < 11) {
    await expect("grep", grep({ pattern: "needle 3", path: r, cache: op === 9 }), total(files));
  } else if (op < 12) {
    calls++;
    invalidateFsScanCache(rand(16) ? `${r}/d0/file1.txt` : undefined);
  } else if (op < 14) {
    // Cancelled mid-call by an AbortSignal (or finished first).
    const ac = new AbortController();
    const p = grep({ pattern: "needle", path: r, signal: ac.signal });
    setTimeout(() => ac.abort(), rand(3));
    await expect("aborted grep", p, total(dirs * files), true);
  } else if (op < 15) {
    await expect("grep with a 1 ms timeout", grep({ pattern: "line", path: r, timeoutMs: 1 }), total(2 * dirs * files), true);
  } else {
    calls++;
    try {
      await glob({ pattern: "[", path: r });
      fail("bad glob", "resolved");
    } catch (e) {
      if (!(e instanceof Error) || !e.message.startsWith("Invalid glob pattern:")) fail("bad glob", String(e));
    }
  }
}
parentPort.postMessage({ calls, aborted, errors });
