// build/test-dist.sh's check of the packed omp package: after
// `omp plugin install omp-fscache@file:<dist>/omp-fscache-V.tgz` into HOME,
// run by Bun from a directory where @oh-my-pi/pi-coding-agent (and its
// @oh-my-pi/pi-ai) resolve: an omp session made with omp's SDK, as
// bindings/omp-fscache/test/hosts/harness.ts makes them (pi-ai's mock
// provider as the model, omp's plugin discovery, omp's default settings),
// where the model reads hello.txt twice. The first answer is omp's own
// (`[hello.txt#TAG]`, then its rows), the second the marker under the same
// header; the extension omp loaded is the installed copy, and the engine in
// this process (its addon and libfscache, from /proc/self/maps) is the
// fscache-native bundled in it: no checkout on the way.
//
//   bun omp-fscache-smoke.mjs
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createMockModel, registerMockApi } from "@oh-my-pi/pi-ai/providers/mock";
import { createAgentSession, discoverAuthStorage, SessionManager } from "@oh-my-pi/pi-coding-agent";

registerMockApi();
// (read before the session: after it, omp's process hooks make Bun.resolveSync misbehave)
const agentVersion = JSON.parse(fs.readFileSync(path.join(process.cwd(), "node_modules/@oh-my-pi/pi-coding-agent/package.json"), "utf8")).version;
const home = process.env.HOME;
const pkgDir = path.join(home, ".omp", "plugins", "node_modules", "omp-fscache");
if (!fs.lstatSync(pkgDir).isDirectory()) throw new Error(`${pkgDir} is not a directory (a link to a checkout?)`);
const bundled = path.join(fs.realpathSync(pkgDir), "node_modules", "fscache-native");

const cwd = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "omp-fscache-smoke-")));
fs.writeFileSync(path.join(cwd, "hello.txt"), "hello\nworld\n");
const agentDir = path.join(home, ".omp", "agent");
fs.mkdirSync(agentDir, { recursive: true });
const authStorage = await discoverAuthStorage(agentDir);
authStorage.setRuntimeApiKey("mock", "mock-key");

const results = [];
let calls = 0;
const mock = createMockModel({
  contextWindow: 200_000,
  handler: (context) => {
    // A request without tools (a title, a summary) is not the session's.
    if (!(context.tools ?? []).some((t) => t.name === "read")) return { content: ["summary"] };
    const last = context.messages.at(-1);
    if (last?.role === "toolResult") results.push(last.content?.map((c) => c.text ?? "").join("") ?? "");
    if (calls === 2) return { content: ["done"] };
    calls++;
    return { content: [{ type: "toolCall", id: `t${calls}`, name: "read", arguments: { path: "hello.txt" } }] };
  },
});
const { session } = await createAgentSession({
  cwd,
  agentDir,
  model: mock.model,
  authStorage,
  sessionManager: SessionManager.inMemory(cwd),
  enableMCP: false,
  enableLsp: false,
  hasUI: false,
  skipPythonPreflight: true,
  toolNames: ["read", "edit"],
});
const runner = session.extensionRunner ?? session._extensionRunner;
const loaded = (runner?.extensions ?? runner?.getExtensions?.() ?? []).map((e) => e.path ?? e.resolvedPath).filter(Boolean);
if (!loaded.some((p) => fs.realpathSync(p).startsWith(fs.realpathSync(pkgDir) + path.sep)))
  throw new Error(`omp loaded no extension from ${pkgDir}: ${JSON.stringify(loaded)}`);
await session.prompt("read hello.txt twice");
await session.dispose?.();
fs.rmSync(cwd, { recursive: true, force: true });

if (results.length !== 2) throw new Error(`${results.length} read results, not 2: ${JSON.stringify(results)}`);
const header = results[0].match(/^\[hello\.txt#[0-9A-F]{4}\]\n/)?.[0];
if (!header || !results[0].includes("1:hello\n2:world")) throw new Error(`first read is not omp's: ${JSON.stringify(results[0])}`);
if (!results[1].startsWith(`${header}[fscache: unchanged`)) throw new Error(`reread is not the marker under ${JSON.stringify(header)}: ${JSON.stringify(results[1])}`);

// Every fscache binary mapped into this process is the bundled one.
const mapped = [...new Set(fs.readFileSync("/proc/self/maps", "utf8").split("\n").map((l) => l.split(/\s+/).slice(5).join(" ")).filter((p) => /fscache/.test(path.basename(p))))];
if (!mapped.some((p) => p.endsWith(".node")) || !mapped.some((p) => /libfscache\.so/.test(p))) throw new Error(`the engine is not loaded: ${JSON.stringify(mapped)}`);
const stray = mapped.filter((p) => !p.startsWith(path.dirname(bundled) + path.sep));
if (stray.length) throw new Error(`fscache loaded from outside ${path.dirname(bundled)}: ${stray.join(", ")}`);
console.log(`omp-fscache packed, in omp ${agentVersion}: omp's read, then ${JSON.stringify(results[1].split("\n").slice(0, 2).join("\n"))}; engine ${mapped.join(", ")}`);
process.exit(0);
