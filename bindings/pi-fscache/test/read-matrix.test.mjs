// Seed 001 §21: the 27 cases of the test matrix, each a named test, run
// through the real read override (src/read) with fscache's engine, against
// pi's own SessionManager (in memory, or persisted where a case is about
// files: fork, resume). Each read is appended to the session as pi appends
// it: the assistant's tool call, then the tool result (an error as a result
// with isError).
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHash } from "node:crypto";
import { LINE, linesOf, pi } from "./pi-line.mjs";

const { SessionManager, createReadToolDefinition } = pi;
import { CUSTOM_TYPE } from "../src/read/index.js";
import { appendToolCall } from "./session-helpers.mjs";
import { Harness as BaseHarness } from "./read-harness.mjs";

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), "pi-fscache-matrix-"));
test.after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
let dirs = 0;
function workdir() {
  const d = path.join(tmpRoot, `w${++dirs}`);
  fs.mkdirSync(d, { mode: 0o700 });
  return fs.realpathSync(d);
}

const lines = (n, f = (i) => `line ${i} of the file`) => Array.from({ length: n }, (_, i) => f(i + 1)).join("\n") + "\n";
const sha = (s) => createHash("sha256").update(s).digest("hex");

/**
 * read-harness.mjs's harness with any of the package's tools run as pi runs
 * them (the call appended, the tool run, its result appended); read() here
 * goes through it.
 */
class Harness extends BaseHarness {
  assistantCall(name, args) {
    return appendToolCall(this.sm, name, args);
  }
  /** Runs a tool as pi does and appends its result; returns the result with text and isError. */
  async call(name, args, { signal } = {}) {
    const id = this.assistantCall(name, args);
    const tool = this.pi.tools.get(name);
    let res;
    let isError = false;
    try {
      res = await tool.execute(id, args, signal, undefined, this.ctx());
    } catch (err) {
      res = { content: [{ type: "text", text: err.message }], details: {} };
      isError = true;
    }
    this.sm.appendMessage({ role: "toolResult", toolCallId: id, toolName: name, content: res.content, details: res.details, isError, timestamp: Date.now() });
    return { ...res, isError, text: res.content.filter((c) => c.type === "text").map((c) => c.text).join("") };
  }
  read(args) {
    return this.call("read", typeof args === "string" ? { path: args } : args);
  }
}

/** pi's own read of the same arguments (the baseline every full answer must equal). */
async function piRead(cwd, args) {
  const r = await createReadToolDefinition(cwd).execute("base", args, undefined, undefined, { cwd });
  return { ...r, text: r.content.filter((c) => c.type === "text").map((c) => c.text).join("") };
}

function mode(r) {
  return r.details?.readcache?.mode;
}

const plainTheme = { fg: (_c, t) => t, bg: (_c, t) => t, bold: (t) => t, italic: (t) => t, underline: (t) => t, dim: (t) => t };
function render(tool, args, result, cwd, expanded = true) {
  const ctx = { args, state: {}, lastComponent: undefined, invalidate() {}, toolCallId: "x", cwd, executionStarted: true, argsComplete: true, isPartial: false, expanded, showImages: false, isError: false };
  const call = tool.renderCall(args, plainTheme, ctx);
  const res = tool.renderResult(result, { expanded, isPartial: false }, plainTheme, ctx);
  return { call: call.render(200).join("\n"), result: res.render(200).join("\n") };
}

// ---------------------------------------------------------------- 21.1

test("01 first full read: pi's own output, mode full", async () => {
  const cwd = workdir();
  fs.writeFileSync(path.join(cwd, "a.txt"), lines(50));
  const h = new Harness(cwd);
  const r = await h.read("a.txt");
  assert.equal(mode(r), "full");
  assert.equal(r.text, (await piRead(cwd, { path: "a.txt" })).text);
  const m = r.details.readcache;
  assert.equal(m.v, 1);
  assert.equal(m.pathKey, path.join(cwd, "a.txt"));
  assert.equal(m.scopeKey, "full");
  assert.equal(m.servedHash, sha(lines(50)));
  assert.equal(m.totalLines, 51);
});

