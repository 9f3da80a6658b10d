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

/** Registers the overrides that are on, and the cache refresh after pi's write and edit. */
export default function registerTools(pi, env = process.env) {
  const on = enabledTools(env);
  const cwd = process.cwd();
  if (on.find) pi.registerTool(createFindOverride(cwd));
  if (on.grep) pi.registerTool(createGrepOverride(cwd));
  if (on.ls) pi.registerTool(createLsOverride(cwd));
  if (on.find || on.grep) {
    // Watched scans are current without this (inotify), but a root on the
    // TTL policy (no watcher: other platforms, network file systems, watch
    // limits) would serve a stale scan for up to its TTL.
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
