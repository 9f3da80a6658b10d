// readcache-view.js: the model's line-level copy and the judge of a
// request's messages (issues 48, 49), on a toy adapter: a result's content
// is JSON of its record, as an agent package's adapter would parse its own
// format.
import test from "node:test";
import assert from "node:assert/strict";
import { Judge, ModelCopy, digestLines, issuingTail, judge, onlyName, parseUnifiedDiff, rebuild, spanOf, stands } from "../readcache-view.js";

const lines = (start, texts) => texts.map((t, i) => [start + i, t]);

test("learn: a whole-file read replaces the copy, a range overwrites its lines", () => {
  const c = new ModelCopy();
  c.learn("/a", lines(1, ["a", "b", "c", "d"]), { replace: true });
  c.learn("/a", lines(2, ["B"]));
  assert.deepEqual([...c.lines("/a")], lines(1, ["a", "B", "c", "d"]));
  c.learn("/a", lines(1, ["x"]), { replace: true });
  assert.deepEqual([...c.lines("/a")], [[1, "x"]]);
  assert.equal(c.prefix("/a"), 1);
});

test("digest: equal for equal lines, undefined when a line is missing, range-sensitive", () => {
  const c = new ModelCopy();
  c.learn("/a", lines(1, ["a", "b", "c"]), { replace: true });
  assert.equal(c.digest("/a", 2, 3), digestLines(lines(2, ["b", "c"])));
  assert.notEqual(c.digest("/a", 1, 2), digestLines(lines(2, ["a", "b"])));
  assert.equal(c.digest("/a", 2, 4), undefined);
  assert.equal(c.digest("/b", 1, 1), undefined);
  assert.equal(digestLines([]), undefined);
  assert.equal(digestLines([[1, "a"], [3, "c"]]), undefined);
  assert.deepEqual(spanOf(lines(5, ["a", "b"])), [5, 6]);
  // a line's text can hold anything: "a\nb" as one line is not "a","b"
  assert.notEqual(digestLines(lines(1, ["a\nb"])), digestLines(lines(1, ["a", "b"])));
});

test("holdsAll: every shown line held with its text, never for none", () => {
  const c = new ModelCopy();
  c.learn("/a", lines(1, ["a", "b", "c"]), { replace: true });
  assert.ok(c.holdsAll("/a", lines(2, ["b", "c"])));
  assert.ok(!c.holdsAll("/a", lines(2, ["b", "C"])));
  assert.ok(!c.holdsAll("/a", lines(3, ["c", "d"])));
  assert.ok(!c.holdsAll("/a", []));
});

const DIFF = ["--- a/f", "+++ b/f", "@@ -2,3 +2,4 @@", " b", "-c", "+C", "+C2", " d", "@@ -8,0 +10,1 @@", "+tail"].join("\n");

test("parseUnifiedDiff and applyDiff: hunks patch the copy, lines outside them shift", () => {
  const hunks = parseUnifiedDiff(DIFF);
  assert.equal(hunks.length, 2);
  assert.deepEqual({ os: hunks[0].os, b: hunks[0].b, ns: hunks[0].ns, d: hunks[0].d }, { os: 2, b: 3, ns: 2, d: 4 });
  assert.deepEqual({ os: hunks[1].os, b: hunks[1].b, ns: hunks[1].ns, d: hunks[1].d }, { os: 9, b: 0, ns: 10, d: 1 });
  const c = new ModelCopy();
  c.learn("/f", lines(1, ["a", "b", "c", "d", "e", "f", "g", "h", "i"]), { replace: true });
  assert.ok(c.applyDiff("/f", hunks));
  assert.deepEqual([...c.lines("/f")].sort((x, y) => x[0] - y[0]), lines(1, ["a", "b", "C", "C2", "d", "e", "f", "g", "h", "tail", "i"]));
});

test("applyDiff: a hunk that contradicts the copy forgets the file", () => {
  const c = new ModelCopy();
  c.learn("/f", lines(1, ["a", "b", "X", "d"]), { replace: true });
  assert.equal(c.applyDiff("/f", parseUnifiedDiff(DIFF)), false);
  assert.equal(c.lines("/f"), undefined);
});

