// The read override's switches and side paths: PI_FSCACHE_READ=0, pi's flag
// --no-fscache-read, an engine that cannot be loaded, /readcache-status, and
// the in-flight overlay through the tool (sibling calls of one assistant
// message), against pi's SessionManager and fscache's engine.
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { linesOf, pi } from "./pi-line.mjs";

const { SessionManager, createReadToolDefinition } = pi;
import registerRead, { disabledByEnv } from "../src/read/index.js";
import { appendToolCall } from "./session-helpers.mjs";

const tmpRoot = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pi-fscache-options-")));
test.after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
let n = 0;
function workdir(files) {
  const d = path.join(tmpRoot, `w${++n}`);
  fs.mkdirSync(d, { mode: 0o700 });
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(d, name), text);
  return d;
}
const body = Array.from({ length: 200 }, (_, i) => `row ${i + 1}`).join("\n") + "\n";

function setup(cwd, options = {}) {
  const sm = SessionManager.inMemory(cwd);
  sm.appendMessage({ role: "user", content: [{ type: "text", text: "go" }], timestamp: Date.now() });
  const notes = [];
  const pi = {
    tools: new Map(),
    commands: new Map(),
    flags: new Map(),
    registerTool: (t) => pi.tools.set(t.name, t),
    registerCommand: (name, o) => pi.commands.set(name, o),
    registerFlag: (name, o) => pi.flags.set(name, o.default),
    getFlag: (name) => pi.flags.get(name),
    on() {},
    appendEntry: (type, data) => sm.appendCustomEntry(type, data),
  };
  const reg = registerRead(pi, { env: {}, ...options });
  const ctx = { cwd, sessionManager: sm, ui: { notify: (m, l) => notes.push([l, m]) } };
  let seq = 0;
  // execAs: a call of an assistant message already appended (siblings);
  // exec: the model's call, appended first as pi appends it.
  const execAs = (id, args) => pi.tools.get("read").execute(id, args, undefined, undefined, ctx);
  const exec = (args) => execAs((seq = appendToolCall(sm, "read", args)), args);
  const append = (id, res) =>
    sm.appendMessage({ role: "toolResult", toolCallId: id, toolName: "read", content: res.content, details: res.details, isError: false, timestamp: Date.now() });
  const read = async (args) => {
    const res = await exec(args);
    append(seq, res);
    return res;
  };
  /** One assistant message calling read once per args; returns the calls' ids. */
  const assistant = (...argsList) => {
    const ids = argsList.map((_, i) => `m${sm.getEntryCount?.() ?? sm.getEntries().length}_${i}`);
    sm.appendMessage({ role: "assistant", content: argsList.map((a, i) => ({ type: "toolCall", id: ids[i], name: "read", arguments: a })), api: "faux", provider: "faux", model: "faux", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "toolUse", timestamp: Date.now() });
    return ids;
  };
  return { sm, pi, reg, ctx, notes, exec, execAs, assistant, append, read };
}

test("PI_FSCACHE_READ=0 registers nothing of the read cache", () => {
  for (const v of ["0", "false", "off", "NO", " 0 "]) assert.equal(disabledByEnv({ PI_FSCACHE_READ: v }), true, v);
  for (const v of [undefined, "", "1", "yes"]) assert.equal(disabledByEnv({ PI_FSCACHE_READ: v }), false, String(v));
  const s = setup(workdir({}), { env: { PI_FSCACHE_READ: "0" } });
  assert.equal(s.reg, undefined);
  assert.equal(s.pi.tools.size, 0);
  assert.equal(s.pi.commands.size, 0);
});

test("--no-fscache-read answers with pi's own read", async () => {
  const cwd = workdir({ "a.txt": body });
  const s = setup(cwd);
  assert.equal(s.pi.flags.get("no-fscache-read"), false);
  s.pi.flags.set("no-fscache-read", true);
  const base = await createReadToolDefinition(cwd).execute("b", { path: "a.txt" }, undefined, undefined, { cwd });
  for (let i = 0; i < 2; i++) {
    const r = await s.read({ path: "a.txt" });
    assert.deepEqual(r, base);
  }
});

test("an engine without readCache: pi's own read, one warning", async () => {
  const cwd = workdir({ "a.txt": body });
  const s = setup(cwd, { native: {} });
  const base = await createReadToolDefinition(cwd).execute("b", { path: "a.txt" }, undefined, undefined, { cwd });
  assert.deepEqual(await s.read({ path: "a.txt" }), base);
  assert.deepEqual(await s.read({ path: "a.txt" }), base);
  assert.equal(s.notes.filter(([l]) => l === "warning").length, 1);
});

test("an engine that fails unexpectedly: pi's own read (§14)", async () => {
  const cwd = workdir({ "a.txt": body });
  const failing = {
    readCacheResolve: async (o) => ({ pathKey: path.join(cwd, o.path), absPath: path.join(cwd, o.path), path: o.path }),
    readCache: async () => {
      throw Object.assign(new Error("store: something broke"), { code: "store" });
    },
  };
  const s = setup(cwd, { native: failing });
  const base = await createReadToolDefinition(cwd).execute("b", { path: "a.txt" }, undefined, undefined, { cwd });
  assert.deepEqual(await s.read({ path: "a.txt" }), base);
});

