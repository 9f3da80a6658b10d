// Fault injection from JS (make test-faults; not part of the package
// suites: it needs the addon and library built with fscache_faultinject,
// FSCACHE_NODE_ADDON and FSCACHE_LIB pointing at them). For each kind of
// goroutine a call runs, a panic injected there rejects the call's Promise
// with an Error of code "internal" naming it; the process lives, the same
// call then answers as before, and at the end the process holds no more
// descriptors, and the library no more goroutines, than before. A panic
// after a call (the glob JSON built in the background) is counted in
// cacheStats().dropped. Runs under node and bun; exits 1 on a failure.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";

const addon = createRequire(import.meta.url)(path.resolve(process.env.FSCACHE_NODE_ADDON));
if (typeof addon.faultInject !== "function") {
  console.error(`${process.env.FSCACHE_NODE_ADDON} is not the fault-injection addon (make test-faults builds it)`);
  process.exit(2);
}
const { glob, grep, fuzzyFind, cacheStats, invalidateFsScanCache } = await import("../index.js");

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "fscache-faults-")));
for (let d = 0; d < 70; d++) {
  const dir = path.join(root, `d${String(d).padStart(3, "0")}`);
  fs.mkdirSync(dir);
  for (let f = 0; f < 3; f++) fs.writeFileSync(path.join(dir, `f${String(f).padStart(4, "0")}.ts`), "alpha\nbeta\n");
}
const fds = () => fs.readdirSync("/proc/self/fd").length;
const goroutines = () => addon.debugStats().goroutines;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function settle(g, n) {
  for (let i = 0; i < 6000; i++) {
    if (goroutines() <= g && fds() <= n) return true;
    await sleep(10);
  }
  return false;
}
// The answer without its timings (none are in these results).
const answer = (r) => JSON.stringify(r);

const cases = [
  ["call", 0, () => glob({ pattern: "**/*.ts", path: root })],
  ["call", 0, () => fuzzyFind({ query: "f0001", path: root })],
  ["walkList", 5, () => glob({ pattern: "**/*.ts", path: root })],
  ["walkList", 9, () => grep({ pattern: "beta", path: root, maxCount: 150 })],
  ["walkFinish", 2, () => glob({ pattern: "**/*.ts", path: root })],
  ["grepSearch", 3, () => grep({ pattern: "alpha", path: root })],
  ["grepFed", 3, () => grep({ pattern: "beta", path: root, maxCount: 150 })],
  ["matcher", 4, () => grep({ pattern: "alp(?=ha)", path: root, outputMode: "count" })],
];
let failures = 0;
function check(what, fn) {
  try {
    fn();
    console.log(`ok: ${what}`);
  } catch (e) {
    failures++;
    console.error(`FAIL: ${what}: ${e.message}`);
  }
}
try {
  for (const [, , call] of cases) await call(); // what lives for the process starts
  invalidateFsScanCache();
  await settle(1 << 30, 1 << 30);
  await sleep(100);
  const g0 = goroutines();
  const fd0 = fds();
  check("an unknown kind is refused", () => assert.equal(addon.faultInject("nope", 0), false));
  for (const [kind, skip, call] of cases) {
    const want = answer(await call());
    invalidateFsScanCache();
    assert.equal(addon.faultInject(kind, skip), true);
    let err = null;
    try {
      await call();
    } catch (e) {
      err = e;
    }
    const unfired = addon.faultInject();
    const again = answer(await call());
    check(`a panic in ${kind} rejects the call with code internal, the next call answers as before`, () => {
      assert.equal(unfired, false, "the point was not reached");
      assert.ok(err, "the call resolved");
      assert.equal(err.code, "internal", String(err));
      assert.ok(err.message.startsWith(`internal error: panic in fscache's ${kind} goroutine: fault injected in ${kind}`), err.message);
      assert.equal(again, want);
    });
  }
  const o = { pattern: "d004/f0001.ts", path: root, cache: true };
  await glob(o);
  const before = cacheStats().dropped.globJSON?.count ?? 0;
  addon.faultInject("globJSON", 0);
  const hit = await glob(o);
  for (let i = 0; i < 6000 && (cacheStats().dropped.globJSON?.count ?? 0) === before; i++) await sleep(10);
  const after = await glob(o);
  check("a panic in the background glob JSON is counted in cacheStats().dropped", () => {
    assert.deepEqual(hit.matches.map((m) => m.path), ["d004/f0001.ts"]);
    assert.deepEqual(after.matches.map((m) => m.path), ["d004/f0001.ts"]);
    assert.deepEqual(cacheStats().dropped.globJSON, { count: before + 1, reason: "panic in globJSON: fault injected in globJSON" });
  });
  invalidateFsScanCache();
  const settled = await settle(g0, fd0);
  check("no goroutine or descriptor is left", () =>
    assert.ok(settled, `goroutines ${goroutines()} (before ${g0}), descriptors ${fds()} (before ${fd0})`));
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
console.log(`${failures} failures`);
process.exit(failures ? 1 : 0);