// The toy adapter: assistant messages carry {calls: [{id, args}]}; a result's
// content is the JSON of its record.
const adapter = {
  readCalls: (m) => m.calls ?? [],
  record: (m) => (m.content === "pruned" ? { kind: "none" } : JSON.parse(m.content)),
  replace: async (m, rec) => ({ ...m, content: JSON.stringify({ name: rec.name, kind: "text", shown: rec.stands_for, replace: false }) }),
};
const call = (id) => ({ role: "assistant", calls: [{ id, args: {} }] });
const result = (id, rec) => ({ role: "toolResult", toolCallId: id, content: JSON.stringify(rec) });
const text = (shown, replace = true) => ({ name: "/a", kind: "text", shown, replace });
const marker = (start, end, shown) => ({ name: "/a", kind: "marker", start, end, digest: digestLines(shown), stands_for: shown });

test("judge: a marker whose lines the request holds stays; one whose base was pruned is replaced by its text", async () => {
  const v1 = lines(1, ["a", "b", "c"]);
  const msgs = [call("1"), result("1", text(v1)), call("2"), result("2", marker(1, 3, v1))];
  const kept = await judge(msgs, adapter);
  assert.equal(kept.replaced, 0);
  assert.equal(kept.messages, msgs);

  const pruned = [call("1"), { ...result("1", text(v1)), content: "pruned" }, call("2"), result("2", marker(1, 3, v1)), call("3"), result("3", marker(2, 3, lines(2, ["b", "c"])))];
  const fixed = await judge(pruned, adapter);
  assert.equal(fixed.replaced, 1, "the first marker is replaced; the second then stands on its text");
  assert.notEqual(fixed.messages, pruned);
  assert.equal(pruned[3].content, JSON.stringify(marker(1, 3, v1)), "the messages given are never modified");
  assert.equal(JSON.parse(fixed.messages[3].content).kind, "text");
  assert.deepEqual([...fixed.copy.lines("/a")], v1);
});

test("judge: a marker pieced from several reads stands; a result with no visible call teaches nothing", async () => {
  const msgs = [call("1"), result("1", text(lines(1, ["a", "b"]), false)), call("2"), result("2", text(lines(3, ["c", "d"]), false)), call("3"), result("3", marker(2, 4, lines(2, ["b", "c", "d"])))];
  assert.equal((await judge(msgs, adapter)).replaced, 0);
  const orphan = [result("9", text(lines(1, ["a", "b"]))), call("3"), result("3", marker(1, 2, lines(1, ["a", "b"])))];
  assert.equal((await judge(orphan, adapter)).replaced, 1);
});

test("judge: a diff stands only on its base lines, and patches the copy", async () => {
  const base = lines(1, ["a", "b", "c", "d", "e", "f", "g", "h", "i"]);
  const hunks = parseUnifiedDiff(DIFF);
  const diff = { name: "/a", kind: "diff", baseStart: 1, baseEnd: 9, baseDigest: digestLines(base), hunks, stands_for: [] };
  const ok = await judge([call("1"), result("1", text(base)), call("2"), result("2", diff)], adapter);
  assert.equal(ok.replaced, 0);
  assert.equal(ok.copy.lines("/a").get(3), "C");
  const partial = await judge([call("1"), result("1", text(base.slice(0, 5))), call("2"), result("2", diff)], adapter);
  assert.equal(partial.replaced, 1);
});

test("rebuild: a record that does not stand is reported and teaches nothing", () => {
  const falls = [];
  const copy = rebuild([call("2"), result("2", marker(1, 1, lines(1, ["a"])))], adapter, { onFalls: (i) => falls.push(i) });
  assert.deepEqual(falls, [1]);
  assert.equal(copy.lines("/a"), undefined);
  assert.ok(stands(copy, { kind: "opaque", name: "/a" }));
});

test("clone and subset: a change to either copy leaves the other as it was", () => {
  const c = new ModelCopy();
  c.learn("/a", lines(1, ["a", "b", "c"]), { replace: true });
  c.learn("/b", lines(1, ["x"]), { replace: true });
  const k = c.clone();
  const s = c.subset("/a", "/none");
  assert.deepEqual([...s.files.keys()], ["/a"]);
  k.learn("/a", lines(2, ["B"]));
  s.learn("/a", lines(3, ["C"]));
  c.learn("/a", lines(1, ["A"]));
  assert.deepEqual([...c.lines("/a")], lines(1, ["A", "b", "c"]));
  assert.deepEqual([...k.lines("/a")], lines(1, ["a", "B", "c"]));
  assert.deepEqual([...s.lines("/a")], lines(1, ["a", "b", "C"]));
  assert.ok(k.applyDiff("/b", parseUnifiedDiff("@@ -1,1 +1,1 @@\n-x\n+y")));
  assert.deepEqual([...c.lines("/b")], [[1, "x"]]);
  k.forget("/a");
  assert.deepEqual([...c.lines("/a")], lines(1, ["A", "b", "c"]));
  assert.equal(s.lines("/b"), undefined);
});

