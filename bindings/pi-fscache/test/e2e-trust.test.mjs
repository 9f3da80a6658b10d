// Issue 44 end to end, in a real pi agent session on each pi line (the
// faux provider scripting the model, this package installed by the line's
// own `pi install` and loaded by pi's resource loader from the settings that
// wrote): marker, diff, then pi's own
// compact() keeping the marker and the diff but summarizing the full
// reads they stood on (both sent as the text they stood for in the next
// request, issue 48, so the rereads are markers), a full read the
// compaction kept (still the marker, seed 004). On pi 1.x, a second
// extension omits a read's result from a turn_end handler (a context_edit
// draft, replacement null): that file is sent in full next while another,
// untouched, stays a marker; and a tool of that extension reading a file
// through ctx.executeTool("read") gets the file's text.
import test from "node:test";
import assert from "node:assert/strict";
import { LINE } from "./pi-line.mjs";
import { setup } from "./e2e-setup.mjs";

const MARKER = /^\[readcache: unchanged, \d+ lines\]$/;
const body = (tag, n = 120) => Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}: nothing to see`).join("\n") + "\n";

// The second extension: prunes the result of any read of pruned.txt at
// turn_end, and offers `peek`, a tool that reads through ctx.executeTool.
const PRUNER = `
export default function (pi) {
  pi.on("turn_end", async (event) => {
    const calls = new Map();
    for (const c of event.message?.content ?? []) if (c.type === "toolCall") calls.set(c.id, c);
    const drop = [];
    event.toolResults.forEach((r, i) => {
      const call = calls.get(r.toolCallId);
      if (r.toolName === "read" && call && String(call.arguments?.path).endsWith("pruned.txt")) drop.push(event.toolResultEntryIds[i]);
    });
    if (drop.length === 0) return;
    return { entries: [...event.entries, ...drop.map((id) => ({ type: "context_edit", targetId: id, replacement: null }))] };
  });
  pi.registerTool({
    name: "peek",
    label: "peek",
    description: "Reads a file through the read tool and reports its first line.",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    async execute(_id, params, signal, _onUpdate, ctx) {
      const r = await ctx.executeTool("read", { path: params.path }, { signal });
      const text = (r.result?.content ?? r.content ?? []).map((c) => c.text ?? "").join("");
      return { content: [{ type: "text", text: "peek: " + text }], details: { text } };
    },
  });
}
`;

test(`e2e trust (pi ${LINE}): marker, diff, then pi's compact() summarizing their full reads away: the next request carries their text in their place; a kept full read stays a marker`, async (t) => {
  const s = await setup(t, { "c.txt": body("c"), "d.txt": body("d"), "e.txt": body("e") });
  let r = await s.turn("read c and d", [["read", { path: "c.txt" }], ["read", { path: "d.txt" }]]);
  assert.deepEqual(r.map((x) => x.mode), ["full", "full"]);
  s.script.push(s.say(`A long story. ${"Nothing happened that day. ".repeat(1500)}`));
  await s.session.prompt("tell me a long story");
  const firstReads = r.map((x) => x.id);
  r = await s.turn("reread c, edit d, read d and e", [
    ["read", { path: "c.txt" }],
    ["edit", { path: "d.txt", edits: [{ oldText: "d line 60: nothing to see", newText: "d line 60: changed" }] }],
    ["read", { path: "d.txt" }],
    ["read", { path: "e.txt" }],
  ]);
  assert.equal(r[0].mode, "unchanged");
  assert.match(r[0].text, MARKER);
  assert.equal(r[2].mode, "diff", r[2].text);
  assert.match(r[2].text, /\n-d line 60: nothing to see\n\+d line 60: changed\n/);
  assert.equal(r[3].mode, "full");
  const kept = [r[0].id, r[2].id, r[3].id];

  s.settingsManager.applyOverrides({ compaction: { enabled: false, keepRecentTokens: 4000 } });
  await s.session.compact();
  const branch = s.sessionManager.getBranch();
  const compaction = branch.findLast((e) => e.type === "compaction");
  assert.ok(compaction, "compacted");
  const at = (id) => branch.findIndex((e) => e.id === id);
  const keptFrom = at(compaction.firstKeptEntryId);
  assert.ok(keptFrom >= 0, "the compaction kept recent entries");
  for (const id of firstReads) assert.ok(at(id) < keptFrom, "the full reads were summarized away");
  for (const id of kept) assert.ok(at(id) >= keptFrom, "the marker, the diff and e.txt's full read were kept");

  const seen = s.requests.length;
  r = await s.turn("read c, d and e again", [["read", { path: "c.txt" }], ["read", { path: "d.txt" }], ["read", { path: "e.txt" }]]);
  // issue 48: the first request after the compaction no longer holds the
  // full reads the marker and the diff stood on: it carries their text in
  // their place, so the model holds both files, and the rereads are markers
  const first = s.requests[seen];
  const sent = (id) => first.find((m) => m.role === "toolResult" && m.toolCallId === id);
  const branch2 = s.sessionManager.getBranch();
  const callOf = (entryId) => branch2.find((e) => e.id === entryId).message.toolCallId;
  const text = (m) => m.content.map((c) => c.text ?? "").join("");
  assert.match(text(sent(callOf(kept[0]))), /^c line 1: nothing to see\n/, "the marker was sent as the text it stood for");
  assert.match(text(sent(callOf(kept[1]))), /^d line 1: nothing to see\n[^]*d line 60: changed/, "the diff was sent as the text it stood for");
  assert.equal(r[0].mode, "unchanged", `c.txt: the model holds the restored text: ${r[0].text.slice(0, 50)}`);
  assert.equal(r[1].mode, "unchanged", `d.txt: the model holds the restored text: ${r[1].text.slice(0, 50)}`);
  assert.equal(r[2].mode, "unchanged", "e.txt: a full read the compaction kept (seed 004)");
  assert.match(r[2].text, MARKER);
  assert.deepEqual(await s.checkSent(), []);
  assert.equal(s.script.length, 0, "every scripted step ran");
});

