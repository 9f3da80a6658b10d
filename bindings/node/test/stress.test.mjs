// Stress run from many worker threads (worker_threads), under Node and Bun:
// WORKERS workers make mixed calls (cached and uncached glob, fuzzyFind,
// grep, invalidations, AbortSignal cancellations, timeouts, bad patterns)
// for FSCACHE_STRESS_SECONDS (default 8), checking every answer. Then:
// goroutines come back to the baseline (the addon's debugStats(), backed by
// fscache_debug_goroutines), the scan cache never exceeded its bound while
// the calls ran, and the resident memory of the process grew by less than
// FSCACHE_STRESS_RSS_MB (default 200: V8 heaps of the workers included;
// the C stress test bounds the library's own memory more tightly).
import assert from "node:assert/strict";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";

const isBun = typeof globalThis.Bun !== "undefined";
const runner = isBun ? await import("bun:test") : await import("node:test");
const require = createRequire(import.meta.url);
const addonPath = process.env.FSCACHE_NODE_ADDON || path.resolve(import.meta.dirname ?? ".", "../../../build/fscache.node");
const raw = require(addonPath);

const SECONDS = Number(process.env.FSCACHE_STRESS_SECONDS || 8);
const RSS_MB = Number(process.env.FSCACHE_STRESS_RSS_MB || 200);
const WORKERS = 6;
const ROOTS = 12, DIRS = 6, FILES = 10;

function test(name, fn, timeout) {
  if (isBun) runner.test(name, fn, timeout);
  else runner.test(name, { timeout }, fn);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test("stress: workers, goroutines, memory, cache bound", async () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "fscache-stress-")));
  try {
    for (let r = 0; r < ROOTS; r++) {
      for (let d = 0; d < DIRS; d++) {
        const dir = path.join(base, `r${String(r).padStart(2, "0")}`, `d${d}`);
        fs.mkdirSync(dir, { recursive: true });
        for (let f = 0; f < FILES; f++) fs.writeFileSync(path.join(dir, `file${f}.txt`), `line one\nneedle ${d} ${f}\nline three\n`);
      }
    }
    // Baseline after a warm-up call, with nothing running.
    const lib = await import("../index.js");
    await lib.glob({ pattern: "*", path: base, cache: true });
    await sleep(100);
    const before = raw.debugStats();
    const deadline = Date.now() + SECONDS * 1000;
    const workers = [];
    const results = [];
    for (let i = 0; i < WORKERS; i++) {
      const w = new Worker(new URL("./stress-worker.mjs", import.meta.url), {
        workerData: { base, roots: ROOTS, dirs: DIRS, files: FILES, deadline, seed: i + 1 },
      });
      workers.push(
        new Promise((resolve, reject) => {
          w.on("message", (m) => results.push(m));
          w.on("error", reject);
          w.on("exit", resolve);
        }),
      );
    }
    // Sample while the workers run.
    let maxEntries = 0, maxGoroutines = 0, rssEarly = 0;
    const start = Date.now();
    while (Date.now() < deadline) {
      const s = raw.debugStats();
      maxEntries = Math.max(maxEntries, s.cacheEntries);
      maxGoroutines = Math.max(maxGoroutines, s.goroutines);
      if (!rssEarly && Date.now() - start > SECONDS * 100) rssEarly = process.memoryUsage().rss;
      await sleep(5);
    }
    const rssLate = process.memoryUsage().rss;
    await Promise.all(workers);
    let after = raw.debugStats();
    const settleStart = Date.now();
    // A minute of grace for the goroutines to end (a leak after that).
    while (after.goroutines > before.goroutines && Date.now() - settleStart < 60000) {
      await sleep(20);
      after = raw.debugStats();
    }
    const calls = results.reduce((n, r) => n + r.calls, 0);
    const aborted = results.reduce((n, r) => n + r.aborted, 0);
    const errors = results.flatMap((r) => r.errors);
    const growth = (rssLate - rssEarly) / 2 ** 20;
    console.log(
      `stress (${isBun ? "bun" : "node"}): ${WORKERS} workers, ${SECONDS} s, ${calls} calls (${Math.round(calls / SECONDS)}/s), ` +
        `${aborted} aborted; goroutines ${before.goroutines} before, up to ${maxGoroutines}, ${after.goroutines} after ` +
        `(settled in ${Date.now() - settleStart} ms); cache entries up to ${maxEntries} (bound ${before.cacheMaxEntries}); ` +
        `RSS ${Math.round(rssEarly / 2 ** 20)} MB -> ${Math.round(rssLate / 2 ** 20)} MB`,
    );
    assert.equal(results.length, WORKERS, "every worker reported");
    assert.deepEqual(errors, []);
    assert.ok(calls > WORKERS * 10, `only ${calls} calls`);
    assert.ok(after.goroutines <= before.goroutines,
      `goroutines: ${after.goroutines} after, ${before.goroutines} before:\n${raw.debugGoroutineStacks()}`);
    assert.ok(maxEntries <= before.cacheMaxEntries, `cache held ${maxEntries} scans, bound ${before.cacheMaxEntries}`);
    assert.ok(growth < RSS_MB, `resident memory grew by ${growth.toFixed(1)} MB`);
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}, (SECONDS + 60) * 1000);