test("02 unchanged full read: the marker", async () => {
  const cwd = workdir();
  fs.writeFileSync(path.join(cwd, "a.txt"), lines(50));
  const h = new Harness(cwd);
  await h.read("a.txt");
  const r = await h.read("a.txt");
  assert.equal(mode(r), "unchanged");
  assert.equal(r.text, `[readcache: unchanged, ${linesOf(51)} lines]`);
  assert.equal(r.details.readcache.baseHash, r.details.readcache.servedHash);
  assert.equal(r.details.truncation, undefined);
});

test("03 changed full read: a unified diff", async () => {
  const cwd = workdir();
  const f = path.join(cwd, "a.txt");
  fs.writeFileSync(f, lines(300));
  const h = new Harness(cwd);
  const first = await h.read("a.txt");
  fs.writeFileSync(f, lines(300, (i) => (i === 100 || i === 200 ? `changed ${i}` : `line ${i} of the file`)));
  const r = await h.read("a.txt");
  assert.equal(mode(r), "diff");
  assert.ok(r.text.startsWith(`[readcache: 2 lines changed of ${linesOf(301)}]\n`), r.text);
  assert.match(r.text, /\n--- a\/.*a\.txt\n\+\+\+ b\/.*a\.txt\n@@ /);
  assert.match(r.text, /\n-line 100 of the file\n\+changed 100\n/);
  assert.match(r.text, /\n\+changed 200\n/);
  assert.ok(r.text.length < first.text.length / 10, `diff ${r.text.length} bytes vs ${first.text.length}`);
  assert.equal(r.details.readcache.baseHash, first.details.readcache.servedHash);
  assert.equal(r.details.readcache.servedHash, sha(fs.readFileSync(f, "utf8")));
});

test("04 changed full read: the full text when the diff is not useful", async () => {
  const cwd = workdir();
  const f = path.join(cwd, "a.txt");
  fs.writeFileSync(f, lines(60));
  const h = new Harness(cwd);
  await h.read("a.txt");
  fs.writeFileSync(f, lines(60, (i) => `completely different ${i * 7}`));
  const r = await h.read("a.txt");
  assert.equal(mode(r), "full_fallback");
  assert.equal(r.text, (await piRead(cwd, { path: "a.txt" })).text);
});

// ---------------------------------------------------------------- 21.2

test("05 first range read: the slice, as pi's read", async () => {
  const cwd = workdir();
  fs.writeFileSync(path.join(cwd, "a.txt"), lines(100));
  const h = new Harness(cwd);
  const r = await h.read({ path: "a.txt", offset: 10, limit: 5 });
  assert.equal(mode(r), "full");
  assert.equal(r.details.readcache.scopeKey, "r:10:14");
  assert.equal(r.text, (await piRead(cwd, { path: "a.txt", offset: 10, limit: 5 })).text);
});

test("06 unchanged same range: the range marker", async () => {
  const cwd = workdir();
  fs.writeFileSync(path.join(cwd, "a.txt"), lines(100));
  const h = new Harness(cwd);
  await h.read({ path: "a.txt", offset: 10, limit: 5 });
  const r = await h.read({ path: "a.txt", offset: 10, limit: 5 });
  assert.equal(mode(r), "unchanged_range");
  assert.equal(r.text, `[readcache: unchanged in lines 10-14 of ${linesOf(101)}]`);
  // the shorthand names the same scope
  const s = await h.read("a.txt:10-14");
  assert.equal(s.text, `[readcache: unchanged in lines 10-14 of ${linesOf(101)}]`);
});

test("07 file changed outside the range: unchanged_range marker", async () => {
  const cwd = workdir();
  const f = path.join(cwd, "a.txt");
  fs.writeFileSync(f, lines(100));
  const h = new Harness(cwd);
  await h.read({ path: "a.txt", offset: 10, limit: 5 });
  fs.writeFileSync(f, lines(100, (i) => (i === 80 ? "edited far away" : `line ${i} of the file`)));
  const r = await h.read({ path: "a.txt", offset: 10, limit: 5 });
  assert.equal(mode(r), "unchanged_range");
  assert.equal(r.text, "[readcache: unchanged in lines 10-14; changes exist outside this range]");
});

