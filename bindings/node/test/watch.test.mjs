// The watched scan cache and cacheStats() (fscache additions): a cached
// call sees changes without invalidation, invalidateFsScanCache(file)
// refreshes one directory instead of rescanning, and FS_SCAN_CACHE_WATCH=0
// turns watching off. Runs under node --test and bun test.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const isBun = typeof globalThis.Bun !== "undefined";
const runner = isBun ? await import("bun:test") : await import("node:test");
const it = (name, fn) => (isBun ? runner.test(name, fn, 120_000) : runner.test(name, { timeout: 120_000 }, fn));
const here = path.dirname(fileURLToPath(import.meta.url));
const { glob, fuzzyFind, grep, invalidateFsScanCache, cacheStats } = await import("../index.js");

function tree() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "fscache-watch-")));
  fs.mkdirSync(path.join(root, "src", "ui"), { recursive: true });
  fs.writeFileSync(path.join(root, "src", "ui", "button.ts"), "x");
  fs.writeFileSync(path.join(root, "readme.md"), "x");
  return root;
}
const paths = (r) => r.matches.map((m) => m.path).sort().join(" ");

it("cacheStats() has every documented field", () => {
  const s = cacheStats();
  for (const k of ["entries", "watchedEntries", "rootsWatched", "watches", "hits", "eventsApplied",
    "refreshes", "refreshEntries", "refreshMs", "fullScans", "fullScanEntries", "fullScanMs"]) {
    assert.equal(typeof s[k], "number", k);
  }
  assert.equal(typeof s.watching, "boolean");
  assert.equal(typeof s.fallbacks, "object");
  assert.equal(typeof s.fallbackRoots, "object");
  for (const k of ["roots", "building", "files", "bytes", "indexBytes", "capBytes", "builds", "buildFailures",
    "buildMs", "lastBuildMs", "queries", "candidates", "candidatesPerQuery", "skipped", "reindexed"]) {
    assert.equal(typeof s.grepIndex[k], "number", `grepIndex.${k}`);
  }
  assert.equal(typeof s.grepIndex.enabled, "boolean");
  assert.equal(typeof s.grepIndex.fallbacks, "object");
  assert.equal(typeof s.uncached.served, "number");
  assert.equal(typeof s.uncached.walks, "object");
  assert.equal(typeof s.dropped, "object");
});

