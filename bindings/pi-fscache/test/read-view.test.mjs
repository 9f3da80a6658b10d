// The session side of the read cache, no engine involved: the window of a
// branch (seed 001 §7.1, seed 004's boundary), pi's adapter of the shared
// view (what a read result shows the model), and the state that says which
// messages the model holds (the last request, the tail, the overlay).
import test from "node:test";
import assert from "node:assert/strict";
import os from "node:os";
import { pi } from "./pi-line.mjs";
import { parseMeta, replayStart, textHashOf, windowOf } from "../src/read/replay.js";
import { ReadState } from "../src/read/state.js";
import { loadView, nameOf, noticeOf, piAdapter, shownOf } from "../src/read/view.js";
import { appendToolCall, appendToolRun } from "./session-helpers.mjs";

const { SessionManager } = pi;
const V = await loadView();
const { issuingTail } = V;
const H = (c) => c.repeat(64);
const user = (sm, text = "go") => sm.appendMessage({ role: "user", content: [{ type: "text", text }], timestamp: Date.now() });

/** A read's call and result, its record that of a full read of `text` (lines from 1). */
function fullRead(sm, name, text, { meta = {}, content } = {}) {
  const shown = shownOf(text, 1);
  const held = { start: 1, end: shown.length, digest: V.digestLines(shown) };
  const readcache = { v: 1, pathKey: name, name, scopeKey: "full", servedHash: H("a"), mode: "full", totalLines: shown.length, rangeStart: 1, rangeEnd: shown.length, bytes: text.length, whole: true, held, textHash: textHashOf(text), ...meta };
  return appendToolRun(sm, "read", { path: name }, { content: content ?? [{ type: "text", text }], details: { readcache } });
}
const readResults = (win) => win.filter(([e, m]) => m && m.role === "toolResult").map(([e]) => e.id);

test("window: no compaction: from the root; a compaction that kept the read (firstKeptEntryId before it) keeps it (seed 004)", () => {
  const sm = SessionManager.inMemory("/tmp");
  user(sm);
  const r1 = fullRead(sm, "/p", "a\nb\n");
  assert.deepEqual(readResults(windowOf(sm.getBranch())), [r1]);
  const r2 = fullRead(sm, "/q", "c\n");
  sm.appendCompaction("summary", r2, 10);
  assert.deepEqual(readResults(windowOf(sm.getBranch())), [r2], "the kept read stays, the one before it is summarized");
  assert.equal(replayStart(sm.getBranch()).keptFromCompaction, true);
});

test("window: a compaction whose kept entry is not on the path starts right after it; only the latest compaction counts", () => {
  const sm = SessionManager.inMemory("/tmp");
  user(sm);
  fullRead(sm, "/p", "a\n");
  const c1 = sm.appendCompaction("summary", "nowhere", 10);
  assert.deepEqual(readResults(windowOf(sm.getBranch())), []);
  const r = fullRead(sm, "/p", "a\n");
  sm.appendCompaction("again", r, 10);
  assert.deepEqual(readResults(windowOf(sm.getBranch())), [r]);
  assert.notEqual(replayStart(sm.getBranch()).compaction.id, c1);
});

test("window: branching follows the leaf", () => {
  const sm = SessionManager.inMemory("/tmp");
  const u = user(sm);
  const a = fullRead(sm, "/p", "a\n");
  sm.branch(u);
  const b = fullRead(sm, "/q", "b\n");
  assert.deepEqual(readResults(windowOf(sm.getBranch())), [b]);
  sm.branch(a);
  assert.deepEqual(readResults(windowOf(sm.getBranch())), [a]);
});

test("adapter: a full read teaches its lines (pi's notice is not a line); a whole-file read replaces the copy", () => {
  const a = piAdapter("/w", V);
  const text = "x\ny\n\n[Showing lines 1-2 of 9. Use offset=3 to continue.]";
  assert.equal(noticeOf(text), "[Showing lines 1-2 of 9. Use offset=3 to continue.]");
  const sm = SessionManager.inMemory("/tmp");
  user(sm);
  fullRead(sm, "/w/a.txt", text);
  const msgs = sm.buildSessionContext().messages;
  const copy = V.rebuild(msgs, a);
  assert.deepEqual([...copy.lines("/w/a.txt")], [[1, "x"], [2, "y"]]);
});