test("08 file changed inside the range: the range's text again", async () => {
  const cwd = workdir();
  const f = path.join(cwd, "a.txt");
  fs.writeFileSync(f, lines(100));
  const h = new Harness(cwd);
  await h.read({ path: "a.txt", offset: 10, limit: 5 });
  fs.writeFileSync(f, lines(100, (i) => (i === 12 ? "edited inside" : `line ${i} of the file`)));
  const r = await h.read({ path: "a.txt", offset: 10, limit: 5 });
  assert.equal(mode(r), "full_fallback");
  assert.equal(r.text, (await piRead(cwd, { path: "a.txt", offset: 10, limit: 5 })).text);
  assert.match(r.text, /edited inside/);
});

test("09 insertion before the range shifts it: treated as changed", async () => {
  const cwd = workdir();
  const f = path.join(cwd, "a.txt");
  fs.writeFileSync(f, lines(100));
  const h = new Harness(cwd);
  await h.read({ path: "a.txt", offset: 10, limit: 5 });
  fs.writeFileSync(f, "inserted at the top\n" + lines(100));
  const r = await h.read({ path: "a.txt", offset: 10, limit: 5 });
  assert.equal(mode(r), "full_fallback");
  assert.equal(r.text, (await piRead(cwd, { path: "a.txt", offset: 10, limit: 5 })).text);
});

test("10 malformed ranges are rejected with a clear error", async () => {
  const cwd = workdir();
  fs.writeFileSync(path.join(cwd, "a.txt"), lines(10));
  const h = new Harness(cwd);
  for (const [p, re] of [
    ["a.txt:0", /a\.txt:0.*line numbers start at 1/],
    ["a.txt:5-3", /a\.txt:5-3/],
  ]) {
    const r = await h.read(p);
    assert.equal(r.isError, true, p);
    assert.match(r.text, re);
  }
  const beyond = await h.read("a.txt:99999");
  assert.equal(beyond.isError, true);
  const piErr = await piRead(cwd, { path: "a.txt", offset: 99999 }).catch((e) => e.message);
  assert.equal(beyond.text, piErr, "offset beyond the end: pi's own message");
  const ok = await h.read("a.txt");
  assert.equal(mode(ok), "full", "errors leave no trust behind");
});

// ---------------------------------------------------------------- 21.3

test("11 read on branch A, /tree to branch B: no stale base", async () => {
  const cwd = workdir();
  fs.writeFileSync(path.join(cwd, "a.txt"), lines(30));
  const h = new Harness(cwd);
  const fork = h.sm.getLeafId();
  await h.read("a.txt");
  assert.equal(mode(await h.read("a.txt")), "unchanged");
  h.sm.branch(fork); // /tree back to before the reads
  h.user("branch B");
  const r = await h.read("a.txt");
  assert.equal(mode(r), "full");
  assert.equal(r.text, (await piRead(cwd, { path: "a.txt" })).text);
});

test("12 /tree to a point before a compaction: the history there is replayed", async () => {
  const cwd = workdir();
  fs.writeFileSync(path.join(cwd, "a.txt"), lines(30));
  const h = new Harness(cwd);
  await h.read("a.txt");
  const afterRead = h.sm.getLeafId();
  h.user("more");
  const kept = h.user("kept from here");
  h.sm.appendCompaction("summary", kept, 5000); // drops the read
  assert.equal(mode(await h.read("a.txt")), "full", "after the compaction the read is gone");
  h.sm.branch(afterRead); // /tree to before the compaction
  const r = await h.read("a.txt");
  assert.equal(mode(r), "unchanged", "before the compaction the read is in context");
});

