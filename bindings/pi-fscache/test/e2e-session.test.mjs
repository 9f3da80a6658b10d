// End to end in a real pi agent session (issue 34, Deliver 4), on each pi
// line (test/pi-line.mjs: 0.73.1 and 1.6.0): pi's createAgentSession, pi-ai's faux provider scripting the model, this
// package loaded as an extension from its directory (package.json's
// pi.extensions, as `pi install` would load it), an in-memory session. The
// model reads a file twice (the second answer is the marker), edits it with
// pi's edit tool (the next read is a diff), the tree is navigated back (full
// again), a compaction that keeps the read (marker), one that drops it (full).
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LINE, createFauxSession, isSummaryRequest, pi, piAi } from "./pi-line.mjs";

const { DefaultResourceLoader, SessionManager, SettingsManager } = pi;
const { fauxAssistantMessage, fauxText, fauxToolCall } = piAi;

const PKG = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

test(`e2e (pi ${LINE}): marker, diff, full after /tree, marker after a compaction that kept the read, full after one that dropped it`, async (t) => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pi-fscache-e2e-")));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const cwd = path.join(root, "repo");
  const agentDir = path.join(root, "agent");
  fs.mkdirSync(cwd, { mode: 0o700 });
  fs.mkdirSync(agentDir, { mode: 0o700 });
  const file = path.join(cwd, "notes.txt");
  const body = Array.from({ length: 300 }, (_, i) => `note ${i + 1}: nothing to see`).join("\n") + "\n";
  fs.writeFileSync(file, body);

  // The model: a queue of scripted steps; compaction's summary requests get a summary.
  const script = [];
  const respond = (context) => {
    if (isSummaryRequest(context)) return fauxAssistantMessage("## Goal\nRead notes.txt.\n## Progress\nRead and edited it.");
    const step = script.shift();
    assert.ok(step, "the model was called more often than scripted");
    return step;
  };
  const call = (name, args) => fauxAssistantMessage(fauxToolCall(name, args), { stopReason: "toolUse" });
  const say = (text) => fauxAssistantMessage(fauxText(text));

  const settingsManager = SettingsManager.inMemory({ compaction: { enabled: false, keepRecentTokens: 1000000 } });
  const resourceLoader = new DefaultResourceLoader({ cwd, agentDir, settingsManager, additionalExtensionPaths: [PKG] });
  await resourceLoader.reload();
  const loaded = resourceLoader.getExtensions();
  assert.deepEqual(loaded.errors, [], "the package loads");
  const sessionManager = SessionManager.inMemory(cwd);
  const { session, faux } = await createFauxSession(t, {
    provider: "faux-e2e",
    models: [{ id: "scripted", contextWindow: 200000, maxTokens: 4096 }],
    cwd,
    agentDir,
    settingsManager,
    resourceLoader,
    sessionManager,
  });
  faux.setResponses(Array.from({ length: 100 }, () => respond));
  assert.ok(session.getAllTools().some((x) => x.name === "readcache_refresh"), "the package's tool is registered");
  assert.ok(session.getActiveToolNames().includes("read"));
  assert.equal(session.getToolDefinition("read").execute.name, "executeInOrder", "read is the package's override");

  const readResults = () =>
    sessionManager
      .getBranch()
      .filter((e) => e.type === "message" && e.message.role === "toolResult" && e.message.toolName === "read")
      .map((e) => ({ id: e.id, text: e.message.content.map((c) => c.text ?? "").join(""), mode: e.message.details?.readcache?.mode, isError: e.message.isError }));
  const lastRead = () => readResults().at(-1);

  // 1. two reads: full, then the marker
  script.push(call("read", { path: "notes.txt" }), call("read", { path: "notes.txt" }), say("read it twice"));
  await session.prompt("read notes.txt twice");
  let reads = readResults();
  assert.equal(reads.length, 2);
  assert.equal(reads[0].mode, "full");
  assert.match(reads[0].text, /^note 1: nothing to see\n/);
  assert.equal(reads[1].mode, "unchanged");
  // lines as this line's read counts them: 0.73 splits on "\n" (301, the
  // trailing newline making a last empty line), 1.x does not count it (300)
  const TOTAL = LINE === "1" ? 300 : 301;
  assert.equal(reads[1].text, `[readcache: unchanged, ${TOTAL} lines]`);

  // 2. pi's edit tool, then a read: the diff
  script.push(call("edit", { path: "notes.txt", edits: [{ oldText: "note 150: nothing to see", newText: "note 150: something changed" }] }), call("read", { path: "notes.txt" }), say("edited"));
  await session.prompt("change note 150 and read the file again");
  assert.match(fs.readFileSync(file, "utf8"), /note 150: something changed/);
  let r = lastRead();
  assert.equal(r.mode, "diff", r.text);
  assert.ok(r.text.startsWith(`[readcache: 1 lines changed of ${TOTAL}]\n--- a/`), r.text);
  assert.match(r.text, /\n-note 150: nothing to see\n\+note 150: something changed\n/);

  // 3. /tree back to before the first prompt's reads: the read is not in context there
  const firstUser = sessionManager.getBranch().find((e) => e.type === "message" && e.message.role === "user");
  const nav = await session.navigateTree(firstUser.id, { summarize: false });
  assert.equal(nav.cancelled, false);
  assert.equal(readResults().length, 0, "no read on the path after navigating back");
  // a long answer before the read, for the compaction of step 4 to summarize
  // (pi 1.x compacts nothing when everything would be kept)
  script.push(say(`Here is a long story. ${"Nothing happened that day. ".repeat(1500)}`));
  await session.prompt("tell me a long story");
  script.push(call("read", { path: "notes.txt" }), say("read once"));
  await session.prompt("read notes.txt");
  r = lastRead();
  assert.equal(r.mode, "full", "full again after navigating back");
  assert.match(r.text, /note 150: something changed/);
  const readEntryId = r.id;

  // 4. a compaction that keeps the read (the recent read's turn is kept, the
  // story before it summarized): the marker
  settingsManager.applyOverrides({ compaction: { enabled: false, keepRecentTokens: 4000 } });
  await session.compact();
  let branch = sessionManager.getBranch();
  let compaction = branch.findLast((e) => e.type === "compaction");
  assert.ok(compaction, "compacted");
  const keptIndex = branch.findIndex((e) => e.id === compaction.firstKeptEntryId);
  const readIndex = branch.findIndex((e) => e.id === readEntryId);
  assert.ok(keptIndex >= 0 && keptIndex <= readIndex, "this compaction kept the read");
  script.push(call("read", { path: "notes.txt" }), say("unchanged"));
  await session.prompt("read notes.txt again");
  r = lastRead();
  assert.equal(r.mode, "unchanged", "the kept read is still trusted (seed 004)");
  assert.equal(r.text, `[readcache: unchanged, ${TOTAL} lines]`);

  // 5. a compaction that drops it (only the most recent turn is kept): full
  settingsManager.applyOverrides({ compaction: { enabled: false, keepRecentTokens: 1 } });
  script.push(say("nothing to do"));
  await session.prompt("say something");
  await session.compact();
  branch = sessionManager.getBranch();
  compaction = branch.findLast((e) => e.type === "compaction");
  const cIndex = branch.indexOf(compaction);
  const kIndex = branch.findIndex((e) => e.id === compaction.firstKeptEntryId);
  const lastReadIndex = branch.findLastIndex((e) => e.type === "message" && e.message.toolName === "read");
  assert.ok(kIndex > lastReadIndex || kIndex < 0, `this compaction dropped the reads (kept from ${kIndex}, last read at ${lastReadIndex}, compaction at ${cIndex})`);
  script.push(call("read", { path: "notes.txt" }), say("full"));
  await session.prompt("read notes.txt once more");
  r = lastRead();
  assert.equal(r.mode, "full", "a compaction that dropped the read: the full text");
  assert.match(r.text, /^note 1: nothing to see\n/);
  assert.equal(script.length, 0, "every scripted step ran");
});
