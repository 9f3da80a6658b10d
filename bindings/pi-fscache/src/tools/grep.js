// pi's grep tool, answered by fscache's grep (the scan cache and its
// trigram index) instead of spawning rg. Same definition as pi's; execute
// formats lines as the host pi's rg-backed execute does. pi 0.73: the match
// line's text as rg reports it (the raw line, every '\r' removed), or with
// context the blocks pi cuts from the file itself (one per match,
// overlapping blocks repeated). pi 1.x (host.js): every line as rg reports
// it, only its line ending removed, context as rg gives it (each line once).
import { statSync } from "node:fs";
import path from "node:path";
import {
  createGrepToolDefinition,
  DEFAULT_MAX_BYTES,
  formatSize,
  truncateHead,
  truncateLine,
} from "@mariozechner/pi-coding-agent";
import { native } from "../native.js";
import { abortError, CACHE, isAbort, resolveAsHost, u32Cap } from "./common.js";
import { GlobError, globRegex, parseGlob, toBytes } from "./fdglob.js";
import { hostBehaviour } from "./host.js";
import { LineFileCache } from "./linefiles.js";

const DEFAULT_LIMIT = 100;
const GREP_MAX_LINE_LENGTH = 500;

// Rust regex's escape set (regex::escape), for `literal`.
function escapeRegex(s) {
  return s.replace(/[\\.+*?()|[\]{}^$#&\-~]/g, "\\$&");
}

/**
 * rg's "unclosed group" / "unopened group" errors, which fscache's grep
 * answers with no matches (its fallback engine). Returns rg's message or
 * null. Skips escapes and character classes (Rust's nested classes too).
 */
export function groupError(pattern) {
  const opens = [];
  const chars = Array.from(pattern);
  let col = 0; // in chars, as rg's caret counts
  for (let i = 0; i < chars.length; i++, col++) {
    const c = chars[i];
    if (c === "\\") {
      i++;
      col++;
      continue;
    }
    if (c === "[") {
      let depth = 1;
      let j = i + 1;
      if (chars[j] === "^") j++;
      if (chars[j] === "]") j++;
      for (; j < chars.length && depth > 0; j++) {
        if (chars[j] === "\\") j++;
        else if (chars[j] === "[") depth++;
        else if (chars[j] === "]") depth--;
      }
      if (depth > 0) return null; // unclosed class: fscache reports it
      col += j - 1 - i;
      i = j - 1;
      continue;
    }
    if (c === "(") opens.push(col);
    else if (c === ")") {
      if (opens.length === 0) return rgParseError(pattern, col, "unopened group");
      opens.pop();
    }
  }
  if (opens.length > 0) return rgParseError(pattern, opens[opens.length - 1], "unclosed group");
  return null;
}

function rgParseError(pattern, col, msg) {
  return `regex parse error:\n    ${pattern}\n    ${" ".repeat(col)}^\nerror: ${msg}`;
}

// fscache reports a parse error of `(?:pattern)`; rg of `pattern`.
function rgRegexMessage(message, pattern) {
  let m = message.replace(/^Regex error: /, "");
  const lines = m.split("\n");
  if (lines[0] === "regex parse error:" && lines[1] === `    (?:${pattern})` && lines.length >= 4) {
    lines[1] = `    ${pattern}`;
    lines[2] = lines[2].replace(/^ {7}/, "    ").replace(/\^+$/, (carets) => {
      const start = lines[2].indexOf("^") - 7;
      return carets.slice(0, Math.max(1, Math.min(carets.length, Array.from(pattern).length - start)));
    });
    m = lines.join("\n");
  }
  return m;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

// The text of bytes that are valid UTF-8, else null (rg reports such a
// line as bytes, and pi then cuts it from the file decoded as a whole).
function decodeUtf8(buf) {
  try {
    return utf8.decode(buf);
  } catch {
    return null;
  }
}

/** The files grep's lines are cut from, kept between calls (linefiles.js). */
export const fileCache = new LineFileCache();

/**
 * Runs one grep call: the result the host pi's grep returns, or throws its
 * error. prof, when given, gets the time of the fscache call and of the
 * rest (`native`, `post`, in ms). host (host.js; probed when not given) says
 * whose grep to answer as, pi 1.x's or pi 0.73's.
 */
export async function runGrep(cwd, { pattern, path: searchDir, glob, ignoreCase, literal, context, limit }, signal, prof, host) {
  host ??= await hostBehaviour();
  const t0 = prof ? performance.now() : 0;
  if (signal?.aborted) throw abortError();
  const v1 = host.grep === "1";
  const searchPath = resolveAsHost(host, searchDir || ".", cwd);
  let isDirectory;
  try {
    isDirectory = statSync(searchPath).isDirectory();
  } catch {
    throw new Error(`Path not found: ${searchPath}`);
  }
  let contextValue = context && context > 0 ? context : 0;
  let effectiveLimit = Math.max(1, limit ?? DEFAULT_LIMIT);
  if (v1) ({ contextValue, effectiveLimit, glob } = grepArgs1(context, limit, glob));
  // rg's `--glob '!x'` excludes what x matches (a basename when x has no
  // '/'); fscache's glob only selects, so the exclusion is applied here.
  let exclude = null;
  if (glob) {
    try {
      const toks = parseGlob(glob.startsWith("!") ? glob.slice(1) : glob);
      if (glob.startsWith("!")) exclude = { re: globRegex(toks, false), base: !glob.includes("/") };
    } catch (err) {
      if (err instanceof GlobError) throw new Error(err.message);
      throw err;
    }
  }
  pattern = String(pattern);
  if (!literal) {
    const ge = groupError(pattern);
    if (ge) throw new Error(ge);
  }
  let res;
  const t1 = prof ? performance.now() : 0;
  try {
    res = await native.grep({
      pattern: literal ? escapeRegex(pattern) : pattern,
      path: searchPath,
      glob: exclude ? undefined : glob || undefined,
      ignoreCase: Boolean(ignoreCase),
      hidden: true,
      gitignore: true,
      cache: CACHE,
      // pi 1.x: one match past the limit proves that the limit cut the answer
      maxCount: exclude ? undefined : u32Cap(v1 ? effectiveLimit + 1 : Math.ceil(effectiveLimit)),
      maxColumns: 4, // the text is read from the file, as rg reports it
      signal: signal ?? undefined,
    });
  } catch (err) {
    if (isAbort(err, signal)) throw abortError();
    if (err && err.code === "invalid_regex") throw new Error(rgRegexMessage(err.message, pattern));
    throw err;
  }
  const t2 = prof ? performance.now() : 0;
  if (signal?.aborted) throw abortError();
  let matches = res.matches;
  if (exclude) {
    matches = matches.filter((m) => !exclude.re.test(toBytes(exclude.base ? path.basename(m.path) : m.path)));
  }
  if (matches.length === 0) {
    if (prof) {
      prof.native = t2 - t1;
      prof.post = performance.now() - t0 - prof.native;
    }
    return { content: [{ type: "text", text: "No matches found" }], details: undefined };
  }
  if (v1) {
    const r = formatGrep1(matches, searchPath, isDirectory, contextValue, effectiveLimit);
    if (prof) {
      prof.native = t2 - t1;
      prof.post = performance.now() - t0 - prof.native;
    }
    return r;
  }
  const matchLimitReached = matches.length >= effectiveLimit;
  let linesTruncated = false;
  const outputLines = [];
  const files = new Map(); // absolute path -> its bytes and lines (lineFiles.js), or null
  const fileOf = (abs) => {
    let f = files.get(abs);
    if (f === undefined) {
      f = fileCache.get(abs);
      files.set(abs, f);
    }
    return f;
  };
  const formatPath = (rel, abs) => {
    if (isDirectory && rel && !rel.startsWith("..")) return rel;
    return path.basename(abs);
  };
  const formatBlock = (relativePath, f, lineNumber) => {
    const lines = f === null ? [] : f.lines();
    if (!lines.length) return [`${relativePath}:${lineNumber}: (unable to read file)`];
    const block = [];
    const start = contextValue > 0 ? Math.max(1, lineNumber - contextValue) : lineNumber;
    const end = contextValue > 0 ? Math.min(lines.length, lineNumber + contextValue) : lineNumber;
    for (let current = start; current <= end; current++) {
      const lineText = lines[current - 1] ?? "";
      const sanitized = lineText.replace(/\r/g, "");
      const { text, wasTruncated } = truncateLine(sanitized);
      if (wasTruncated) linesTruncated = true;
      if (current === lineNumber) block.push(`${relativePath}:${current}: ${text}`);
      else block.push(`${relativePath}-${current}- ${text}`);
    }
    return block;
  };
  const limitCount = Math.ceil(effectiveLimit);
  // A file's matches are adjacent: its path and bytes are looked up once.
  let lastPath, relativePath, f;
  for (const m of matches.slice(0, limitCount)) {
    if (m.path !== lastPath) {
      lastPath = m.path;
      const abs = isDirectory ? path.join(searchPath, m.path) : m.path;
      relativePath = formatPath(isDirectory ? m.path : "", abs);
      f = fileOf(abs);
    }
    if (contextValue === 0 && f !== null) {
      const raw = f.rawLine(m.lineNumber);
      const str = raw === null ? null : decodeUtf8(raw);
      if (str !== null) {
        const sanitized = str.indexOf("\r") < 0 ? str : str.replace(/\r/g, "");
        const { text, wasTruncated } = truncateLine(sanitized);
        if (wasTruncated) linesTruncated = true;
        outputLines.push(`${relativePath}:${m.lineNumber}: ${text}`);
        continue;
      }
    }
    outputLines.push(...formatBlock(relativePath, f, m.lineNumber));
  }
  const rawOutput = outputLines.join("\n");
  const truncation = truncateHead(rawOutput, { maxLines: Number.MAX_SAFE_INTEGER });
  let output = truncation.content;
  const details = {};
  const notices = [];
  if (matchLimitReached) {
    notices.push(`${effectiveLimit} matches limit reached. Use limit=${effectiveLimit * 2} for more, or refine pattern`);
    details.matchLimitReached = effectiveLimit;
  }
  if (truncation.truncated) {
    notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
    details.truncation = truncation;
  }
  if (linesTruncated) {
    notices.push(`Some lines truncated to ${GREP_MAX_LINE_LENGTH} chars. Use read tool to see full lines`);
    details.linesTruncated = true;
  }
  if (notices.length > 0) output += `\n\n[${notices.join(". ")}]`;
  if (prof) {
    prof.native = t2 - t1;
    prof.post = performance.now() - t0 - prof.native;
  }
  return {
    content: [{ type: "text", text: output }],
    details: Object.keys(details).length > 0 ? details : undefined,
  };
}

// ---- pi 1.x's grep (grep.js of pi 1.6) ------------------------------------

/**
 * pi 1.x's context, limit and glob: context and limit floored (context at
 * most 2^53 - 1, the limit at least 1), a leading "./" dropped from the
 * glob (after a '!').
 */
function grepArgs1(context, limit, glob) {
  return {
    contextValue: context && context > 0 ? Math.min(Math.floor(context), Number.MAX_SAFE_INTEGER) : 0,
    effectiveLimit: Math.max(1, Math.floor(limit ?? DEFAULT_LIMIT)),
    glob: glob ? glob.replace(/^(!?)(?:\.\/)+/, "$1") : glob,
  };
}

// The number of lines rg numbers in a file: a last line without '\n'
// counts, the empty rest after a final '\n' does not.
const lineCounts = new WeakMap();
function lineCount(f) {
  let n = lineCounts.get(f);
  if (n !== undefined) return n;
  const buf = f.buf;
  n = 0;
  for (let i = buf.indexOf(10); i >= 0; i = buf.indexOf(10, i + 1)) n++;
  if (buf.length > 0 && buf[buf.length - 1] !== 10) n++;
  lineCounts.set(f, n);
  return n;
}

// A line as pi 1.x prints it: rg's text of the line (its bytes as UTF-8,
// invalid sequences replaced, as pi decodes rg's base64 `bytes`), only the
// line ending removed: a lone '\r' inside the line is kept.
function lineText1(f, n) {
  const raw = f.rawLine(n);
  if (raw === null) return "";
  const str = raw.toString("utf8");
  return str.endsWith("\r") ? str.slice(0, -1) : str;
}

/**
 * pi 1.x's output for fscache's matches (in path order, one past the limit
 * at most): the first `limit` matches, with context as rg --context gives
 * it: each file's lines within `context` of a match, each once, a match
 * line marked ':'. Lines after the last match kept (its trailing context)
 * are all context lines, a further match among them too, as pi prints
 * them; the limit is reported when a match past it exists.
 */
function formatGrep1(matches, searchPath, isDirectory, contextValue, effectiveLimit) {
  const matchLimitReached = matches.length > effectiveLimit;
  const kept = matchLimitReached ? matches.slice(0, effectiveLimit) : matches;
  let linesTruncated = false;
  const outputLines = [];
  const push = (relativePath, n, text, isMatch) => {
    const { text: t, wasTruncated } = truncateLine(text);
    if (wasTruncated) linesTruncated = true;
    outputLines.push(isMatch ? `${relativePath}:${n}: ${t}` : `${relativePath}-${n}- ${t}`);
  };
  const files = new Map();
  for (let i = 0; i < kept.length; ) {
    // a file's matches are adjacent, in line order
    let j = i + 1;
    while (j < kept.length && kept[j].path === kept[i].path) j++;
    const abs = isDirectory ? path.join(searchPath, kept[i].path) : kept[i].path;
    const relativePath = isDirectory && kept[i].path && !kept[i].path.startsWith("..") ? kept[i].path : path.basename(abs);
    let f = files.get(abs);
    if (f === undefined) {
      f = fileCache.get(abs);
      files.set(abs, f);
    }
    if (f === null) {
      for (let k = i; k < j; k++) outputLines.push(`${relativePath}:${kept[k].lineNumber}: (unable to read file)`);
    } else if (contextValue === 0) {
      for (let k = i; k < j; k++) push(relativePath, kept[k].lineNumber, lineText1(f, kept[k].lineNumber), true);
    } else {
      const total = lineCount(f);
      const isMatch = new Set();
      for (let k = i; k < j; k++) isMatch.add(kept[k].lineNumber);
      let done = 0; // the last line printed
      for (let k = i; k < j; k++) {
        const n = kept[k].lineNumber;
        const from = Math.max(done + 1, n - contextValue, 1);
        const to = Math.max(Math.min(total, n + contextValue), n);
        for (let line = from; line <= to; line++) push(relativePath, line, lineText1(f, line), isMatch.has(line));
        done = Math.max(done, to);
      }
    }
    i = j;
  }
  const rawOutput = outputLines.join("\n");
  const truncation = truncateHead(rawOutput, { maxLines: Number.MAX_SAFE_INTEGER });
  let output = truncation.content;
  const details = {};
  const notices = [];
  if (matchLimitReached) {
    notices.push(`${effectiveLimit} matches limit reached. Use limit=${effectiveLimit * 2} for more, or refine pattern`);
    details.matchLimitReached = effectiveLimit;
  }
  if (truncation.truncated) {
    notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
    details.truncation = truncation;
  }
  if (linesTruncated) {
    notices.push(`Some lines truncated to ${GREP_MAX_LINE_LENGTH} chars. Use read tool to see full lines`);
    details.linesTruncated = true;
  }
  if (notices.length > 0) output += `\n\n[${notices.join(". ")}]`;
  return {
    content: [{ type: "text", text: output }],
    details: Object.keys(details).length > 0 ? details : undefined,
  };
}

/**
 * pi's grep tool definition with execute served by fscache. options.off,
 * when given, is asked at each call: when it returns true the call is
 * answered by pi's built-in grep tool instead (the --no-fscache-grep flag).
 */
export function createGrepOverride(cwd, options = {}) {
  const base = createGrepToolDefinition(cwd);
  const off = options.off;
  hostBehaviour(); // probed now, at the extension's load, not on the first call
  // named, so that a session's tool can be told to be this one
  return { ...base, execute: fscacheGrep };
  async function fscacheGrep(toolCallId, params, signal, onUpdate, ctx) {
    const where = ctx?.cwd || cwd;
    if (off?.()) return createGrepToolDefinition(where).execute(toolCallId, params, signal, onUpdate, ctx);
    return runGrep(where, params, signal);
  }
}