test("13 the latest compaction on the path bounds the replay (firstKeptEntryId, seed 004)", async () => {
  const cwd = workdir();
  const f = path.join(cwd, "a.txt");
  fs.writeFileSync(f, lines(30));
  const h = new Harness(cwd);
  const kept = h.user("kept from here");
  await h.read("a.txt");
  h.sm.appendCompaction("kept the read", kept, 5000);
  assert.equal(mode(await h.read("a.txt")), "unchanged", "a compaction that kept the read keeps it trusted");
  fs.appendFileSync(f, "one more line\n");
  assert.equal(mode(await h.read("a.txt")), "diff", "and a diff against it is served");
  const later = h.user("later");
  h.sm.appendCompaction("dropped everything before", later, 5000);
  assert.equal(mode(await h.read("a.txt")), "full", "the latest compaction dropped it");
});

test("14 /fork: the fork replays its own path", async () => {
  const cwd = workdir();
  const sessions = path.join(cwd, ".sessions");
  fs.writeFileSync(path.join(cwd, "a.txt"), lines(30));
  fs.writeFileSync(path.join(cwd, "b.txt"), lines(20));
  const h = new Harness(cwd, SessionManager.create(cwd, sessions));
  const before = h.sm.getLeafId();
  await h.read("a.txt");
  const withA = h.sm.getLeafId();
  await h.read("b.txt");
  const original = h.sm.getSessionFile();
  // fork at the point after a.txt's read: a new session file with that path
  const src = SessionManager.open(original, sessions);
  const forkFile = src.createBranchedSession(withA);
  const f = new Harness(cwd, SessionManager.open(forkFile, sessions));
  assert.equal(mode(await f.read("a.txt")), "unchanged", "a.txt's read is on the fork's path");
  assert.equal(mode(await f.read("b.txt")), "full", "b.txt's read is not");
  // a fork from before any read
  const src2 = SessionManager.open(original, sessions);
  const g = new Harness(cwd, SessionManager.open(src2.createBranchedSession(before), sessions));
  assert.equal(mode(await g.read("a.txt")), "full");
  // the original is untouched by the forks' reads
  const o = new Harness(cwd, SessionManager.open(original, sessions));
  assert.equal(mode(await o.read("b.txt")), "unchanged");
});

test("15 session switch and resume: the replay alone, no sidecar", async () => {
  const cwd = workdir();
  const sessions = path.join(cwd, ".sessions");
  fs.writeFileSync(path.join(cwd, "a.txt"), lines(30));
  const h = new Harness(cwd, SessionManager.create(cwd, sessions));
  await h.read("a.txt");
  const file = h.sm.getSessionFile();
  // a switch, in the same process: the state object stays, the session changes
  h.sm = SessionManager.create(cwd, sessions);
  h.user("another session");
  assert.equal(mode(await h.read("a.txt")), "full", "the other session has not seen it");
  h.sm = SessionManager.open(file, sessions);
  for (const fn of h.pi.handlers.get("session_start") ?? []) fn({ type: "session_start", reason: "resume" }, h.ctx());
  assert.equal(mode(await h.read("a.txt")), "unchanged", "back in the first session");
  // a restart: a new process state, the session file reopened
  const r = new Harness(cwd, SessionManager.open(file, sessions));
  assert.equal(mode(await r.read("a.txt")), "unchanged");
  assert.equal(fs.readdirSync(sessions).filter((n) => !n.endsWith(".jsonl")).length, 0, "nothing but session files");
});

// ---------------------------------------------------------------- 21.4

test("16 missing base object: the full text, no crash", async () => {
  const cwd = workdir();
  const f = path.join(cwd, "a.txt");
  fs.writeFileSync(f, lines(200));
  const h = new Harness(cwd);
  await h.read("a.txt");
  const objects = path.join(cwd, ".pi", "readcache", "objects");
  assert.ok(fs.readdirSync(objects).length > 0);
  for (const o of fs.readdirSync(objects)) fs.rmSync(path.join(objects, o));
  fs.writeFileSync(f, lines(200, (i) => (i === 7 ? "edited" : `line ${i} of the file`)));
  const r = await h.read("a.txt");
  assert.equal(mode(r), "full_fallback");
  assert.equal(r.text, (await piRead(cwd, { path: "a.txt" })).text);
  assert.equal(mode(await h.read("a.txt")), "unchanged");
});

