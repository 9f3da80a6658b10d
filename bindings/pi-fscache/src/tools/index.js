// pi's find, grep and ls served by fscache (issue 36): overrides registered
// under the built-in tools' names, with their definitions (schema,
// description, prompt snippet, renderers) and execute functions that give
// the built-ins' text, details and errors. docs/pi-tools.md describes them,
// their switches and the differences from the built-ins.
import { native } from "../native.js";
import { resolveToCwd } from "./common.js";
import { createFindOverride } from "./find.js";
import { createGrepOverride } from "./grep.js";
import { createLsOverride } from "./ls.js";

const OFF = new Set(["0", "false", "off", "no"]);

function off(name, env) {
  const v = env[name];
  return v !== undefined && OFF.has(String(v).trim().toLowerCase());
}

/**
 * Which overrides are on: PI_FSCACHE_TOOLS=0 turns all three off,
 * PI_FSCACHE_FIND=0, PI_FSCACHE_GREP=0 and PI_FSCACHE_LS=0 one each.
 */
export function enabledTools(env = process.env) {
  if (off("PI_FSCACHE_TOOLS", env)) return { find: false, grep: false, ls: false };
  return { find: !off("PI_FSCACHE_FIND", env), grep: !off("PI_FSCACHE_GREP", env), ls: !off("PI_FSCACHE_LS", env) };
}

/** pi's CLI flags that hand a tool back to pi's built-in, per call. */
export const FLAGS = {
  tools: "no-fscache-tools",
  find: "no-fscache-find",
  grep: "no-fscache-grep",
  ls: "no-fscache-ls",
};

const FLAG_HELP = {
  tools: "answer find, grep and ls with pi's built-in tools (fd, rg) instead of fscache",
  find: "answer find with pi's built-in tool (fd) instead of fscache",
  grep: "answer grep with pi's built-in tool (rg) instead of fscache",
  ls: "answer ls with pi's built-in tool instead of pi-fscache's",
};

/**
 * Registers the overrides that the environment leaves on, pi's flags that
 * turn them off per session (pi 0.73.1 has no settings an extension can
 * read; see docs/pi-tools.md), and the cache refresh after pi's write and
 * edit.
 */
export default function registerTools(pi, env = process.env) {
  const on = enabledTools(env);
  const cwd = process.cwd();
  const canFlag = typeof pi.registerFlag === "function";
  const flagged = (name) => {
    try {
      return typeof pi.getFlag === "function" && pi.getFlag(name) === true;
    } catch {
      return false;
    }
  };
  const offFor = (tool) => () => flagged(FLAGS.tools) || flagged(FLAGS[tool]);
  if (canFlag && (on.find || on.grep || on.ls)) {
    pi.registerFlag(FLAGS.tools, { description: FLAG_HELP.tools, type: "boolean", default: false });
  }
  for (const [tool, create] of [
    ["find", createFindOverride],
    ["grep", createGrepOverride],
    ["ls", createLsOverride],
  ]) {
    if (!on[tool]) continue;
    if (canFlag) pi.registerFlag(FLAGS[tool], { description: FLAG_HELP[tool], type: "boolean", default: false });
    pi.registerTool(create(cwd, { off: offFor(tool) }));
  }
  if (on.find || on.grep) {
    // Not needed for current answers: the overrides call fscache without
    // `cache` (common.js), answered from a watched scan, current as of the
    // call, or by a walk. This brings the watched scan up to date at once,
    // and makes grep's index saved on disk distrust the file (a write
    // through a shared mapping can leave its mtime behind).
    pi.on("tool_result", (event, ctx) => {
      if (event.toolName !== "write" && event.toolName !== "edit") return;
      const p = event.input?.path;
      if (typeof p !== "string" || p === "") return;
      try {
        native.invalidateFsScanCache(resolveToCwd(p, ctx?.cwd ?? cwd));
      } catch {
        // a refresh that fails leaves the scan to its watcher or TTL
      }
    });
  }
}