test("/readcache-status reports what the model holds, the modes, savings and the store", async () => {
  const cwd = workdir({ "a.txt": body });
  const s = setup(cwd);
  await s.read({ path: "a.txt" });
  await s.read({ path: "a.txt" });
  fs.writeFileSync(path.join(cwd, "a.txt"), body.replace("row 100\n", "row one hundred\n"));
  await s.read({ path: "a.txt" });
  await s.read({ path: "a.txt", offset: 5, limit: 3 });
  await s.pi.commands.get("readcache-status").handler("", s.ctx);
  const [level, text] = s.notes.at(-1);
  assert.equal(level, "info");
  const heldLines = Number(/readcache: the model holds (\d+) lines of 1 files in the messages it is sent/.exec(text)?.[1]);
  assert.ok(heldLines >= 200, text);
  assert.match(text, /reads in those messages: 4 \(full 1, unchanged 1, unchanged_range 1, diff 1, full_fallback 0\)/);
  assert.match(text, /saved about \d+ bytes/);
  assert.match(text, new RegExp(`object store ${path.join(cwd, ".pi", "readcache").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: 2 objects, \\d+ bytes`));
});

test("overlay: a sibling read of the same assistant message gets the marker; a result that never landed is forgotten", async () => {
  const cwd = workdir({ "a.txt": body });
  const s = setup(cwd);
  // one assistant message, two read calls: the second runs before pi appends the first's result
  const [id1, id2] = s.assistant({ path: "a.txt" }, { path: "a.txt" });
  const first = await s.execAs(id1, { path: "a.txt" });
  const second = await s.execAs(id2, { path: "a.txt" });
  assert.equal(first.details.readcache.mode, "full");
  assert.equal(second.details.readcache.mode, "unchanged");
  // neither result is appended (an aborted turn); the leaf moves on
  s.sm.appendMessage({ role: "user", content: [{ type: "text", text: "again" }], timestamp: Date.now() });
  const third = await s.exec({ path: "a.txt" });
  assert.equal(third.details.readcache.mode, "full", "the overlay of the old leaf is not trusted");
});

test("reads run in the order they start: a sibling's marker never precedes the text it relies on", async () => {
  const cwd = workdir({ "a.txt": body });
  const s = setup(cwd);
  const ids = s.assistant({ path: "a.txt" }, { path: "a.txt" }, { path: "a.txt" });
  const rs = await Promise.all(ids.map((id) => s.execAs(id, { path: "a.txt" })));
  assert.deepEqual(rs.map((r) => r.details.readcache.mode), ["full", "unchanged", "unchanged"]);
});

test("bad input: a FIFO, a directory, a symlink loop, a path outside cwd, an unreadable file", async () => {
  const cwd = workdir({ "a.txt": body });
  const outside = workdir({ "o.txt": "outside\n" });
  const s = setup(cwd);
  const { execFileSync } = await import("node:child_process");
  execFileSync("mkfifo", [path.join(cwd, "pipe")]);
  fs.mkdirSync(path.join(cwd, "dir"));
  fs.symlinkSync("loop2", path.join(cwd, "loop1"));
  fs.symlinkSync("loop1", path.join(cwd, "loop2"));
  fs.writeFileSync(path.join(cwd, "secret.txt"), "x\n", { mode: 0o000 });
  const piRead = (args) => createReadToolDefinition(cwd).execute("b", args, undefined, undefined, { cwd });
  const fifo = await s.exec({ path: "pipe" }).then(() => "resolved", (e) => e.message);
  assert.match(fifo, /pipe/, "a FIFO is refused with an error naming it, not read (pi's read would block)");
  for (const p of ["dir", "loop1"]) {
    const mine = await s.exec({ path: p }).then((r) => r, (e) => e.message);
    const theirs = await piRead({ path: p }).then((r) => r, (e) => e.message);
    assert.deepEqual(mine, theirs, p);
  }
  if (process.getuid?.() !== 0) {
    const mine = await s.exec({ path: "secret.txt" }).then((r) => r, (e) => e.message);
    assert.deepEqual(mine, await piRead({ path: "secret.txt" }).then((r) => r, (e) => e.message));
  }
  const out = await s.exec({ path: path.join(outside, "o.txt") });
  assert.equal(out.content[0].text, "outside\n", "a path outside cwd reads as pi's read does");
  assert.equal(out.details.readcache.mode, "full");
});

test("/readcache-refresh: a file whose name ends in a number is a path, not a range", async () => {
  const cwd = workdir({ "notes 2": body });
  const s = setup(cwd);
  await s.read({ path: "notes 2" });
  await s.pi.commands.get("readcache-refresh").handler("notes 2", s.ctx);
  const e = s.sm.getLeafEntry();
  assert.equal(e.data.pathKey, path.join(cwd, "notes 2"));
  assert.equal(e.data.scopeKey, "full");
});

test("a fractional offset or limit gets pi's own read, its arithmetic and notices, and no trust", async () => {
  const cwd = workdir({ "f.txt": body });
  const s = setup(cwd);
  const pis = createReadToolDefinition(cwd);
  for (const args of [{ path: "f.txt", offset: 2.5 }, { path: "f.txt", limit: 1.5 }, { path: "f.txt", offset: 3, limit: 2.5 }]) {
    const want = await pis.execute("p", args, undefined, undefined, s.ctx);
    const got = await s.read(args);
    assert.deepEqual(got.content, want.content, JSON.stringify(args));
    assert.equal(got.details?.readcache, undefined, JSON.stringify(args));
  }
  // Integers are the cache's: the same read twice is a marker.
  await s.read({ path: "f.txt", offset: 3, limit: 2 });
  const again = await s.read({ path: "f.txt", offset: 3, limit: 2 });
  assert.equal(again.content[0].text, `[readcache: unchanged in lines 3-4 of ${linesOf(201)}]`);
});
