// The pi line the suites run against (issue 43): PI_LINE=1 is pi 1.x
// (@earendil-works/pi-coding-agent 1.6.0 pinned, on Node >= 22.19, with
// test/pi1-aliases.mjs imported first, as `make test-pi` runs it); anything
// else is pi 0.73 (@mariozechner/pi-coding-agent 0.73.1, on Node 20, with
// test/hosts.mjs imported first). Both hosts are installed in test/hosts/,
// never in the package's node_modules (test/hosts-resolve.mjs). The
// tests import pi from here, never by a scope's name, so each runs on both.
//
// What differs between the lines' SDKs is kept here: the agent session's
// model set-up (0.73: AuthStorage + ModelRegistry and registerFauxProvider;
// 1.x: ModelRuntime and pi-ai's fauxProvider() registered on it with
// registerNativeProvider) and the path of pi's CLI.
import path from "node:path";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** "1" (pi 1.x) or "0.73". */
export const LINE = process.env.PI_LINE === "1" ? "1" : "0.73";
/** The coding agent's package name on this line. */
export const PI_PACKAGE = LINE === "1" ? "@earendil-works/pi-coding-agent" : "@mariozechner/pi-coding-agent";
/** The version pinned for this line (test/hosts/package.json). */
export const PI_VERSION = LINE === "1" ? "1.6.0" : "0.73.1";

if (LINE === "1" && !process.execArgv.some((a) => a.includes("pi1-aliases"))) {
  throw new Error("PI_LINE=1: run node with --import ./test/pi1-aliases.mjs (make test-pi does), so that the package's imports resolve to pi 1.x as pi's loader maps them");
}
if (LINE !== "1" && !process.execArgv.some((a) => a.includes("hosts.mjs"))) {
  throw new Error("run node with --import ./test/hosts.mjs (make test-pi does): pi and the other test hosts live in test/hosts/ (make pi-deps installs them), outside the package's node_modules");
}

/** The coding agent (createAgentSession, SessionManager, the tool definitions, ...). */
export const pi = await import(PI_PACKAGE);
/** pi-ai: on 1.x its compat entry, the view pi's loader gives extensions. */
export const piAi = await import(LINE === "1" ? "@earendil-works/pi-ai/compat" : "@mariozechner/pi-ai");

/** The directory of this line's coding-agent package (its exports list no package.json). */
export const PI_DIR = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.resolve(PI_PACKAGE)));
  while (!existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir);
  return dir;
})();

/** [executable, ...args] that run this line's pi CLI on this Node. */
export function piCommand(...args) {
  const bin = JSON.parse(readFileSync(path.join(PI_DIR, "package.json"), "utf8")).bin.pi;
  return [process.execPath, path.join(PI_DIR, bin), ...args];
}

/**
 * An agent session scripted by pi-ai's faux provider, on this line's SDK.
 * opts: { provider, models, cwd, agentDir, settingsManager, resourceLoader, sessionManager },
 * and any other createAgentSession option (tools, ...), passed on.
 * Returns { session, faux } (faux.setResponses, faux.getModel); both are
 * disposed/unregistered when t ends.
 */
export async function createFauxSession(t, opts) {
  const { provider, models, ...rest } = opts;
  const { agentDir } = rest;
  let faux;
  let created;
  if (LINE === "1") {
    faux = piAi.fauxProvider({ provider, models });
    const modelRuntime = await pi.ModelRuntime.create({ authPath: path.join(agentDir, "auth.json"), modelsPath: path.join(agentDir, "models.json") });
    modelRuntime.registerNativeProvider(faux.provider);
    await modelRuntime.setRuntimeApiKey(provider, "unused");
    created = await pi.createAgentSession({ ...rest, model: faux.getModel(), modelRuntime });
  } else {
    faux = piAi.registerFauxProvider({ provider, models });
    t.after(() => faux.unregister());
    const authStorage = pi.AuthStorage.inMemory();
    authStorage.setRuntimeApiKey(provider, "unused");
    const modelRegistry = pi.ModelRegistry.create(authStorage, path.join(agentDir, "models.json"));
    created = await pi.createAgentSession({ ...rest, model: faux.getModel(), authStorage, modelRegistry });
  }
  t.after(() => created.session.dispose());
  return { session: created.session, faux };
}

/**
 * Whether a faux provider's request is a compaction's summary request
 * (pi's summarization system prompt, on either line: 1.x normalizes the
 * context, so the prompt is looked for anywhere in it).
 */
export function isSummaryRequest(context) {
  if (/summariz/i.test(typeof context?.systemPrompt === "string" ? context.systemPrompt : "")) return true;
  return JSON.stringify(context ?? null).includes("context summarization assistant");
}

/** The engine's lineCount for this line's read: "lines" on 1.x, "split" on 0.73. */
export const LINE_COUNT = LINE === "1" ? "lines" : "split";

/**
 * A file's line total as this line's read counts it in markers, diff
 * headers and details.truncation: text.split("\n").length on 0.73; on 1.x
 * a trailing newline ends the last line instead of starting another.
 */
export function lineTotal(text) {
  const n = text.split("\n").length;
  return LINE === "1" && text.endsWith("\n") ? n - 1 : n;
}

/** lineTotal of a file ending in "\n" whose split count is n (0.73's count). */
export function linesOf(n) {
  return LINE === "1" ? n - 1 : n;
}
