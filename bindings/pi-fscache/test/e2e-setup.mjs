// A real pi agent session on the line under test for the end-to-end read
// cache suites: the faux provider scripting the model, this package
// installed by the line's own `pi install` (in the test's own HOME and
// agent directory) and loaded by pi's resource loader from the settings
// that wrote, as users add it. Every request the provider receives is
// recorded (s.requests: its messages), and checkSent() holds each read
// result new in a turn against the model's copy rebuilt from that request
// (test/oracle-lib.mjs), never from details.
//
// options.extra: [file name, source] of extensions loaded before the
// package (pi loads -e / additional paths first); options.after: the same,
// each installed as a package of its own by `pi install` after this one
// (loaded after it).
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";
import { createFauxSession, isSummaryRequest, pi, piAi, piCommand } from "./pi-line.mjs";
import { check, copiesFrom, piArgs, textOf } from "./oracle-lib.mjs";
import { piRead } from "./read-harness.mjs";

const { DefaultResourceLoader, SessionManager, SettingsManager } = pi;
const { fauxAssistantMessage, fauxText, fauxToolCall } = piAi;
export const PKG = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export async function setup(t, files, { extra = [], after = [] } = {}) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pi-fscache-e2e-")));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const cwd = path.join(root, "repo");
  const agentDir = path.join(root, "agent");
  fs.mkdirSync(cwd, { mode: 0o700 });
  fs.mkdirSync(agentDir, { mode: 0o700 });
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(cwd, name), text);
  const env = { ...process.env, HOME: root, PI_CODING_AGENT_DIR: agentDir };
  delete env.PI_FSCACHE_READ;
  const install = (dir) => {
    const [exe, ...installArgs] = piCommand("install", dir);
    const installed = spawnSync(exe, installArgs, { cwd: root, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120000 });
    assert.equal(installed.status, 0, `pi install ${dir}: exit ${installed.status}\n${installed.stdout}${installed.stderr}`);
  };
  install(PKG);
  for (const [name, src] of after) {
    const dir = path.join(root, `pkg-${name.replace(/\W/g, "_")}`);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "index.js"), src);
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `e2e-${path.basename(dir)}`, version: "1.0.0", type: "module", keywords: ["pi-package"], pi: { extensions: ["./index.js"] } }));
    install(dir);
  }
  const paths = [];
  for (const [name, src] of extra) {
    const p = path.join(root, name);
    fs.writeFileSync(p, src);
    paths.push(p);
  }
  const script = [];
  const requests = [];
  const respond = (context) => {
    if (isSummaryRequest(context)) return fauxAssistantMessage("## Goal\nRead the files.\n## Progress\nRead them.");
    requests.push(structuredClone(context.messages));
    const step = script.shift();
    assert.ok(step, "the model was called more often than scripted");
    return step;
  };
  const settingsManager = SettingsManager.create(cwd, agentDir);
  settingsManager.applyOverrides({ compaction: { enabled: false, keepRecentTokens: 1000000 } });
  const resourceLoader = new DefaultResourceLoader({ cwd, agentDir, settingsManager, additionalExtensionPaths: paths });
  await resourceLoader.reload();
  const loaded = resourceLoader.getExtensions();
  assert.deepEqual(loaded.errors, [], "the extensions load");
  const order = loaded.extensions.map((e) => e.path);
  assert.ok(order.includes(path.join(PKG, "index.js")), "the package is loaded from the settings pi install wrote");
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
  const call = (name, args) => fauxAssistantMessage(fauxToolCall(name, args), { stopReason: "toolUse" });
  const say = (text) => fauxAssistantMessage(fauxText(text));
  const results = () =>
    sessionManager
      .getBranch()
      .filter((e) => e.type === "message" && e.message.role === "toolResult")
      .map((e) => ({ id: e.id, callId: e.message.toolCallId, tool: e.message.toolName, text: e.message.content.map((c) => c.text ?? "").join(""), mode: e.message.details?.readcache?.mode, details: e.message.details }));
  // what each read's file was when a request first carried its result
  const snaps = new Map();
  let checkedRequests = 0;
  const violations = [];
  /**
   * The requests recorded since the last check: every read result each
   * carries, checked against the copy the model rebuilds from that request
   * (a result's file as it was when a request first carried it, which the
   * turn's end precedes no edit of): returns the violations.
   */
  const checkNew = async () => {
    const found = [];
    for (; checkedRequests < requests.length; checkedRequests++) {
      const messages = requests[checkedRequests];
      const calls = new Map();
      for (let i = 0; i < messages.length; i++) {
        const m = messages[i];
        if (m.role === "assistant") for (const c of m.content ?? []) if (c.type === "toolCall") calls.set(c.id, c.arguments);
        if (m.role !== "toolResult" || m.toolName !== "read" || m.isError || !calls.has(m.toolCallId)) continue;
        const args = calls.get(m.toolCallId);
        if (!snaps.has(m.toolCallId)) {
          const file = args.path.replace(/:[0-9].*$/, "");
          const lines = fs.readFileSync(path.join(cwd, file), "utf8").split("\n").slice(0, -1);
          snaps.set(m.toolCallId, { args, lines, pi: (await piRead(cwd, piArgs(args))).text });
        }
        const v = check(copiesFrom(messages, i), args, textOf(m.content), snaps.get(m.toolCallId));
        if (v) found.push(`request ${checkedRequests}: ${v}`);
      }
    }
    return found;
  };
  /** Runs one prompt whose model calls the given tools in turn; returns their results. */
  const turn = async (prompt, calls) => {
    const before = results().length;
    for (const [name, args] of calls) script.push(call(name, args));
    script.push(say("done"));
    await session.prompt(prompt);
    violations.push(...(await checkNew()));
    return results().slice(before);
  };
  /** The violations found so far (each turn's requests are checked when it ends). */
  const checkSent = async () => [...violations, ...(await checkNew())];
  return { root, cwd, session, settingsManager, sessionManager, script, say, turn, requests, checkSent, order };
}
