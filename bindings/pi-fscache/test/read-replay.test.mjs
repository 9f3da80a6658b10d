// The replay of seed 001 §7 (and seed 004's boundary) over pi's own
// SessionManager, and the memo and overlay of §7.3: no engine involved.
import test from "node:test";
import assert from "node:assert/strict";
import { pi } from "./pi-line.mjs";

const { SessionManager } = pi;
import { CUSTOM_TYPE, invalidation, parseMeta, replay, replayStart, textHashOf } from "../src/read/replay.js";
import { ReadState } from "../src/read/state.js";
import { appendToolCall, appendToolRun } from "./session-helpers.mjs";

const H = (c) => c.repeat(64);
const A = H("a");
const B = H("b");
const C = H("c");

function meta(pathKey, scopeKey, servedHash, mode = "full", bytes = 100, baseHash) {
  const [start, end] = scopeKey === "full" ? [1, 10] : scopeKey.slice(2).split(":").map(Number);
  const m = { v: 1, pathKey, scopeKey, servedHash, mode, totalLines: 10, rangeStart: start, rangeEnd: end, bytes };
  if (baseHash !== undefined) m.baseHash = baseHash;
  else if (mode === "unchanged" || mode === "unchanged_range") m.baseHash = servedHash;
  return m;
}

function user(sm, text = "go") {
  return sm.appendMessage({ role: "user", content: [{ type: "text", text }], timestamp: Date.now() });
}
/** An assistant read call and its result, as pi appends them. */
function readResult(sm, m, { toolName = "read", isError = false, details } = {}) {
  const text = "x".repeat(m ? m.bytes : 10);
  const content = [{ type: "text", text }];
  if (m && !details) m = { ...m, textHash: textHashOf(text) };
  return appendToolRun(sm, toolName, { path: "x" }, { content, details: details ?? { readcache: m } }, isError);
}

test("replay: no compaction replays from the root; later reads overwrite earlier ones", () => {
  const sm = SessionManager.inMemory("/tmp");
  user(sm);
  readResult(sm, meta("/p", "full", A));
  readResult(sm, meta("/p", "full", B, "diff", 20, A));
  readResult(sm, meta("/p", "r:1:5", B));
  readResult(sm, meta("/q", "full", A));
  let k = replay(sm.getBranch());
  assert.equal(k.get("/p", "full"), B);
  assert.equal(k.get("/p", "r:1:5"), B);
  assert.equal(k.get("/q", "full"), A);
  assert.equal(k.reads, 4);
  assert.equal(k.modes.full, 3);
  assert.equal(k.modes.diff, 1);
  assert.equal(k.savedBytes, 80); // the diff's 20 bytes against the full read's 100
  assert.deepEqual(k.bases("/p"), { full: B, "r:1:5": B });
  // lines 1-5 sent at another version: the model's copy of the whole file
  // is now a mix, so the full scope is no longer anchored; /q is untouched
  readResult(sm, meta("/p", "r:1:5", C));
  k = replay(sm.getBranch());
  assert.deepEqual(k.bases("/p"), { "r:1:5": C });
  assert.equal(k.get("/q", "full"), A);
});

test("replay: a compaction that kept the read (firstKeptEntryId before it) keeps it trusted (seed 004)", () => {
  const sm = SessionManager.inMemory("/tmp");
  user(sm);
  readResult(sm, meta("/old", "full", A));
  const kept = user(sm, "second");
  readResult(sm, meta("/p", "full", B));
  sm.appendCompaction("summary", kept, 1000);
  const branch = sm.getBranch();
  const w = replayStart(branch);
  assert.equal(w.keptFromCompaction, true);
  assert.equal(branch[w.start].id, kept);
  const k = replay(branch);
  assert.equal(k.get("/p", "full"), B, "the kept read stays trusted");
  assert.equal(k.get("/old", "full"), undefined, "the summarized read is not");
});

test("replay: a compaction that dropped the read starts after the compaction", () => {
  const sm = SessionManager.inMemory("/tmp");
  user(sm);
  readResult(sm, meta("/p", "full", A));
  const compaction = sm.appendCompaction("summary", "not-on-this-path", 1000);
  readResult(sm, meta("/q", "full", B));
  const branch = sm.getBranch();
  const w = replayStart(branch);
  assert.equal(w.keptFromCompaction, false);
  assert.equal(branch[w.start - 1].id, compaction);
  const k = replay(branch);
  assert.equal(k.get("/p", "full"), undefined);
  assert.equal(k.get("/q", "full"), B);
});

