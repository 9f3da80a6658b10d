// pi's ls tool with the same output, from one readdir with file types:
// only symbolic links (and entries of unknown type) are stat'ed, where pi
// stats every entry. (fscache's listWorkspace and scan cache apply ignore
// rules and skip .git, node_modules and other directories, which ls lists;
// see docs/pi-tools.md.)
import { existsSync, readdirSync, statSync } from "node:fs";
import nodePath from "node:path";
import { createLsToolDefinition, DEFAULT_MAX_BYTES, formatSize, truncateHead } from "@mariozechner/pi-coding-agent";
import { abortError, resolveAsHost } from "./common.js";
import { hostBehaviour } from "./host.js";

const DEFAULT_LIMIT = 500;
const collator = new Intl.Collator(); // what String.prototype.localeCompare uses without arguments

/**
 * Runs one ls call: the result the host pi's ls returns, or throws its
 * error. prof, when given, gets its time as `post` (`native` 0: no fscache
 * call). host (host.js; probed when not given) says whose ls to answer as:
 * pi 1.x's takes a limit below 1 as 1 and drops a fraction.
 */
export async function runLs(cwd, { path, limit }, signal, prof, host) {
  host ??= await hostBehaviour();
  const t0 = prof ? performance.now() : 0;
  if (signal?.aborted) throw abortError();
  const dirPath = resolveAsHost(host, path || ".", cwd);
  const effectiveLimit = host.ls === "1" ? Math.max(1, Math.floor(limit ?? DEFAULT_LIMIT)) : (limit ?? DEFAULT_LIMIT);
  if (!existsSync(dirPath)) throw new Error(`Path not found: ${dirPath}`);
  if (!statSync(dirPath).isDirectory()) throw new Error(`Not a directory: ${dirPath}`);
  let dirents;
  try {
    dirents = readdirSync(dirPath, { withFileTypes: true });
  } catch (e) {
    throw new Error(`Cannot read directory: ${e.message}`);
  }
  // pi: entries.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()))
  const keyed = dirents.map((d) => ({ d, k: d.name.toLowerCase() }));
  keyed.sort((a, b) => collator.compare(a.k, b.k));
  const results = [];
  let entryLimitReached = false;
  for (const { d } of keyed) {
    if (results.length >= effectiveLimit) {
      entryLimitReached = true;
      break;
    }
    let isDir;
    if (d.isSymbolicLink() || !(d.isFile() || d.isDirectory() || d.isFIFO() || d.isSocket() || d.isCharacterDevice() || d.isBlockDevice())) {
      try {
        isDir = statSync(nodePath.join(dirPath, d.name)).isDirectory();
      } catch {
        continue; // pi skips entries it cannot stat
      }
    } else {
      isDir = d.isDirectory();
    }
    results.push(isDir ? `${d.name}/` : d.name);
  }
  if (signal?.aborted) throw abortError();
  if (prof) {
    prof.native = 0;
    prof.post = performance.now() - t0;
  }
  if (results.length === 0) {
    return { content: [{ type: "text", text: "(empty directory)" }], details: undefined };
  }
  const rawOutput = results.join("\n");
  const truncation = truncateHead(rawOutput, { maxLines: Number.MAX_SAFE_INTEGER });
  let output = truncation.content;
  const details = {};
  const notices = [];
  if (entryLimitReached) {
    notices.push(`${effectiveLimit} entries limit reached. Use limit=${effectiveLimit * 2} for more`);
    details.entryLimitReached = effectiveLimit;
  }
  if (truncation.truncated) {
    notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
    details.truncation = truncation;
  }
  if (notices.length > 0) output += `\n\n[${notices.join(". ")}]`;
  return {
    content: [{ type: "text", text: output }],
    details: Object.keys(details).length > 0 ? details : undefined,
  };
}

/**
 * pi's ls tool definition with execute served by fscache. options.off,
 * when given, is asked at each call: when it returns true the call is
 * answered by pi's built-in ls tool instead (the --no-fscache-ls flag).
 */
export function createLsOverride(cwd, options = {}) {
  const base = createLsToolDefinition(cwd);
  const off = options.off;
  hostBehaviour(); // probed now, at the extension's load, not on the first call
  // named, so that a session's tool can be told to be this one
  return { ...base, execute: fscacheLs };
  async function fscacheLs(toolCallId, params, signal, onUpdate, ctx) {
    const where = ctx?.cwd || cwd;
    if (off?.()) return createLsToolDefinition(where).execute(toolCallId, params, signal, onUpdate, ctx);
    return runLs(where, params, signal);
  }
}