test("17 concurrent object writes: one intact object per content", async () => {
  const cwd = workdir();
  const content = lines(500);
  fs.writeFileSync(path.join(cwd, "a.txt"), content);
  fs.writeFileSync(path.join(cwd, "b.txt"), content);
  const hs = Array.from({ length: 8 }, () => new Harness(cwd));
  const rs = await Promise.all(hs.flatMap((h) => [h.read("a.txt"), h.read("b.txt")]));
  for (const r of rs) assert.equal(r.isError, false);
  const objects = path.join(cwd, ".pi", "readcache", "objects");
  const names = fs.readdirSync(objects);
  assert.deepEqual(names, [`sha256-${sha(content)}.txt`]);
  assert.equal(fs.readFileSync(path.join(objects, names[0]), "utf8"), content);
  const tmp = path.join(cwd, ".pi", "readcache", "tmp");
  assert.deepEqual(fs.existsSync(tmp) ? fs.readdirSync(tmp) : [], [], "no temp file left behind");
  fs.writeFileSync(path.join(cwd, "a.txt"), content.replace("line 250 of", "line 250 edited of"));
  assert.equal(mode(await hs[0].read("a.txt")), "diff", "the stored object serves a diff");
});

test("18 missing or invalid metadata in old entries is ignored", async () => {
  const cwd = workdir();
  fs.writeFileSync(path.join(cwd, "a.txt"), lines(30));
  const h = new Harness(cwd);
  const pathKey = path.join(cwd, "a.txt");
  const good = { v: 1, pathKey, scopeKey: "full", servedHash: sha(lines(30)), mode: "full", totalLines: 31, rangeStart: 1, rangeEnd: 31, bytes: 10 };
  for (const details of [undefined, {}, { readcache: null }, { readcache: { ...good, v: 2 } }, { readcache: { ...good, servedHash: "zz" } }, { readcache: { ...good, scopeKey: "lines" } }, { readcache: { ...good, pathKey: 7 } }]) {
    const id = h.assistantCall("read", { path: "a.txt" });
    h.sm.appendMessage({ role: "toolResult", toolCallId: id, toolName: "read", content: [{ type: "text", text: "old" }], details, isError: false, timestamp: Date.now() });
  }
  h.sm.appendCustomEntry(CUSTOM_TYPE, { v: 1, kind: "invalidate" });
  // what those results show ("old": pi's own read's text, to the model) is
  // what the model holds; the read sends the file's text
  const r = await h.read("a.txt");
  assert.ok(["full", "full_fallback"].includes(mode(r)), mode(r));
  assert.equal(r.text, (await piRead(cwd, { path: "a.txt" })).text);
});

test("19 abort: a cancelled read rejects cleanly and leaves no trust behind", async () => {
  const cwd = workdir();
  const f = path.join(cwd, "big.txt");
  fs.writeFileSync(f, lines(200000));
  const h = new Harness(cwd);
  await h.read("big.txt");
  fs.writeFileSync(f, lines(200000, (i) => (i % 20000 === 0 ? `edit ${i}` : `line ${i} of the file`)));
  const pre = new AbortController();
  pre.abort();
  const r1 = await h.call("read", { path: "big.txt" }, { signal: pre.signal });
  assert.equal(r1.isError, true);
  assert.match(r1.text, /abort/i);
  const mid = new AbortController();
  const p = h.call("read", { path: "big.txt" }, { signal: mid.signal });
  setImmediate(() => mid.abort());
  const r2 = await p;
  // the edits are past line 2000: every line the read shows is still the
  // model's (issue 48's line-level copy), so the answer is the marker
  if (r2.isError) assert.match(r2.text, /abort/i);
  else assert.equal(mode(r2), "unchanged", "an answer that finished before the abort is whole");
  // whatever happened, the next read answers against what is in the session
  const r3 = await h.read("big.txt");
  assert.equal(mode(r3), "unchanged");
  assert.match(r3.text, /^\[readcache: unchanged in lines 1-2000 of 20000[01]\]\n\n\[Showing lines 1-2000 of 200001\. Use offset=2001 to continue\.\]$/);
});

