// pi's find tool, answered by fscache's glob over the watched snapshot
// (see CACHE in common.js) instead of spawning fd. Same definition (name, schema,
// description, renderers) as pi's; execute reproduces the text, details
// and errors pi's fd-backed execute gives with fd 10 (see docs/pi-tools.md).
import { statSync } from "node:fs";
import { createFindToolDefinition, DEFAULT_MAX_BYTES, formatSize, truncateHead } from "@mariozechner/pi-coding-agent";
import { native } from "../native.js";
import { abortError, CACHE, comparePaths, isAbort, resolveToCwd } from "./common.js";
import { candidateOf, GlobError, globRegex, hasUppercase, parseGlob, toBytes } from "./fdglob.js";

const DEFAULT_LIMIT = 1000;
const DIR = 2;

function fdError(msg) {
  return new Error(`[fd error]: ${msg}`);
}

// The parsed pattern's candidate and filter, by pattern (fd's glob rules
// cost a parse and a RegExp per call otherwise).
const compiled = new Map();
const COMPILED_MAX = 256;

function compile(pattern) {
  let c = compiled.get(pattern);
  if (c !== undefined) return c;
  const fullPath = pattern.includes("/");
  let effectivePattern = pattern;
  if (fullPath && !pattern.startsWith("/") && !pattern.startsWith("**/") && pattern !== "**") {
    effectivePattern = `**/${pattern}`;
  }
  if (pattern === "") {
    c = { fullPath, cand: { pattern: "**", exact: true }, regex: null }; // fd: an empty pattern matches everything
  } else {
    let toks;
    try {
      toks = parseGlob(effectivePattern);
    } catch (err) {
      if (err instanceof GlobError) throw fdError(err.message);
      throw err;
    }
    const ci = !hasUppercase(toks);
    const cand = candidateOf(toks, fullPath, ci);
    c = { fullPath, cand, regex: cand.exact ? null : globRegex(toks, ci) };
  }
  if (compiled.size >= COMPILED_MAX) compiled.delete(compiled.keys().next().value);
  compiled.set(pattern, c);
  return c;
}

// Whether paths are in comparePaths order already (fscache's glob answers
// in walk order, which is usually that order).
function sortedByPath(matches) {
  for (let i = 1; i < matches.length; i++) if (comparePaths(matches[i - 1].path, matches[i].path) > 0) return false;
  return true;
}

/**
 * Runs one find call: the result pi's find returns, or throws its error.
 * cwd resolves a relative `path`. prof, when given, gets the time of the
 * fscache call and of the rest (`native`, `post`, in ms).
 */
export async function runFind(cwd, { pattern, path: searchDir, limit }, signal, prof) {
  const t0 = prof ? performance.now() : 0;
  if (signal?.aborted) throw abortError();
  const searchPath = resolveToCwd(searchDir || ".", cwd);
  const effectiveLimit = limit ?? DEFAULT_LIMIT;
  // fd parses --max-results as an unsigned integer; 0 means no limit.
  const limitArg = String(effectiveLimit);
  if (!/^\d+$/.test(limitArg)) {
    throw new Error(`error: Invalid value '${limitArg}' for '--max-results <count>': invalid digit found in string\n\nFor more information try '--help'`);
  }
  const maxResults = Number(limitArg);
  let isDir = false;
  try {
    isDir = statSync(searchPath).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) {
    throw new Error(`[fd error]: Search path '${searchPath}' is not a directory.\n[fd error]: No valid search paths given.`);
  }
  const { fullPath, cand, regex } = compile(String(pattern));
  let res;
  const t1 = prof ? performance.now() : 0;
  try {
    res = await native.glob({
      pattern: cand.pattern,
      path: searchPath,
      hidden: true,
      gitignore: true,
      includeNodeModules: true,
      cache: CACHE,
      maxResults: cand.exact && maxResults > 0 ? maxResults : undefined,
      signal: signal ?? undefined,
    });
  } catch (err) {
    if (isAbort(err, signal)) throw abortError();
    throw err;
  }
  const t2 = prof ? performance.now() : 0;
  if (signal?.aborted) throw abortError();
  let matches = res.matches;
  if (regex) {
    const prefix = searchPath.endsWith("/") ? searchPath : `${searchPath}/`;
    matches = matches.filter((m) => {
      if (fullPath) return regex.test(toBytes(prefix + m.path));
      const slash = m.path.lastIndexOf("/");
      return regex.test(toBytes(slash < 0 ? m.path : m.path.slice(slash + 1)));
    });
  }
  if (matches.length === 0) {
    if (prof) {
      prof.native = t2 - t1;
      prof.post = performance.now() - t0 - prof.native;
    }
    return { content: [{ type: "text", text: "No files found matching pattern" }], details: undefined };
  }
  if (!sortedByPath(matches)) matches.sort((a, b) => comparePaths(a.path, b.path));
  if (maxResults > 0 && matches.length > maxResults) matches = matches.slice(0, maxResults);
  const relativized = matches.map((m) => (m.fileType === DIR ? `${m.path}/` : m.path));
  const resultLimitReached = relativized.length >= effectiveLimit;
  const rawOutput = relativized.join("\n");
  const truncation = truncateHead(rawOutput, { maxLines: Number.MAX_SAFE_INTEGER });
  let resultOutput = truncation.content;
  const details = {};
  const notices = [];
  if (resultLimitReached) {
    notices.push(`${effectiveLimit} results limit reached. Use limit=${effectiveLimit * 2} for more, or refine pattern`);
    details.resultLimitReached = effectiveLimit;
  }
  if (truncation.truncated) {
    notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
    details.truncation = truncation;
  }
  if (notices.length > 0) resultOutput += `\n\n[${notices.join(". ")}]`;
  if (prof) {
    prof.native = t2 - t1;
    prof.post = performance.now() - t0 - prof.native;
  }
  return {
    content: [{ type: "text", text: resultOutput }],
    details: Object.keys(details).length > 0 ? details : undefined,
  };
}

/**
 * pi's find tool definition with execute served by fscache. options.off,
 * when given, is asked at each call: when it returns true the call is
 * answered by pi's built-in find tool instead (the --no-fscache-find flag).
 */
export function createFindOverride(cwd, options = {}) {
  const base = createFindToolDefinition(cwd);
  const off = options.off;
  // named, so that a session's tool can be told to be this one
  return { ...base, execute: fscacheFind };
  async function fscacheFind(toolCallId, params, signal, onUpdate, ctx) {
    const where = ctx?.cwd ?? cwd;
    if (off?.()) return createFindToolDefinition(where).execute(toolCallId, params, signal, onUpdate, ctx);
    return runFind(where, params, signal);
  }
}
