// glob's onMatch streams while the walk runs: a glob that times out has
// already delivered what it found, and a glob that completes delivers each
// match once (unsorted) or each admission to the bounded top-N
// (sortByMtime + maxResults), every one before the promise settles.
const isBun = typeof globalThis.Bun !== "undefined";
const runner = isBun ? await import("bun:test") : await import("node:test");
const after = isBun ? runner.afterAll : runner.after;
const test = (name, fn) => (isBun ? runner.test(name, fn, 120_000) : runner.test(name, { timeout: 120_000 }, fn));
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { glob } from "../index.js";

let root;

// Made by the first test that needs it (hooks have short timeouts under Bun).
function makeTree() {
  if (root) return;
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "fscache-stream-")));
  // 40,000 files in 200 directories.
  for (let d = 0; d < 200; d++) {
    const dir = path.join(root, `d${String(d).padStart(3, "0")}`);
    fs.mkdirSync(dir);
    for (let f = 0; f < 200; f++) fs.writeFileSync(path.join(dir, `f${String(f).padStart(3, "0")}.ts`), "");
  }
}

after(() => root && fs.rmSync(root, { recursive: true, force: true }));

const findTool = (timeoutMs) => ({
  pattern: "**/*.ts",
  path: root,
  hidden: true,
  sortByMtime: true,
  maxResults: 200,
  timeoutMs,
});

test("a timed-out glob over 40k files has delivered matches", async () => {
  makeTree();
  const outcomes = [];
  for (const sorted of [false, true]) {
    // Timeouts from a few ms up: one falls inside the walk on any machine
    // (a loaded one needs the longer ones); the first partial outcome ends
    // the series.
    for (const timeoutMs of [5, 15, 30, 60, 120, 250, 500, 1000, 2000, 4000]) {
      if (outcomes.some((o) => o.sorted === sorted && o.timedOut && o.delivered > 0)) break;
      const opts = sorted ? findTool(timeoutMs) : { pattern: "**/*.ts", path: root, timeoutMs };
      let settled = false;
      let delivered = 0;
      let late = 0;
      const p = glob(opts, (err, m) => {
        assert.equal(err, null);
        assert.equal(typeof m.path, "string");
        if (settled) late++;
        delivered++;
      });
      let error = null;
      try {
        await p;
      } catch (e) {
        error = e;
      }
      settled = true;
      assert.equal(late, 0, "every delivered match reaches JS before the promise settles");
      if (error) assert.equal(error.message, "Aborted: Timeout");
      outcomes.push({ sorted, timeoutMs, timedOut: !!error, delivered });
    }
  }
  for (const sorted of [false, true]) {
    const partial = outcomes.filter((o) => o.sorted === sorted && o.timedOut && o.delivered > 0);
    assert.ok(partial.length > 0, `sorted=${sorted}: no timed-out call delivered matches: ${JSON.stringify(outcomes)}`);
  }
});

test("unsorted: each match once, the same set as the result", async () => {
  makeTree();
  const seen = [];
  const r = await glob({ pattern: "d01*/*.ts", path: root }, (err, m) => seen.push(m.path));
  assert.equal(r.matches.length, 2000);
  assert.deepEqual([...seen].sort(), r.matches.map((m) => m.path).sort());
});

test("sortByMtime + maxResults: admissions to the top N, the result unchanged", async () => {
  makeTree();
  const t0 = Date.now() / 1000 - 1000;
  for (let i = 0; i < 50; i++) {
    const p = path.join(root, "d000", `f${String(i).padStart(3, "0")}.ts`);
    fs.utimesSync(p, t0 + ((i * 37) % 50), t0 + ((i * 37) % 50));
  }
  const all = new Set((await glob({ pattern: "**/*.ts", path: root })).matches.map((m) => m.path));
  const seen = [];
  const opts = { pattern: "**/*.ts", path: root, sortByMtime: true, maxResults: 10 };
  const r = await glob(opts, (err, m) => seen.push(m.path));
  const plain = await glob(opts);
  assert.deepEqual(r, plain);
  assert.equal(new Set(seen).size, seen.length, "each admission once");
  for (const p of seen) assert.ok(all.has(p), `${p} is a match`);
  for (const m of r.matches) assert.ok(seen.includes(m.path), `${m.path} of the result was delivered`);
});
