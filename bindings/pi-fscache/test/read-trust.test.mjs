// Issue 44: the read cache trusts only what the model can still see. Each
// defect of the issue, through the real read override and fscache's
// engine, on pi's own SessionManager of the line under test: a marker or a
// diff whose base read a compaction or a context edit took away, a read
// whose content was replaced, a leaf that leaves and comes back, a nested
// call, a refreshed range. Each of these answered with a marker on main.
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LINE, pi } from "./pi-line.mjs";
import { Harness, modeOf, piRead } from "./read-harness.mjs";
import { appendToolCall } from "./session-helpers.mjs";

const { SessionManager } = pi;
const HAS_EDITS = typeof SessionManager.inMemory("/tmp").appendContextEdit === "function";

const tmpRoot = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pi-fscache-trust-")));
test.after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
let dirs = 0;
function workdir(files) {
  const d = path.join(tmpRoot, `w${++dirs}`);
  fs.mkdirSync(d, { mode: 0o700 });
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(d, name), text);
  return d;
}
const body = (tag, n = 120) => Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}`).join("\n") + "\n";
const MARKER = /^\[readcache: unchanged, \d+ lines\]$/;

test(`trust (pi ${LINE}): a compaction that kept the marker and the diff but summarized their full reads: both files are sent in full`, async () => {
  const cwd = workdir({ "c.txt": body("c"), "d.txt": body("d"), "e.txt": body("e") });
  const h = new Harness(cwd);
  assert.equal(modeOf(await h.read("c.txt")), "full");
  assert.equal(modeOf(await h.read("d.txt")), "full");
  h.user("a few turns later");
  const cut = h.user("reread");
  assert.equal(modeOf(await h.read("c.txt")), "unchanged");
  fs.writeFileSync(path.join(cwd, "d.txt"), body("d").replace("d line 60\n", "d line sixty\n"));
  assert.equal(modeOf(await h.read("d.txt")), "diff");
  assert.equal(modeOf(await h.read("e.txt")), "full", "a full read after the cut");
  h.sm.appendCompaction("summary of the first reads", cut, 1000);
  const c = await h.read("c.txt");
  assert.equal(modeOf(c), "full", `a marker whose full read was summarized away: ${c.text.slice(0, 60)}`);
  assert.equal(c.text, (await piRead(cwd, { path: "c.txt" })).text);
  const d = await h.read("d.txt");
  assert.equal(modeOf(d), "full", `a diff whose base was summarized away: ${d.text.slice(0, 60)}`);
  const e = await h.read("e.txt");
  assert.equal(modeOf(e), "unchanged", "a full read the compaction kept stays trusted (seed 004)");
  assert.match(e.text, MARKER);
  assert.equal(modeOf(await h.read("c.txt")), "unchanged", "and the text just sent is trusted again");
});

test(`trust (pi ${LINE}): a compaction that retains none (firstKeptEntryId its own id): reads after it only`, async () => {
  const cwd = workdir({ "a.txt": body("a") });
  const h = new Harness(cwd);
  await h.read("a.txt");
  // pi 1.x writes a compaction that keeps nothing with its own id as firstKeptEntryId
  const orig = h.sm.appendCompaction.bind(h.sm);
  const id = orig("all summarized", "placeholder", 10);
  const entry = h.sm.getEntry(id);
  entry.firstKeptEntryId = id;
  h.user("after");
  assert.equal(modeOf(await h.read("a.txt")), "full");
  assert.equal(modeOf(await h.read("a.txt")), "unchanged");
});

test(`trust (pi ${LINE}): a leaf that leaves and comes back (sessionManager.branch, no event) finds the overlay gone`, async () => {
  const cwd = workdir({ "f.txt": body("f") });
  const h = new Harness(cwd);
  assert.equal(modeOf(await h.read("f.txt")), "full"); // the branch has seen H1
  fs.writeFileSync(path.join(cwd, "f.txt"), body("f").replace("f line 7\n", "f line seven\n"));
  // one assistant message, two read calls of f.txt (E1)
  const e1 = h.sm.appendMessage({
    role: "assistant",
    content: [
      { type: "toolCall", id: "s1", name: "read", arguments: { path: "f.txt" } },
      { type: "toolCall", id: "s2", name: "read", arguments: { path: "f.txt" } },
    ],
    api: "faux",
    provider: "faux",
    model: "faux",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: "toolUse",
    timestamp: Date.now(),
  });
  const first = await h.exec("s1", { path: "f.txt" });
  assert.equal(modeOf(first), "diff"); // serves H2, recorded at E1
  h.append("s1", first); // E2
  h.sm.branch(e1); // back to E1, no session_tree event: the branch at E1 has seen H1 only
  const second = await h.exec("s2", { path: "f.txt" });
  assert.notEqual(modeOf(second), "unchanged", `the overlay outlived the leaf: ${second.text}`);
  assert.equal(modeOf(second), "diff", "the same diff from H1, the text this branch has");
});

test(`trust (pi ${LINE}): a call no assistant message issued (a nested ctx.executeTool call) gets pi's own read and anchors nothing`, async () => {
  const cwd = workdir({ "n.txt": "one\ntwo\nthree\n" });
  const h = new Harness(cwd);
  const first = await h.read("n.txt");
  assert.equal(modeOf(first), "full");
  // pi 1.x: the program's call is "<parent id>/<n>"; its result goes back to the program
  const parent = appendToolCall(h.sm, "codemode", { code: "read('n.txt')" });
  const nested = await h.exec(`${parent}/1`, { path: "n.txt" });
  const own = await piRead(cwd, { path: "n.txt" });
  assert.deepEqual(nested.content, own.content, `the program got: ${nested.text}`);
  assert.equal(nested.details?.readcache, undefined, "no record: nothing anchors on it");
  // the model's own reread is still the marker (the nested call took nothing away)
  assert.equal(modeOf(await h.read("n.txt")), "unchanged");
});