test("adapter: a marker stands only on the lines it names; a rewritten result, an error and a lost text teach nothing", () => {
  const a = piAdapter("/w", V);
  const sm = SessionManager.inMemory("/tmp");
  user(sm);
  fullRead(sm, "/w/a.txt", "x\ny\n");
  const marker = "[readcache: unchanged, 3 lines]";
  const held = { start: 1, end: 3, digest: V.digestLines(shownOf("x\ny\n", 1)) };
  appendToolRun(sm, "read", { path: "a.txt" }, { content: [{ type: "text", text: marker }], details: { readcache: { v: 1, pathKey: "/w/a.txt", name: "/w/a.txt", scopeKey: "full", servedHash: H("a"), baseHash: H("a"), mode: "unchanged", totalLines: 3, rangeStart: 1, rangeEnd: 3, bytes: marker.length, held, textHash: textHashOf(marker) } } });
  let falls = 0;
  V.rebuild(sm.buildSessionContext().messages, a, { onFalls: () => falls++ });
  assert.equal(falls, 0, "the marker stands on the full read");
  // the same, the full read rewritten by another extension: the marker falls
  const sm2 = SessionManager.inMemory("/tmp");
  user(sm2);
  fullRead(sm2, "/w/a.txt", "x\ny\n", { content: [{ type: "text", text: "[pruned]" }] });
  appendToolRun(sm2, "read", { path: "a.txt" }, { content: [{ type: "text", text: marker }], details: sm.getBranch().at(-1).message.details });
  V.rebuild(sm2.buildSessionContext().messages, a, { onFalls: () => falls++ });
  assert.equal(falls, 1);
  assert.deepEqual(a.record({ role: "toolResult", toolName: "read", toolCallId: "e", isError: true, content: [{ type: "text", text: "ENOENT" }] }, { path: "a.txt" }), { kind: "none" });
  assert.deepEqual(a.record({ role: "toolResult", toolName: "read", toolCallId: "l", isError: false, content: [{ type: "text", text: "[readcache: lost]" }], details: { readcacheLost: true } }, { path: "a.txt" }), { kind: "none" });
  assert.equal(a.record({ role: "toolResult", toolName: "bash", toolCallId: "b", content: [] }, {}), undefined);
});

test("adapter: pi's own read (no record) teaches the lines of the range its call asked for, under the name it wrote", () => {
  const a = piAdapter("/w", V);
  const rec = a.record({ role: "toolResult", toolName: "read", toolCallId: "p", isError: false, content: [{ type: "text", text: "five\nsix\n\n[3 more lines in file. Use offset=7 to continue.]" }] }, { path: "@sub/../b.txt", offset: 5, limit: 2 });
  assert.deepEqual(rec, { name: "/w/b.txt", kind: "text", shown: [[5, "five"], [6, "six"]], replace: false });
  assert.equal(nameOf("/w", "~/x.txt"), `${os.homedir()}/x.txt`);
  assert.equal(nameOf("/w", "/abs/y.txt"), "/abs/y.txt");
  assert.equal(parseMeta({ readcache: { v: 1 } }), undefined);
});

test("state: the view is the last request sent, then the calling message and what followed it, then the overlay at its leaf", () => {
  const sm = SessionManager.inMemory("/tmp");
  user(sm);
  const st = new ReadState();
  const sent = [{ role: "user", content: [{ type: "text", text: "sent" }] }];
  st.request(sm, sent);
  const id = appendToolCall(sm, "read", { path: "a.txt" });
  const tail = issuingTail(sm, id);
  assert.equal(tail.length, 1);
  const result = { role: "toolResult", toolName: "read", toolCallId: "sib", content: [{ type: "text", text: "x" }] };
  st.record(sm, result);
  let view = st.view(sm, tail);
  assert.equal(view[0], sent[0]);
  assert.equal(view[1].role, "assistant");
  assert.equal(view[2], result);
  // the leaf moves (something appended): the overlay is gone
  user(sm, "next");
  view = st.view(sm, issuingTail(sm, id));
  assert.equal(view.length, 3, "sent, the call, the user message; no overlay");
  // no request seen: the session's window
  const fresh = new ReadState();
  assert.equal(fresh.view(sm, tail).length, sm.buildSessionContext().messages.length);
  assert.equal(issuingTail(sm, "nobody"), undefined, "a call no message made (a program's)");
});