test("replay: only the latest compaction on the path counts", () => {
  const sm = SessionManager.inMemory("/tmp");
  const u1 = user(sm);
  readResult(sm, meta("/a", "full", A));
  sm.appendCompaction("one", u1, 10); // kept /a
  const u2 = user(sm);
  readResult(sm, meta("/b", "full", B));
  sm.appendCompaction("two", u2, 10); // drops /a, keeps /b
  const k = replay(sm.getBranch());
  assert.equal(k.get("/a", "full"), undefined);
  assert.equal(k.get("/b", "full"), B);
});

test("replay: invalidations drop a scope; full drops every range; a range drops overlapping ranges and blocks the full fallback", () => {
  const sm = SessionManager.inMemory("/tmp");
  user(sm);
  readResult(sm, meta("/p", "full", A));
  readResult(sm, meta("/p", "r:1:5", A));
  readResult(sm, meta("/p", "r:20:30", A));
  sm.appendCustomEntry(CUSTOM_TYPE, invalidation("/p", "r:3:8"));
  let k = replay(sm.getBranch());
  assert.equal(k.get("/p", "r:1:5"), undefined, "overlapping range dropped");
  assert.equal(k.get("/p", "r:20:30"), A, "other range kept");
  assert.deepEqual(k.bases("/p", 3, 8), { "r:20:30": A }, "no full fallback for the refreshed range");
  assert.deepEqual(k.bases("/p", 20, 30), { full: A, "r:20:30": A });
  assert.deepEqual(k.bases("/p"), { full: A, "r:20:30": A }, "a whole-file read still has its base");
  readResult(sm, meta("/p", "r:3:8", A));
  k = replay(sm.getBranch());
  assert.deepEqual(k.bases("/p", 3, 8), { full: A, "r:20:30": A, "r:3:8": A }, "a read of the range lifts the block");
  sm.appendCustomEntry(CUSTOM_TYPE, invalidation("/p", "full"));
  k = replay(sm.getBranch());
  assert.deepEqual(k.bases("/p"), {});
  assert.equal(k.invalidations, 2);
});

test("replay: entries of other types, other tools, errors and malformed metadata are ignored", () => {
  const sm = SessionManager.inMemory("/tmp");
  user(sm);
  readResult(sm, meta("/p", "full", A), { toolName: "grep" });
  readResult(sm, meta("/p", "full", A), { isError: true });
  readResult(sm, undefined, { details: undefined });
  readResult(sm, undefined, { details: { readcache: { ...meta("/p", "full", A), v: 2 } } });
  readResult(sm, undefined, { details: { readcache: { ...meta("/p", "full", "nothex") } } });
  readResult(sm, undefined, { details: { readcache: { ...meta("/p", "full", A), scopeKey: "r:5:3" } } });
  readResult(sm, undefined, { details: { readcache: { ...meta("/p", "full", A), mode: "baseline" } } });
  readResult(sm, undefined, { details: { readcache: "garbage" } });
  sm.appendCustomEntry("pi-readcache", invalidation("/q", "full"));
  sm.appendCustomEntry(CUSTOM_TYPE, { v: 1, kind: "invalidate", pathKey: "/q" });
  sm.appendCustomEntry(CUSTOM_TYPE, null);
  const k = replay(sm.getBranch());
  assert.equal(k.paths.size, 0);
  assert.equal(k.reads, 0);
  assert.equal(k.invalidations, 0);
  assert.equal(parseMeta(null), undefined);
  assert.throws(() => invalidation("/p", "r:0:3"), /scopeKey/);
});

test("replay: branching follows the leaf (branch A's reads are not on branch B)", () => {
  const sm = SessionManager.inMemory("/tmp");
  const u = user(sm);
  readResult(sm, meta("/p", "full", A));
  const leafA = sm.getLeafId();
  sm.branch(u);
  readResult(sm, meta("/q", "full", B));
  let k = replay(sm.getBranch());
  assert.equal(k.get("/p", "full"), undefined);
  assert.equal(k.get("/q", "full"), B);
  sm.branch(leafA);
  k = replay(sm.getBranch());
  assert.equal(k.get("/p", "full"), A);
  assert.equal(k.get("/q", "full"), undefined);
});

