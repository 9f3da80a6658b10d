// build/test-dist.sh's check of the packed pi package: installed beside pi
// from the npm registry, it registers its tools, its read answers a reread
// of an unchanged file with the marker, and the engine is the installed
// fscache-native (no checkout on the way). Run in the test project's
// directory, which holds hello.txt ("hello\nworld\n").
import { createRequire } from "node:module";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import piFscache from "pi-fscache";

const tools = new Map();
const pi = { registerTool: (t) => tools.set(t.name, t), registerCommand() {}, registerFlag() {}, getFlag: () => false, on() {}, appendEntry() {} };
piFscache(pi);
for (const name of ["read", "find", "grep", "ls", "readcache_refresh"]) {
  if (!tools.has(name)) throw new Error(`pi-fscache registered no ${name} tool`);
}
const sm = SessionManager.inMemory(process.cwd());
const ctx = { cwd: process.cwd(), sessionManager: sm, ui: { notify() {} } };
let n = 0;
async function read() {
  const id = `c${++n}`;
  const r = await tools.get("read").execute(id, { path: "hello.txt" }, undefined, undefined, ctx);
  sm.appendMessage({ role: "toolResult", toolCallId: id, toolName: "read", content: r.content, details: r.details, isError: false, timestamp: Date.now() });
  return r.content[0].text;
}
const first = await read();
const again = await read();
if (first !== "hello\nworld\n") throw new Error(`first read: ${JSON.stringify(first)}`);
if (again !== "[readcache: unchanged, 3 lines]") throw new Error(`reread: ${JSON.stringify(again)}`);
const engine = createRequire(import.meta.url).resolve("fscache-native");
if (!engine.includes("/node_modules/fscache-native/")) throw new Error(`the engine came from ${engine}`);
console.log(`pi-fscache packed: pi's text, then the marker, from ${engine}`);
