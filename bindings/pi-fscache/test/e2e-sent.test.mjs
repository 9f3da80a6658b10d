// Issue 48 end to end: the read cache judged by what the model is sent, in
// a real pi agent session on each pi line (the package installed by `pi
// install`, the model scripted by pi-ai's faux provider, every request the
// provider receives checked against the copy of each file the model can
// rebuild from it: e2e-setup.mjs, oracle-lib.mjs). One test per case the
// issue names; each failed on the package before issue 48.
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { LINE } from "./pi-line.mjs";
import { setup } from "./e2e-setup.mjs";
import { piRead } from "./read-harness.mjs";
import { CLEARED } from "./oracle-lib.mjs";

const body = (tag, n = 120) => Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}: nothing to see`).join("\n") + "\n";
const MARKER = /^\[readcache: unchanged/;

// 3,000 lines of 40 bytes: pi's read stops at 50 KB, some 1,250 lines in.
const wide = Array.from({ length: 3000 }, (_, i) => `${String(i + 1).padStart(5, "0")} ${"w".repeat(33)}`).join("\n") + "\n";

test(`sent (pi ${LINE}): a truncated range anchors the lines it showed, and the reread keeps pi's continuation notice`, async (t) => {
  const s = await setup(t, { "wide.txt": wide });
  for (const args of [{ path: "wide.txt", offset: 10 }, { path: "wide.txt", offset: 10, limit: 2500 }]) {
    const own = await piRead(s.cwd, args);
    const shownEnd = 10 + own.details.truncation.outputLines - 1;
    const notice = /\n\n(\[Showing lines 10-\d+ of \d+ \(50\.0KB limit\)\. Use offset=\d+ to continue\.\])$/.exec(own.text)[1];
    const r = await s.turn("read it twice", [["read", args], ["read", args]]);
    if (args.limit === undefined) assert.equal(r[0].text, own.text, "the first read is pi's");
    else assert.equal(r[0].mode, "unchanged_range", "a limit past what pi shows: the same lines, held");
    assert.equal(r[1].mode, "unchanged_range", r[1].text.slice(0, 120));
    assert.match(r[1].text, new RegExp(`^\\[readcache: unchanged in lines 10-${shownEnd} of 300[01]\\]\\n\\n`), "the marker names the lines pi showed, not the range asked for");
    assert.ok(r[1].text.endsWith(notice), `pi's continuation notice is kept: ${r[1].text}`);
  }
  // a range past what the first read showed was never sent: its text
  const past = await s.turn("read past the cut", [["read", { path: "wide.txt", offset: 1400, limit: 5 }]]);
  assert.equal(past[0].text, (await piRead(s.cwd, { path: "wide.txt", offset: 1400, limit: 5 })).text);
  assert.deepEqual(await s.checkSent(), []);
});

test(`sent (pi ${LINE}): the host's own sessionManager.branch() back past a compaction: the answer follows what the model is sent`, async (t) => {
  const s = await setup(t, { "a.txt": body("a"), "b.txt": body("b") });
  await s.turn("read a", [["read", { path: "a.txt" }]]);
  const beforeCompaction = s.sessionManager.getLeafId();
  s.settingsManager.applyOverrides({ compaction: { enabled: false, keepRecentTokens: 1 } });
  await s.turn("read b", [["read", { path: "b.txt" }]]);
  await s.session.compact();
  // the host moves the session's leaf back to before the compaction, with
  // no pi event: pi 0.73 keeps sending its agent's messages (the summary),
  // pi 1.x builds the next request from the session (a.txt's full read)
  s.sessionManager.branch(beforeCompaction);
  const r = await s.turn("read a again", [["read", { path: "a.txt" }]]);
  const last = s.requests.at(-2); // the request that made the call
  const holds = last.some((m) => m.role === "toolResult" && m.content.some((c) => (c.text ?? "").startsWith("a line 1: nothing to see")));
  assert.equal(holds, LINE === "1", `the request ${holds ? "holds" : "does not hold"} a.txt's text`);
  assert.equal(r[0].mode, holds ? "unchanged" : "full", r[0].text.slice(0, 60));
  assert.deepEqual(await s.checkSent(), []);
});

// Another extension's `context` handler that sends every read result but
// the latest turn's as cleared (what microcompaction extensions do).
const PRUNER = `
export default function (pi) {
  pi.on("context", (event) => {
    const lastUser = event.messages.findLastIndex((m) => m.role === "user");
    return { messages: event.messages.map((m, i) => (i < lastUser && m.role === "toolResult" && m.toolName === "read" ? { ...m, content: [{ type: "text", text: ${JSON.stringify(CLEARED)} }] } : m)) };
  });
}
`;