test(`trust (pi ${LINE}): a refreshed range is sent in full even after a full read answered by the marker`, async () => {
  const cwd = workdir({ "a.txt": body("a", 20) });
  const h = new Harness(cwd);
  await h.read("a.txt");
  await h.command("readcache-refresh", "a.txt 3-5");
  assert.equal(modeOf(await h.read("a.txt")), "unchanged", "the full scope was not refreshed");
  const r = await h.read("a.txt:3-5");
  assert.equal(modeOf(r), "full", `the refresh asked that the next read of lines 3-5 send them: ${r.text}`);
  assert.equal(r.text, (await piRead(cwd, { path: "a.txt", offset: 3, limit: 3 })).text);
  assert.equal(modeOf(await h.read("a.txt:3-5")), "unchanged_range", "once sent, trusted again");
});

test(`trust (pi ${LINE}): a result whose stored content another extension changed (tool_result handler) anchors nothing`, async () => {
  const cwd = workdir({ "a.txt": body("a"), "b.txt": body("b") });
  const h = new Harness(cwd);
  await h.read("a.txt", { transform: () => [{ type: "text", text: "[output elided by another extension]" }] });
  await h.read("b.txt");
  assert.equal(modeOf(await h.read("a.txt")), "full", "the model never saw a.txt's text");
  assert.equal(modeOf(await h.read("b.txt")), "unchanged", "b.txt is untouched");
});

const editsOpt = { skip: HAS_EDITS ? false : `pi ${LINE}'s SessionManager has no context edits (appendContextEdit)` };

test(`trust (pi ${LINE}): context edits (pi 1.x): an omitted or replaced read, and a diff whose base was omitted, are sent in full; others stay trusted`, editsOpt, async () => {
  const cwd = workdir({ "a.txt": body("a"), "b.txt": body("b"), "c.txt": body("c"), "d.txt": body("d") });
  const h = new Harness(cwd);
  const a1 = await h.read("a.txt");
  const a2 = await h.read("a.txt");
  assert.equal(modeOf(a2), "unchanged");
  const b1 = await h.read("b.txt");
  const c1 = await h.read("c.txt");
  await h.read("d.txt");
  fs.writeFileSync(path.join(cwd, "c.txt"), body("c").replace("c line 9\n", "c line nine\n"));
  assert.equal(modeOf(await h.read("c.txt")), "diff");
  // both reads of a.txt omitted; b.txt's content replaced; c.txt's base omitted
  h.sm.appendContextEdit(a1.entryId, null);
  h.sm.appendContextEdit(a2.entryId, null);
  h.sm.appendContextEdit(b1.entryId, { content: "[old tool output cleared]" });
  h.sm.appendContextEdit(c1.entryId, null);
  const a = await h.read("a.txt");
  assert.equal(modeOf(a), "full", `both reads omitted: ${a.text.slice(0, 50)}`);
  const b = await h.read("b.txt");
  assert.equal(modeOf(b), "full", `content replaced: ${b.text.slice(0, 50)}`);
  const c = await h.read("c.txt");
  assert.equal(modeOf(c), "full", `a diff whose base read was omitted: ${c.text.slice(0, 50)}`);
  assert.equal(modeOf(await h.read("d.txt")), "unchanged", "an untouched file stays trusted (targeted, never blanket)");
});

