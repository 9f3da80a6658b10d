// build/test-dist.sh's check of the packed pi package: installed beside pi
// from the npm registry (node pi-smoke.mjs <pi's package name>), loaded by
// that pi's own extension loader as after `pi install npm:pi-fscache`
// (pi 1.x maps the package's @mariozechner/pi-coding-agent imports onto
// itself), it registers its tools, its read answers a reread of an
// unchanged file with the marker, and the engine is the installed
// fscache-native (no checkout on the way). Run in the test project's
// directory, which holds hello.txt ("hello\nworld\n").
import { mkdtempSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

const name = process.argv[2];
const { DefaultResourceLoader, SessionManager, SettingsManager } = await import(name);
const cwd = process.cwd();
const agentDir = mkdtempSync(path.join(tmpdir(), "pi-smoke-agent-"));
const pkgDir = path.join(cwd, "node_modules", "pi-fscache");
const settingsManager = SettingsManager.inMemory();
const loader = new DefaultResourceLoader({ cwd, agentDir, settingsManager, additionalExtensionPaths: [pkgDir] });
await loader.reload();
const loaded = loader.getExtensions();
if (loaded.errors.length) throw new Error(`${name}: the package did not load: ${JSON.stringify(loaded.errors)}`);
const ext = loaded.extensions.find((e) => realpathSync(e.path).startsWith(realpathSync(pkgDir)));
if (!ext) throw new Error(`${name}: no extension loaded from ${pkgDir}`);
for (const tool of ["read", "find", "grep", "ls", "readcache_refresh"]) {
  if (!ext.tools.has(tool)) throw new Error(`pi-fscache registered no ${tool} tool`);
}
const read = ext.tools.get("read").definition;
const sm = SessionManager.inMemory(cwd);
const ctx = { cwd, sessionManager: sm, ui: { notify() {} } };
let n = 0;
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
// As pi runs a tool: the model's call appended first (a read no visible
// message made is a program's, answered by pi's own read), then the result.
async function readOnce() {
  const id = `c${++n}`;
  const args = { path: "hello.txt" };
  sm.appendMessage({ role: "assistant", content: [{ type: "toolCall", id, name: "read", arguments: args }], api: "faux", provider: "faux", model: "faux", usage, stopReason: "toolUse", timestamp: Date.now() });
  const r = await read.execute(id, args, undefined, undefined, ctx);
  sm.appendMessage({ role: "toolResult", toolCallId: id, toolName: "read", content: r.content, details: r.details, isError: false, timestamp: Date.now() });
  return r.content[0].text;
}
const first = await readOnce();
const again = await readOnce();
// lines as this pi's read counts them: 0.73 counts the empty piece after
// the last newline (3), 1.x does not (2)
const want = name.startsWith("@earendil-works/") ? 2 : 3;
if (first !== "hello\nworld\n") throw new Error(`first read: ${JSON.stringify(first)}`);
if (again !== `[readcache: unchanged, ${want} lines]`) throw new Error(`reread: ${JSON.stringify(again)}`);
const engine = createRequire(path.join(pkgDir, "index.js")).resolve("fscache-native");
if (!engine.includes("/node_modules/fscache-native/")) throw new Error(`the engine came from ${engine}`);
console.log(`pi-fscache packed, in ${name}: pi's text, then the marker, from ${engine}`);
