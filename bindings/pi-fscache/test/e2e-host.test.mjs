// Issue 49: the test hosts never shadow the pi that loads the package. This
// checkout's package is installed as the README says (`pi install <dir>`,
// the line's own pi CLI from test/hosts/, in a temporary HOME and agent
// directory), then loaded by that pi's resource loader from the settings the
// install wrote, in a child Node process with no resolve hook of the tests
// (as pi's CLI loads it), and its read is compared with the same pi's own
// read: text and details.truncation field by field, and the marker of a
// reread counting lines as that pi does. On pi 1.6.0, with pi 0.73.1 in the
// package's node_modules (the layout before issue 49), the package got
// 0.73's read: totalLines 3001 for a 3000-line file, a 200,000-byte line
// counted 3 lines where pi 1.6.0 says 2.
import test from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LINE, PI_PACKAGE, PI_VERSION, lineTotal, piCommand } from "./pi-line.mjs";

const PKG = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

// Run by the child: pi's own loader and read, by absolute URL (no hooks).
const CHILD = `
import path from "node:path";
const [piUrl, cwd, agentDir, pkg, files] = JSON.parse(process.argv[2]);
const { DefaultResourceLoader, SettingsManager, SessionManager, createReadToolDefinition } = await import(piUrl);
const loader = new DefaultResourceLoader({ cwd, agentDir, settingsManager: SettingsManager.create(cwd, agentDir) });
await loader.reload();
const ext = loader.getExtensions();
const mine = ext.extensions.find((e) => e.path === path.join(pkg, "index.js"));
if (!mine) throw new Error("the installed package was not loaded: " + JSON.stringify(ext.errors));
const read = mine.tools.get("read").definition;
const own = createReadToolDefinition(cwd);
const sm = SessionManager.inMemory(cwd);
sm.appendMessage({ role: "user", content: [{ type: "text", text: "go" }], timestamp: Date.now() });
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
let seq = 0;
const ctx = { cwd, sessionManager: sm, ui: { notify() {} } };
const out = [];
for (const file of files) {
  const reads = [];
  for (let i = 0; i < 2; i++) {
    const id = "call_" + ++seq;
    const args = { path: file };
    sm.appendMessage({ role: "assistant", content: [{ type: "toolCall", id, name: "read", arguments: args }], api: "faux", provider: "faux", model: "faux", usage, stopReason: "toolUse", timestamp: Date.now() });
    const r = await read.execute(id, args, undefined, undefined, ctx);
    sm.appendMessage({ role: "toolResult", toolCallId: id, toolName: "read", content: r.content, details: r.details, isError: false, timestamp: Date.now() });
    reads.push({ text: r.content[0].text, details: r.details });
  }
  const o = await own.execute("own", { path: file });
  out.push({ file, reads, own: { text: o.content[0].text, details: o.details } });
}
process.stdout.write(JSON.stringify({ errors: ext.errors, out }));
`;

test(`pi install <this checkout> into pi ${PI_VERSION}: its read is that pi's, field by field (no test host shadows it)`, (t) => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pi-fscache-host-")));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const cwd = path.join(root, "work");
  const agentDir = path.join(root, "agent");
  fs.mkdirSync(cwd);
  fs.mkdirSync(agentDir);
  const files = {
    "lines3000.txt": Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join("\n") + "\n",
    "longline.txt": "first\n" + "x".repeat(200000) + "\n",
    "small.txt": "hello\nworld\n",
  };
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(cwd, name), text);

  const env = { ...process.env, HOME: root, PI_CODING_AGENT_DIR: agentDir };
  delete env.PI_FSCACHE_READ;
  delete env.NODE_OPTIONS;
  const [exe, ...installArgs] = piCommand("install", PKG);
  const installed = spawnSync(exe, installArgs, { cwd: root, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120000 });
  assert.equal(installed.status, 0, `pi install: exit ${installed.status}\n${installed.stdout}${installed.stderr}`);

  fs.writeFileSync(path.join(root, "child.mjs"), CHILD);
  const args = [import.meta.resolve(PI_PACKAGE), cwd, agentDir, PKG, Object.keys(files)];
  const r = spawnSync(process.execPath, [path.join(root, "child.mjs"), JSON.stringify(args)], { cwd, env, encoding: "utf8", timeout: 120000, maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, `the child: exit ${r.status}\n${r.stderr}`);
  const { errors, out } = JSON.parse(r.stdout);
  assert.deepEqual(errors, []);

  for (const { file, reads, own } of out) {
    const [first, again] = reads;
    assert.equal(first.details?.readcache?.mode, "full", `${file}: served by the read cache`);
    assert.equal(first.text, own.text, `${file}: the text of pi ${PI_VERSION}'s read`);
    assert.deepEqual(first.details.truncation, own.details?.truncation, `${file}: details.truncation as pi ${PI_VERSION} sets it`);
    // The marker counts the file's lines as this pi's read does; a
    // truncated read's names the lines pi showed and keeps pi's notice
    // (issue 48); a first line over pi's limit shows no line: its notice
    // again.
    const t = own.details?.truncation;
    const total = t?.totalLines ?? lineTotal(files[file]);
    if (t?.firstLineExceedsLimit) assert.equal(again.text, own.text, `${file}: no line was shown, so pi's notice again`);
    else if (t?.truncated) assert.equal(again.text, `[readcache: unchanged in lines 1-${t.outputLines} of ${total}]\n\n${own.text.slice(own.text.lastIndexOf("\n\n") + 2)}`, `${file}: the reread's marker`);
    else assert.equal(again.text, `[readcache: unchanged, ${total} lines]`, `${file}: the reread's marker`);
  }
  // What pi 1.6.0 itself says, so that a host of another line answering
  // both reads alike cannot pass (pi 0.73.1 says 3001 and 3).
  const byFile = Object.fromEntries(out.map((o) => [o.file, o.own.details?.truncation]));
  assert.equal(byFile["lines3000.txt"].totalLines, LINE === "1" ? 3000 : 3001);
  assert.equal(byFile["longline.txt"].totalLines, LINE === "1" ? 2 : 3);
});