it("uncached calls are answered from the watched scan from the third on, current", async () => {
  if (process.platform !== "linux") return; // nothing is watched elsewhere
  const root = tree();
  try {
    // The glob tool's shape (no cache).
    const o = { pattern: "**/*.ts", path: root, maxResults: 200, sortByMtime: true, gitignore: true, recursive: false };
    const served0 = cacheStats().uncached.served;
    for (let i = 0; i < 3; i++) assert.equal(paths(await glob(o)), "src/ui/button.ts");
    assert.equal(cacheStats().uncached.served, served0 + 1);
    fs.writeFileSync(path.join(root, "src", "ui", "input.ts"), "x");
    fs.renameSync(path.join(root, "src", "ui"), path.join(root, "src", "widgets"));
    assert.equal(paths(await glob(o)), "src/widgets/button.ts src/widgets/input.ts");
    const s = cacheStats();
    assert.equal(s.uncached.served, served0 + 2, JSON.stringify(s));
    assert.ok(s.uncached.walks.first_call >= 1 && s.uncached.walks.watch_started >= 1, JSON.stringify(s));
  } finally {
    invalidateFsScanCache();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

it("a watched cached call sees changes without invalidation", async () => {
  if (process.platform !== "linux") return; // TTL elsewhere
  // The agent's flow: a first cached call, edits at once, calls again. A
  // first cached call walks without watches and fills the watched
  // partition in the background (FS_SCAN_CACHE_WATCH_LATER), so the edits
  // land while the fill drains its events: a directory written in, then
  // renamed, was gone when listed again for the write's events, and the
  // partition was dropped (answers stayed correct, by a walk; the root was
  // not watched for a while). Several roots, for the interleavings.
  invalidateFsScanCache();
  for (let round = 0; round < 30; round++) {
    const root = tree();
    try {
      assert.equal(paths(await glob({ pattern: "**/*.ts", path: root, cache: true })), "src/ui/button.ts");
      assert.equal((await fuzzyFind({ query: "btn", path: root, cache: true })).matches.length, 1);
      fs.writeFileSync(path.join(root, "src", "ui", "input.ts"), "x");
      fs.renameSync(path.join(root, "src", "ui"), path.join(root, "src", "widgets"));
      fs.mkdirSync(path.join(root, "lib", "deep"), { recursive: true });
      fs.writeFileSync(path.join(root, "lib", "deep", "btn.ts"), "x");
      assert.equal(paths(await glob({ pattern: "**/*.ts", path: root, cache: true })),
        "lib/deep/btn.ts src/widgets/button.ts src/widgets/input.ts");
      const f = await fuzzyFind({ query: "btn", path: root, cache: true });
      assert.deepEqual(f.matches.map((m) => m.path).sort(), ["lib/deep/btn.ts", "src/widgets/button.ts"]);
      const s = cacheStats();
      // Both partitions (glob's and fuzzyFind's keys) are still watched.
      assert.ok(s.watching && s.watchedEntries >= 2 && s.eventsApplied > 0 && !(root in s.fallbackRoots),
        `round ${round}: ${JSON.stringify(s)}`);
    } finally {
      invalidateFsScanCache();
      fs.rmSync(root, { recursive: true, force: true });
    }
  }
});

it("invalidateFsScanCache(file) refreshes one directory, not the root", () => {
  const root = tree();
  try {
    const code = `
      const { glob, invalidateFsScanCache, cacheStats } = require(${JSON.stringify(path.join(here, "..", "index.cjs"))});
      (async () => {
        const o = { pattern: "**/*", path: ${JSON.stringify(root)}, cache: true };
        await glob(o);
        require("fs").writeFileSync(${JSON.stringify(path.join(root, "src", "new.ts"))}, "x");
        const seenBefore = (await glob(o)).matches.some((m) => m.path === "src/new.ts");
        const before = cacheStats();
        invalidateFsScanCache(${JSON.stringify(path.join(root, "src", "new.ts"))});
        const fresh = (await glob(o)).matches.some((m) => m.path === "src/new.ts");
        const after = cacheStats();
        console.log(JSON.stringify({ seenBefore, fresh, before, after }));
      })();`;
    const r = spawnSync(process.execPath, ["-e", code], {
      env: { ...process.env, FS_SCAN_CACHE_WATCH: "0", FS_SCAN_CACHE_TTL_MS: "600000" }, encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    const { seenBefore, fresh, before, after } = JSON.parse(r.stdout);
    assert.equal(after.watching, false);
    assert.equal(after.watchOff, "disabled");
    assert.equal(seenBefore, false, "with watching off a cached call within the TTL serves the cached scan");
    assert.equal(fresh, true);
    assert.equal(after.fullScans, before.fullScans, "the invalidation rescanned the root");
    assert.equal(after.refreshes, before.refreshes + 1);
    assert.equal(after.entries, 1);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

it("a root grepped twice is indexed in the background, and indexed greps are current", async () => {
  if (process.platform !== "linux") return; // no watcher elsewhere: no index
  const root = tree();
  try {
    for (let i = 0; i < 50; i++) fs.writeFileSync(path.join(root, "src", `f${i}.ts`), `export const v${i} = ${i};\n`);
    const o = { pattern: "v17 =", path: root };
    assert.equal((await grep(o)).totalMatches, 1);
    assert.equal((await grep(o)).totalMatches, 1);
    for (let i = 0; i < 500 && cacheStats().grepIndex.roots === 0; i++) await new Promise((r) => setTimeout(r, 10));
    const before = cacheStats().grepIndex;
    assert.equal(before.roots, 1, JSON.stringify(before));
    fs.writeFileSync(path.join(root, "src", "f3.ts"), "export const v17 = 3;\n");
    const r = await grep(o);
    assert.deepEqual(r.matches.map((m) => m.path).sort(), ["src/f17.ts", "src/f3.ts"]);
    assert.equal(r.filesSearched, 52, "files the index ruled out count as searched");
    const after = cacheStats().grepIndex;
    assert.equal(after.queries, before.queries + 1, JSON.stringify(after));
    assert.ok(after.skipped > before.skipped);
  } finally {
    invalidateFsScanCache();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