test(`trust (pi ${LINE}): context edits (pi 1.x): omitting an older read keeps a newer visible full read trusted`, editsOpt, async () => {
  const cwd = workdir({ "a.txt": body("a") });
  const h = new Harness(cwd);
  const a1 = await h.read("a.txt");
  await h.command("readcache-refresh", "a.txt");
  assert.equal(modeOf(await h.read("a.txt")), "full");
  h.sm.appendContextEdit(a1.entryId, null);
  assert.equal(modeOf(await h.read("a.txt")), "unchanged", "the newer full read is still visible");
});

test(`trust (pi ${LINE}): a diff that changed lines a range marker stood on: the range is not called unchanged against its old version`, async () => {
  // Found by the oracle on main: anchors were kept per scope, latest wins,
  // so a range kept its old hash after a diff had shown the model newer lines.
  const cwd = workdir({ "a.txt": body("a", 80) });
  const h = new Harness(cwd);
  const write = (f) => fs.writeFileSync(path.join(cwd, "a.txt"), f(body("a", 80)));
  await h.read("a.txt"); // H1
  assert.equal(modeOf(await h.read({ path: "a.txt", offset: 5, limit: 1 })), "unchanged_range"); // r:5:5 at H1
  write((t) => t.replace("a line 5\n", "a line five\n")); // H2
  const d = await h.read("a.txt");
  assert.equal(modeOf(d), "diff");
  assert.match(d.text, /\n\+a line five\n/, "the model now holds line 5 as 'a line five'");
  write((t) => t.replace("a line 50\n", "a line fifty\n")); // H3: line 5 as in H1 again
  const r = await h.read({ path: "a.txt", offset: 5, limit: 1 });
  assert.notEqual(modeOf(r), "unchanged_range", `line 5 changed since the model last saw it: ${r.text}`);
  assert.equal(r.text, (await piRead(cwd, { path: "a.txt", offset: 5, limit: 1 })).text);
});

test(`trust (pi ${LINE}): a diff on a truncated read: the marker after it only when the model holds every line a read shows now`, async () => {
  // 2100 short lines: pi's read shows 1-2000; an edit at line 10 keeps
  // that window, so the model holds all of it and the marker holds.
  const long = Array.from({ length: 2100 }, (_, i) => `row ${i + 1}`).join("\n") + "\n";
  const cwd = workdir({ "l.txt": long, "w.txt": Array.from({ length: 300 }, (_, i) => `${i + 1} ${"w".repeat(200)}`).join("\n") + "\n" });
  const h = new Harness(cwd);
  assert.equal(modeOf(await h.read("l.txt")), "full");
  fs.writeFileSync(path.join(cwd, "l.txt"), long.replace("row 10\n", "row ten\n"));
  assert.equal(modeOf(await h.read("l.txt")), "diff");
  assert.equal(modeOf(await h.read("l.txt")), "unchanged", "lines 1-2000 are all in the model's copy");
  // 300 lines of 200 bytes: pi's read stops at 50 KB (about line 250).
  // Lines 10-20 made short: the same read now shows about 10 lines more,
  // which the diff did not show and the truncated read never did.
  const first = await h.read("w.txt");
  assert.equal(modeOf(first), "full");
  const shownBefore = first.details.truncation.outputLines;
  const short = fs.readFileSync(path.join(cwd, "w.txt"), "utf8").split("\n").map((l, i) => (i >= 9 && i <= 19 ? `${i + 1} short` : l)).join("\n");
  fs.writeFileSync(path.join(cwd, "w.txt"), short);
  const now = await piRead(cwd, { path: "w.txt" });
  assert.ok(now.details.truncation.outputLines > shownBefore, `pi's read now shows more lines (${now.details.truncation.outputLines} > ${shownBefore})`);
  // issue 48: a diff would leave the model without the lines past the old
  // cut that the read shows now: the text is sent instead
  const r = await h.read("w.txt");
  assert.equal(modeOf(r), "full_fallback", `a diff on lines the model was never shown: ${r.text.slice(0, 200)}`);
  assert.equal(r.text, now.text);
  assert.equal(modeOf(await h.read("w.txt")), "unchanged", "once sent, trusted again");
});

test(`trust (pi ${LINE}): a nested call of a FIFO is refused with the engine's error, never handed to pi's read (which would block)`, async () => {
  const cwd = workdir({});
  const { execFileSync } = await import("node:child_process");
  execFileSync("mkfifo", [path.join(cwd, "pipe")]);
  const h = new Harness(cwd);
  const parent = appendToolCall(h.sm, "codemode", { code: "read('pipe')" });
  const r = await h.exec(`${parent}/1`, { path: "pipe" });
  assert.equal(r.isError, true);
  assert.match(r.text, /pipe/);
});
