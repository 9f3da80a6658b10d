// pi's find tool, answered by fscache's glob over the watched snapshot
// (see CACHE in common.js) instead of spawning fd. Same definition (name, schema,
// description, renderers) as pi's; execute reproduces the text, details
// and errors the host pi's fd-backed execute gives with fd 10: pi 0.73's or
// pi 1.x's, as host.js finds (see docs/pi-tools.md).
import { statSync } from "node:fs";
import { createFindToolDefinition, DEFAULT_MAX_BYTES, formatSize, truncateHead } from "@mariozechner/pi-coding-agent";
import { native } from "../native.js";
import { abortError, CACHE, comparePaths, isAbort, resolveAsHost, u32Cap } from "./common.js";
import { candidateOf, GlobError, globRegex, hasUppercase, parseGlob, toBytes } from "./fdglob.js";
import { hostBehaviour } from "./host.js";

const DEFAULT_LIMIT = 1000;
const DIR = 2;

function fdError(msg) {
  return new Error(`[fd error]: ${msg}`);
}

// The parsed pattern's candidate and filter, by pattern (fd's glob rules
// cost a parse and a RegExp per call otherwise).
const compiled = new Map();
const compiled1 = new Map(); // pi 1.x's, by search path and pattern
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
  remember(compiled, pattern, c);
  return c;
}

function remember(map, key, c) {
  if (map.size >= COMPILED_MAX) map.delete(map.keys().next().value);
  map.set(key, c);
}

function parseFd(glob) {
  try {
    return parseGlob(glob);
  } catch (err) {
    if (err instanceof GlobError) throw fdError(err.message);
    throw err;
  }
}

/**
 * pi 1.x's pattern (find.js of pi 1.6): a leading "./" dropped; a pattern
 * with '/' matched against the absolute path, a relative one anchored at
 * the search path (fd gets the glob-escaped search path + '/' + pattern,
 * and --ignore-case when the pattern has no upper case); one without '/'
 * against the basename. Keyed by search path too: the anchor is part of
 * the pattern fd parses (and names in its errors).
 */
function compile1(pattern, searchPath) {
  const key = `${searchPath}\0${pattern}`;
  let c = compiled1.get(key);
  if (c !== undefined) return c;
  const p = pattern.replace(/^(?:\.\/)+/, "");
  const fullPath = p.includes("/");
  if (p === "") {
    c = { fullPath, cand: { pattern: "**", exact: true }, regex: null };
  } else if (fullPath && !p.startsWith("/")) {
    const escapedRoot = searchPath.replace(/\/+$/, "").replace(/[\\*?[\]{}]/g, "\\$&");
    const toks = parseFd(`${escapedRoot}/${p}`);
    const ci = p === p.toLowerCase() || !hasUppercase(toks);
    // The anchored pattern matches root + '/' + rel exactly when rel
    // matches p as fd matches a `**/`-led pattern: the candidate is p's.
    const cand = candidateOf(parseFd(p), true, ci);
    c = { fullPath, cand, regex: cand.exact ? null : globRegex(toks, ci) };
  } else {
    const toks = parseFd(p);
    const ci = !hasUppercase(toks);
    const cand = candidateOf(toks, fullPath, ci);
    c = { fullPath, cand, regex: cand.exact ? null : globRegex(toks, ci) };
  }
  remember(compiled1, key, c);
  return c;
}

// Whether paths are in comparePaths order already (fscache's glob answers
// in walk order, which is usually that order).
function sortedByPath(matches) {
  for (let i = 1; i < matches.length; i++) if (comparePaths(matches[i - 1].path, matches[i].path) > 0) return false;
  return true;
}

/**
 * Runs one find call: the result the host pi's find returns, or throws its
 * error. cwd resolves a relative `path`. prof, when given, gets the time of
 * the fscache call and of the rest (`native`, `post`, in ms). host (host.js;
 * probed when not given) says whose find to answer as: pi 1.x's (patterns
 * anchored, a limit below 1 taken as 1, the limit reported only when a
 * result past it exists) or pi 0.73's.
 */
export async function runFind(cwd, { pattern, path: searchDir, limit }, signal, prof, host) {
  host ??= await hostBehaviour();
  const t0 = prof ? performance.now() : 0;
  if (signal?.aborted) throw abortError();
  const v1 = host.find === "1";
  const searchPath = resolveAsHost(host, searchDir || ".", cwd);
  const effectiveLimit = v1 ? Math.max(1, Math.floor(limit ?? DEFAULT_LIMIT)) : (limit ?? DEFAULT_LIMIT);
  // fd parses --max-results as an unsigned integer; 0 means no limit. pi
  // 1.x asks for one result past the limit.
  const limitArg = String(v1 ? effectiveLimit + 1 : effectiveLimit);
  if (limitArg.startsWith("-")) {
    // fd's argument parser takes "-1" for a flag
    throw new Error("error: The argument '--max-results <count>' requires a value but none was supplied\n\nFor more information try '--help'");
  }
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
  const { fullPath, cand, regex } = v1 ? compile1(String(pattern), searchPath) : compile(String(pattern));
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
      maxResults: cand.exact && maxResults > 0 ? u32Cap(maxResults) : undefined,
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
  // pi 1.x: the result past the limit only proves that the limit cut the answer
  const resultLimitReached = v1 ? matches.length > effectiveLimit : matches.length >= effectiveLimit;
  if (v1 && resultLimitReached) matches = matches.slice(0, effectiveLimit);
  const relativized = matches.map((m) => (m.fileType === DIR ? `${m.path}/` : m.path));
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
  hostBehaviour(); // probed now, at the extension's load, not on the first call
  // named, so that a session's tool can be told to be this one
  return { ...base, execute: fscacheFind };
  async function fscacheFind(toolCallId, params, signal, onUpdate, ctx) {
    const where = ctx?.cwd || cwd;
    if (off?.()) return createFindToolDefinition(where).execute(toolCallId, params, signal, onUpdate, ctx);
    return runFind(where, params, signal);
  }
}