// Random conversations over two files: text reads (whole and ranges),
// markers (some standing, some not), diffs, prunes.
function conversation(seed, n) {
  let x = seed;
  const rand = (k) => Math.floor(((x = (x * 1103515245 + 12345) >>> 0) / 4294967296) * k);
  const files = { "/a": ["a1", "a2", "a3", "a4"], "/b": ["b1", "b2", "b3"] };
  const msgs = [];
  for (let i = 0; i < n; i++) {
    const name = rand(2) ? "/a" : "/b";
    const f = files[name];
    if (rand(5) === 0) f[rand(f.length)] += "'";
    const id = `c${i}`;
    const start = 1 + rand(f.length);
    const end = start + rand(f.length - start + 1);
    const shown = lines(start, f.slice(start - 1, end));
    let rec;
    switch (rand(4)) {
      case 0:
        rec = { name, kind: "text", shown: lines(1, f), replace: true };
        break;
      case 1:
        rec = { name, kind: "text", shown, replace: false };
        break;
      default:
        rec = { name, kind: "marker", start, end, digest: digestLines(shown), stands_for: shown };
    }
    msgs.push(call(id), result(id, rec));
    if (rand(6) === 0) msgs.push({ role: "user", content: "go on" });
  }
  return msgs;
}

test("Judge: resuming on a longer request gives judge()'s answer; a rewrite in the middle is judged whole", async () => {
  const same = { ...adapter, same: (a, b) => a.role === b.role && a.toolCallId === b.toolCallId && a.content === b.content };
  let fixes = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const all = conversation(seed, 30);
    const j = new Judge();
    let resumed = 0;
    for (let n = 2; n <= all.length; n += 1 + (seed % 3)) {
      const msgs = all.slice(0, n).map((m) => ({ ...m })); // each request: copies of the messages
      const want = await judge(msgs, same);
      const got = await j.judge(msgs, same);
      if (got.resumedAt > 0) resumed++;
      assert.equal(got.replaced, want.replaced, `seed ${seed}, ${n} messages`);
      assert.deepEqual(got.messages.map((m) => m.content), want.messages.map((m) => m.content));
      assert.deepEqual([...got.copy.files].map(([k, v]) => [k, [...v].sort()]), [...want.copy.files].map(([k, v]) => [k, [...v].sort()]));
    }
    assert.ok(resumed > 0, "later requests resume");
    fixes += (await judge(all, same)).replaced;
    // a prune in the middle: not a prefix, judged whole (and equal)
    const pruned = all.map((m, i) => (i === 1 ? { ...m, content: "pruned" } : { ...m }));
    const got = await j.judge(pruned, same);
    assert.equal(got.resumedAt, 0);
    assert.equal(got.replaced, (await judge(pruned, same)).replaced);
  }
  assert.ok(fixes > 40, `markers that do not stand are among them (${fixes})`);
});

test("issuingTail: the entries from the calling message to the leaf; none for a call no message made", () => {
  const entries = new Map();
  let leaf = null;
  const add = (type, message) => {
    const id = String(entries.size + 1);
    entries.set(id, { id, parentId: leaf, type, message });
    leaf = id;
  };
  add("message", { role: "user" });
  add("message", { role: "assistant", content: [{ type: "toolCall", id: "t1" }, { type: "toolCall", id: "t2" }] });
  add("custom");
  add("message", { role: "toolResult", toolCallId: "t1" });
  const sm = { getLeafId: () => leaf, getEntry: (id) => entries.get(id) };
  assert.deepEqual(issuingTail(sm, "t2").map((e) => e.id), ["2", "3", "4"]);
  assert.equal(issuingTail(sm, "t9"), undefined);
  assert.equal(issuingTail(sm, "t2", 2), undefined, "beyond the lookback");
  assert.equal(issuingTail({}, "t2"), undefined);
});

test("onlyName: a rebuild for one name learns that name's reads only", () => {
  const b = { name: "/b", kind: "text", shown: lines(1, ["x"]), replace: true };
  const msgs = [call("1"), result("1", text(lines(1, ["a"]))), call("2"), result("2", b)];
  const copy = rebuild(msgs, onlyName(adapter, "/a"));
  assert.deepEqual([...copy.lines("/a")], [[1, "a"]]);
  assert.equal(copy.lines("/b"), undefined);
  assert.equal(onlyName(adapter, "/a").replace, adapter.replace);
});