test(`sent (pi ${LINE}): a context handler loaded before the package prunes old reads: no marker stands on them`, async (t) => {
  const s = await setup(t, { "a.txt": body("a") }, { extra: [["pruner.js", PRUNER]] });
  assert.ok(s.order.findIndex((p) => p.endsWith("pruner.js")) < s.order.findIndex((p) => p.endsWith(path.join("pi-fscache", "index.js"))), `the pruner runs first: ${s.order}`);
  let r = await s.turn("read a", [["read", { path: "a.txt" }], ["read", { path: "a.txt" }]]);
  assert.deepEqual(r.map((x) => x.mode), ["full", "unchanged"], "in one turn the full read is still sent");
  r = await s.turn("read a again", [["read", { path: "a.txt" }]]);
  assert.equal(r[0].mode, "full", `the pruner took the text away: ${r[0].text.slice(0, 60)}`);
  assert.deepEqual(await s.checkSent(), []);
});

test(`sent (pi ${LINE}): a context handler loaded after the package (not covered: docs/readcache.md): what reaches the model`, async (t) => {
  const s = await setup(t, { "a.txt": body("a") }, { after: [["pruner", PRUNER]] });
  assert.ok(s.order.findIndex((p) => p.includes("pkg-pruner")) > s.order.findIndex((p) => p.endsWith(path.join("pi-fscache", "index.js"))), `the pruner runs last: ${s.order}`);
  await s.turn("read a", [["read", { path: "a.txt" }]]);
  const r = await s.turn("read a again", [["read", { path: "a.txt" }]]);
  // The package judged the request before the pruner changed it: it
  // answered the marker, and the pruner then removed the text it stood on.
  assert.equal(r[0].mode, "unchanged");
  const v = await s.checkSent();
  assert.equal(v.length, 1, `the one marker the later handler orphaned, as docs/readcache.md says: ${v}`);
});

test(`sent (pi ${LINE}): a symlink's or a hard link's name the model never read gets the text`, async (t) => {
  const s = await setup(t, { "alpha.txt": body("alpha") });
  fs.symlinkSync("alpha.txt", path.join(s.cwd, "link.txt"));
  fs.linkSync(path.join(s.cwd, "alpha.txt"), path.join(s.cwd, "hard.txt"));
  const r = await s.turn("read alpha and its other names", [
    ["read", { path: "alpha.txt" }],
    ["read", { path: "link.txt" }],
    ["read", { path: "hard.txt" }],
    ["read", { path: "link.txt" }],
  ]);
  assert.deepEqual(
    r.map((x) => x.mode),
    ["full", "full", "full", "unchanged"],
  );
  assert.match(r[1].text, /^alpha line 1: nothing to see\n/);
  assert.deepEqual(await s.checkSent(), []);
});

test(`sent (pi ${LINE}): a changed file pi cuts at 50 KB: no diff that leaves the model without lines the read shows now`, async (t) => {
  const long = Array.from({ length: 300 }, (_, i) => `${i + 1} ${"w".repeat(200)}`).join("\n") + "\n";
  const s = await setup(t, { "w.txt": long });
  await s.turn("read w", [["read", { path: "w.txt" }]]);
  // lines 10-20 made short: the same read now shows lines past the old cut
  fs.writeFileSync(path.join(s.cwd, "w.txt"), long.split("\n").map((l, i) => (i >= 9 && i <= 19 ? `${i + 1} short` : l)).join("\n"));
  const r = await s.turn("read w again", [["read", { path: "w.txt" }], ["read", { path: "w.txt" }]]);
  assert.notEqual(r[0].mode, "diff", r[0].text.slice(0, 80));
  assert.equal(r[0].text, (await piRead(s.cwd, { path: "w.txt" })).text);
  assert.equal(r[1].mode, "unchanged");
  // a change within what the model holds is still a diff
  fs.writeFileSync(path.join(s.cwd, "w.txt"), fs.readFileSync(path.join(s.cwd, "w.txt"), "utf8").replace("12 short", "12 changed"));
  const d = await s.turn("read w once more", [["read", { path: "w.txt" }]]);
  assert.equal(d[0].mode, "diff", d[0].text.slice(0, 80));
  assert.deepEqual(await s.checkSent(), []);
});

test(`sent (pi ${LINE}): lines the model holds from several reads make a marker, whichever reads taught them`, async (t) => {
  const big = Array.from({ length: 2100 }, (_, i) => `row ${i + 1}`).join("\n") + "\n";
  const s = await setup(t, { "a.txt": body("a", 100), "big.txt": big });
  const r = await s.turn("read in pieces", [
    ["read", { path: "a.txt", offset: 1, limit: 50 }],
    ["read", { path: "a.txt", offset: 51 }],
    ["read", { path: "a.txt" }], // every line held from the two ranges
    ["read", { path: "a.txt:40-60" }], // across both
    ["read", { path: "big.txt" }], // shows 1-2000
    ["read", { path: "big.txt", offset: 2001 }], // the rest
    ["read", { path: "big.txt", offset: 1990, limit: 20 }], // from the whole read and the range
  ]);
  assert.deepEqual(
    r.map((x) => x.mode),
    ["full", "full", "unchanged", "unchanged_range", "full", "full", "unchanged_range"],
  );
  assert.deepEqual(await s.checkSent(), []);
});
