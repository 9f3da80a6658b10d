// listWorkspace through the package (pi-natives 18.2): option checking in
// index.cjs, the result's shape, and grep's maxCountPerFile through the
// addon. The answers themselves are checked against 18.2.3 by core's
// recorded tests and `make conformance`. Runs under `node --test` and `bun test`.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const isBun = typeof globalThis.Bun !== "undefined";
const runner = isBun ? await import("bun:test") : await import("node:test");
const beforeAll = isBun ? runner.beforeAll : runner.before;
const afterAll = isBun ? runner.afterAll : runner.after;
const it = (name, fn) => (isBun ? runner.test(name, fn, 120_000) : runner.test(name, { timeout: 120_000 }, fn));

const pkg = await import("../index.js");
const { listWorkspace, grep } = pkg;

let root;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "fscache-lw-")));
  const file = (rel, text = rel + "\n") => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  file(".gitignore", "secret/\nsub/AGENTS.md\n");
  file("AGENTS.md");
  file("sub/AGENTS.md");
  file("sub/a/b/c/AGENTS.md");
  file("sub/a/b/c/d/AGENTS.md");
  file("secret/AGENTS.md");
  file("hot.txt", "x\nx\nx\nx\n");
  file("cold.txt", "x\n");
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

it("is exported by both entry points", async () => {
  const cjs = (await import("node:module")).createRequire(import.meta.url)("../index.cjs");
  assert.equal(typeof listWorkspace, "function");
  assert.equal(cjs.listWorkspace, listWorkspace);
});

it("returns entries, agentsMdFiles and truncated", async () => {
  const r = await listWorkspace({ path: root, maxDepth: 1, collectAgentsMd: true });
  assert.deepEqual(Object.keys(r).sort(), ["agentsMdFiles", "entries", "truncated"]);
  assert.deepEqual(r.entries.map((e) => e.path), ["AGENTS.md", "cold.txt", "hot.txt", "sub"]);
  assert.deepEqual(r.agentsMdFiles, ["sub/AGENTS.md", "sub/a/b/c/AGENTS.md"]);
  assert.equal(r.truncated, false);
  const sub = r.entries[3];
  assert.equal(sub.fileType, 2);
  assert.equal("size" in sub, false);
  assert.equal(typeof sub.mtime, "number");
});

it("maxDepth converts like a u32 and is required", async () => {
  const all = await listWorkspace({ path: root, maxDepth: -1 });
  assert.ok(all.entries.some((e) => e.path === "sub/a/b/c/d"));
  const one = await listWorkspace({ path: root, maxDepth: 1.9 });
  assert.ok(one.entries.every((e) => !e.path.includes("/")));
  assert.throws(() => listWorkspace({ path: root }), (e) => e instanceof TypeError && /maxDepth/.test(e.message));
  assert.throws(() => listWorkspace({ path: root, maxDepth: "2" }), (e) => e instanceof TypeError && e.code === "NumberExpected");
  assert.throws(() => listWorkspace({ maxDepth: 1 }), (e) => e instanceof TypeError && /path/.test(e.message));
  assert.throws(() => listWorkspace({ path: root, maxDepth: 1, collectAgentsMd: "yes" }), TypeError);
  assert.throws(() => listWorkspace(), TypeError);
});

it("rejects a missing root with 18.2's message", async () => {
  await assert.rejects(listWorkspace({ path: path.join(root, "nope"), maxDepth: 1 }), (e) => {
    assert.equal(e.message, `Native directory scan failed for ${path.join(root, "nope")}: Path not found: No such file or directory (os error 2)`);
    return true;
  });
});

it("grep maxCountPerFile keeps one hot file from using the whole maxCount", async () => {
  const r = await grep({ pattern: "x", path: root, maxCountPerFile: 1, maxCount: 10 });
  assert.deepEqual(r.matches.map((m) => `${m.path}:${m.lineNumber}`), ["cold.txt:1", "hot.txt:1"]);
  assert.equal(r.totalMatches, 3);
  assert.equal(r.limitReached, true);
  const counts = await grep({ pattern: "x", path: root, maxCountPerFile: 1, mode: "count" });
  assert.deepEqual(counts.matches.map((m) => m.matchCount), [1, 4]);
  assert.throws(() => grep({ pattern: "x", path: root, maxCountPerFile: "1" }), TypeError);
});