test("20 images and binaries: pi's own read", async () => {
  const cwd = workdir();
  // a 1x1 PNG
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
  fs.writeFileSync(path.join(cwd, "dot.png"), png);
  fs.writeFileSync(path.join(cwd, "blob.bin"), Buffer.from([0, 1, 2, 0xff, 0xfe, 0, 10, 65, 66]));
  fs.writeFileSync(path.join(cwd, "latin1.txt"), Buffer.from("caf\xe9\n", "latin1"));
  const h = new Harness(cwd);
  const img = await h.read("dot.png");
  assert.ok(img.content.some((c) => c.type === "image"), "the image is attached");
  assert.equal(img.details?.readcache, undefined);
  for (const p of ["blob.bin", "latin1.txt"]) {
    const r = await h.read(p);
    assert.equal(r.details?.readcache, undefined, p);
    assert.equal(r.text, (await piRead(cwd, { path: p })).text, p);
    const again = await h.read(p);
    assert.equal(again.text, r.text, `${p}: never a marker`);
  }
  const missing = await h.read("nope.txt");
  assert.equal(missing.isError, true);
  assert.equal(missing.text, await piRead(cwd, { path: "nope.txt" }).catch((e) => e.message));
});

// ---------------------------------------------------------------- 21.5

test("21 truncation: details.truncation and pi's notice, as pi's read", async () => {
  const cwd = workdir();
  fs.writeFileSync(path.join(cwd, "long.txt"), lines(3000));
  const h = new Harness(cwd);
  const r = await h.read("long.txt");
  const base = await piRead(cwd, { path: "long.txt" });
  assert.equal(mode(r), "full");
  assert.equal(r.text, base.text);
  assert.deepEqual(r.details.truncation, base.details.truncation);
  assert.equal(r.details.truncation.truncatedBy, "lines");
  const shown = render(h.tool, { path: "long.txt" }, r, cwd);
  // pi's renderer shows ours as it shows its own read's result
  assert.equal(shown.result, render(h.tool, { path: "long.txt" }, base, cwd).result);
  if (LINE === "0.73") assert.match(shown.result, /\[Truncated: showing 2000 of 3001 lines \(2000 line limit\)\]/);
});

test("22 markers and diffs render with pi's renderer", async () => {
  const cwd = workdir();
  const f = path.join(cwd, "a.txt");
  fs.writeFileSync(f, lines(300));
  const h = new Harness(cwd);
  await h.read("a.txt");
  const marker = await h.read("a.txt");
  let shown = render(h.tool, { path: "a.txt" }, marker, cwd);
  assert.match(shown.call, /read .*a\.txt/);
  assert.ok(shown.result.includes(`[readcache: unchanged, ${linesOf(301)} lines]`), shown.result);
  fs.writeFileSync(f, lines(300, (i) => (i === 5 ? "five" : `line ${i} of the file`)));
  const diff = await h.read("a.txt");
  shown = render(h.tool, { path: "a.txt" }, diff, cwd);
  assert.match(shown.result, /\+five/);
  for (const r of [marker, diff]) {
    assert.ok(Array.isArray(r.content) && r.content.every((c) => c.type === "text" && typeof c.text === "string"));
    assert.equal(typeof r.details, "object");
  }
});

test("23 the tool keeps pi's name, schema, description and prompt lines", async () => {
  const h = new Harness(workdir());
  const pi = createReadToolDefinition(h.cwd);
  for (const k of ["name", "label", "description", "promptSnippet", "promptGuidelines", "parameters"]) {
    assert.deepEqual(h.tool[k], pi[k], k);
  }
  assert.equal(h.tool.renderCall.toString(), pi.renderCall.toString());
  assert.equal(h.tool.renderResult.toString(), pi.renderResult.toString());
});