const PI1 = { skip: LINE === "1" ? false : "pi 0.73 has neither turn_end entry drafts (context edits) nor ctx.executeTool" };

test(`e2e trust (pi ${LINE}): a read another extension omitted at turn_end is sent in full; an untouched one stays a marker; ctx.executeTool("read") gets the text`, PI1, async (t) => {
  const s = await setup(t, { "pruned.txt": body("p"), "other.txt": body("o") }, { extra: [["pruner.js", PRUNER]] });
  let r = await s.turn("read both", [["read", { path: "pruned.txt" }], ["read", { path: "other.txt" }]]);
  assert.deepEqual(r.map((x) => x.mode), ["full", "full"]);
  const edits = s.sessionManager.getBranch().filter((e) => e.type === "context_edit");
  assert.equal(edits.length, 1, "the pruner appended one context edit");
  assert.equal(edits[0].targetId, r[0].id);
  assert.equal(edits[0].replacement, null);
  const visible = s.sessionManager.buildSessionContext().messages.filter((m) => m.role === "toolResult").map((m) => m.content.map((c) => c.text ?? "").join(""));
  assert.ok(!visible.some((x) => x.startsWith("p line 1")), "pruned.txt's text is gone from the model's context");

  r = await s.turn("read both again", [["read", { path: "pruned.txt" }], ["read", { path: "other.txt" }]]);
  assert.equal(r[0].mode, "full", `the omitted read is not trusted: ${r[0].text.slice(0, 50)}`);
  assert.match(r[0].text, /^p line 1: nothing to see\n/);
  assert.equal(r[1].mode, "unchanged", "the other file is untouched");
  assert.match(r[1].text, MARKER);

  r = await s.turn("peek at other.txt", [["peek", { path: "other.txt" }]]);
  assert.equal(r[0].tool, "peek");
  assert.match(r[0].text, /^peek: o line 1: nothing to see\n/, `the program got the file's text: ${r[0].text.slice(0, 60)}`);
  r = await s.turn("read other.txt", [["read", { path: "other.txt" }]]);
  assert.equal(r[0].mode, "unchanged", "the nested read took nothing away from the model's trust");
  assert.equal(s.script.length, 0, "every scripted step ran");
});