test("state: the replay is memoized per (session, leaf) and recomputed when the leaf moves", () => {
  const sm = SessionManager.inMemory("/tmp");
  const st = new ReadState();
  user(sm);
  readResult(sm, meta("/p", "full", A));
  st.knowledge(sm);
  st.knowledge(sm);
  assert.equal(st.replays, 1);
  readResult(sm, meta("/p", "full", B));
  assert.equal(st.knowledge(sm).get("/p", "full"), B);
  assert.equal(st.replays, 2);
  const other = SessionManager.inMemory("/tmp");
  user(other);
  assert.equal(st.knowledge(other).get("/p", "full"), undefined, "another session has its own replay");
});

test("state: the overlay counts only at the leaf it was recorded at (§7.3)", () => {
  const sm = SessionManager.inMemory("/tmp");
  const st = new ReadState();
  user(sm);
  const served = (id, hash) => {
    const text = `text of ${hash.slice(0, 4)}`;
    return { role: "toolResult", toolName: "read", toolCallId: id, content: [{ type: "text", text }], details: { readcache: { ...meta("/p", "full", hash), textHash: textHashOf(text) } }, isError: false };
  };
  const id = appendToolCall(sm, "read", { path: "p" });
  st.record(sm, served(id, A));
  assert.equal(st.knowledge(sm).get("/p", "full"), A, "a sibling call of the same assistant message sees it");
  user(sm, "the result never landed; the leaf moved");
  assert.equal(st.knowledge(sm).get("/p", "full"), undefined);
  st.record(sm, served(appendToolCall(sm, "read", { path: "p" }), B));
  st.clear();
  assert.equal(st.knowledge(sm).get("/p", "full"), undefined, "clear drops the overlay");
  assert.equal(st.replayed(sm).get("/p", "full"), undefined, "and the overlay never leaks into the memo");
});

test("state: the incremental replay from a memoized ancestor equals the full replay, across reads, invalidations, branches, compactions and (pi 1.x) context edits", () => {
  const sm = SessionManager.inMemory("/tmp");
  const state = new ReadState();
  let seed = 7;
  const rand = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
  const hashes = [A, B, C];
  const snapshot = (k) => ({
    paths: [...k.paths].map(([p, s]) => [p, [...s].sort()]).sort(),
    blocked: [...k.blocked].sort(),
    modes: k.modes,
    reads: k.reads,
    anchored: k.anchored,
    calls: [...k.calls].sort(),
    invalidations: k.invalidations,
  });
  for (let step = 0; step < 400; step++) {
    const r = rand(20);
    const p = `/f${rand(4)}`;
    const scope = rand(3) === 0 ? `r:${1 + rand(3)}:${4 + rand(3)}` : "full";
    if (r < 11) readResult(sm, meta(p, scope, hashes[rand(3)], rand(2) ? "full" : "unchanged"));
    else if (r < 13) sm.appendCustomEntry(CUSTOM_TYPE, invalidation(p, scope));
    else if (r < 15) user(sm, "more");
    else if (r < 17 && sm.getBranch().length > 0) {
      const branch = sm.getBranch();
      sm.branch(branch[rand(branch.length)].id); // /tree to an earlier entry
    } else if (r < 18 && sm.getBranch().length > 0) {
      const branch = sm.getBranch();
      sm.appendCompaction("summary", branch[rand(branch.length)].id, 100);
    } else if (r === 18 && typeof sm.appendContextEdit === "function") {
      // pi 1.x: the state replays pi's own projection, replay() applies the
      // window's context edits itself: the two must agree
      const targets = sm.getBranch().filter((e) => e.type === "message" && e.message.role !== "user");
      if (targets.length) sm.appendContextEdit(targets[rand(targets.length)].id, rand(2) ? null : { content: "[cleared]" });
    } else readResult(sm, meta(p, "full", hashes[rand(3)]), { isError: rand(2) === 0 });
    const got = state.replayed(sm);
    assert.deepEqual(snapshot(got), snapshot(replay(sm.getBranch())), `step ${step}`);
  }
  assert.ok(state.extended > 100, `only ${state.extended} of ${state.replays} replays were incremental`);
});