// ---------------------------------------------------------------- 21.6

test("24 /readcache-refresh appends an invalidation entry; the next read is the full text", async () => {
  const cwd = workdir();
  fs.writeFileSync(path.join(cwd, "a.txt"), lines(100));
  const h = new Harness(cwd);
  await h.read("a.txt");
  await h.command("readcache-refresh", "a.txt");
  const e = h.sm.getLeafEntry();
  assert.equal(e.type, "custom");
  assert.equal(e.customType, CUSTOM_TYPE);
  assert.deepEqual({ ...e.data, at: 0 }, { v: 1, kind: "invalidate", pathKey: path.join(cwd, "a.txt"), scopeKey: "full", at: 0 });
  const r = await h.read("a.txt");
  assert.equal(mode(r), "full");
  assert.equal(r.text, (await piRead(cwd, { path: "a.txt" })).text);
  // a range: the next read of that range is its text, even with the whole file trusted
  await h.command("readcache-refresh", "a.txt 10-14");
  assert.equal(h.sm.getLeafEntry().data.scopeKey, "r:10:14");
  const s = await h.read({ path: "a.txt", offset: 10, limit: 5 });
  assert.equal(mode(s), "full");
  assert.equal(s.text, (await piRead(cwd, { path: "a.txt", offset: 10, limit: 5 })).text);
  assert.equal(mode(await h.read("a.txt")), "unchanged", "the whole file is still trusted");
  await h.command("readcache-refresh", "a.txt 9-3");
  assert.match(h.notes.at(-1)[1], /invalid range 9-3/);
});

test("25 readcache_refresh tool: the same semantics as the command", async () => {
  const cwd = workdir();
  fs.writeFileSync(path.join(cwd, "a.txt"), lines(100));
  const h = new Harness(cwd);
  await h.read("a.txt");
  await h.read({ path: "a.txt", offset: 10, limit: 5 });
  const t = await h.call("readcache_refresh", { path: "a.txt", offset: 10, limit: 5 });
  assert.equal(t.isError, false);
  const entry = h.sm.getBranch().findLast((x) => x.type === "custom");
  assert.equal(entry.customType, CUSTOM_TYPE);
  assert.equal(entry.data.scopeKey, "r:10:14");
  assert.equal(mode(await h.read({ path: "a.txt", offset: 10, limit: 5 })), "full");
  await h.call("readcache_refresh", { path: "a.txt" });
  assert.equal(mode(await h.read("a.txt")), "full");
});

test("26 after a restart the invalidation still applies, on its branch only", async () => {
  const cwd = workdir();
  const sessions = path.join(cwd, ".sessions");
  fs.writeFileSync(path.join(cwd, "a.txt"), lines(30));
  const h = new Harness(cwd, SessionManager.create(cwd, sessions));
  await h.read("a.txt");
  const beforeRefresh = h.sm.getLeafId();
  await h.command("readcache-refresh", "a.txt");
  const file = h.sm.getSessionFile();
  const r = new Harness(cwd, SessionManager.open(file, sessions));
  assert.equal(mode(await r.read("a.txt")), "full", "the invalidation is in the session file");
  r.sm.branch(beforeRefresh);
  assert.equal(mode(await r.read("a.txt")), "unchanged", "a branch without the invalidation still trusts the read");
});

test("27 invalidating full invalidates every range of the path", async () => {
  const cwd = workdir();
  fs.writeFileSync(path.join(cwd, "a.txt"), lines(100));
  const h = new Harness(cwd);
  await h.read({ path: "a.txt", offset: 10, limit: 5 });
  await h.read({ path: "a.txt", offset: 50, limit: 10 });
  await h.command("readcache-refresh", "a.txt");
  assert.equal(mode(await h.read({ path: "a.txt", offset: 10, limit: 5 })), "full");
  assert.equal(mode(await h.read({ path: "a.txt", offset: 50, limit: 10 })), "full");
});
