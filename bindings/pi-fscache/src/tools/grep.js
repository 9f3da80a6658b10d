// pi's grep tool, answered by fscache's grep (the scan cache and its
// trigram index) instead of spawning rg. Same definition as pi's; execute
// formats lines as the host pi's rg-backed execute does, from the lines
// fscache hands with each match (`rawLines`: the bytes it searched), never
// from a read of the file after the search. pi 0.73: the match line's text
// as rg reports it (the raw line, every '\r' removed), or with context the
// blocks pi cuts from the file itself (one per match, overlapping blocks
// repeated). pi 1.x (host.js): every line as rg reports it, only its line
// ending removed, context as rg gives it (each line once).
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

// rg's JSON line text (the line with its "\n") as pi's execute turns it
// into the line shown: "\r\n" -> "\n", every other "\r" removed, the
// final "\n" dropped.
function sanitizeRgLine(text) {
  return text.replace(/\r\n/g, "\n").replace(/\r/g, "").replace(/\n$/, "");
}

// pi's getFileLines split of a file's text: on "\r\n", "\r" and "\n".
function piSplit(text) {
  return text.replace(/\r\n/g, "\n").replace(/\r/g, "\n").split("\n");
}

/**
 * The lines pi's formatBlock shows for the match m (rawLines: each line
 * with its "\n") with contextValue lines around it, as [lineNumber, text,
 * isMatch]: pi cuts them from the file's text split on "\r\n", "\r" and
 * "\n" (getFileLines), here from the bytes fscache searched. The engine
 * hands the lines around the match (numbered on "\n", as rg numbers
 * them); pi's pieces from the block's first line on are those of the
 * block's own text, unless a lone "\r" lies before the block
 * (m.crBefore: pi's numbering is then shifted by it, and the lines are
 * shown as rg numbers them instead).
 */
function piBlock(m, contextValue) {
  const before = m.contextBefore ?? [];
  const after = m.contextAfter ?? [];
  const n = m.lineNumber;
  const out = [];
  if (m.crBefore) {
    for (const l of before) out.push([l.lineNumber, l.line, false]);
    out.push([n, m.line, true]);
    for (const l of after) out.push([l.lineNumber, l.line, false]);
    return out.map(([k, t, isMatch]) => [k, t.replace(/\r?\n$/, ""), isMatch]);
  }
  // The engine was asked for ceil(contextValue) lines each side.
  const asked = Math.ceil(contextValue);
  const first = n - before.length; // the first line the engine handed
  const text = before.map((l) => l.line).join("") + m.line + after.map((l) => l.line).join("");
  const pieces = piSplit(text);
  // Fewer lines after than asked for: the file ends with the block, and
  // pi's last piece (after a final "\n": "") is a line of its own. Else
  // the piece after the block's last "\n" is the next line's start.
  const eof = after.length < asked || !text.endsWith("\n");
  if (!eof) pieces.pop();
  const total = eof ? first - 1 + pieces.length : Infinity;
  // pi's arithmetic, a fractional context included: its line numbers step
  // by 1 from max(1, n - context), a non-integer one naming no line (shown
  // empty, and never the match's).
  const start = contextValue > 0 ? Math.max(1, n - contextValue) : n;
  const end = contextValue > 0 ? Math.min(total, n + contextValue) : n;
  for (let k = start; k <= end; k++) out.push([k, Number.isInteger(k) ? (pieces[k - first] ?? "") : "", k === n]);
  return out;
}

/**
 * Runs one grep call: the result the host pi's grep returns, or throws its
 * error. prof, when given, gets the time of the fscache call and of the
 * rest (`native`, `post`, in ms). host (host.js; probed when not given) says
 * whose grep to answer as, pi 1.x's or pi 0.73's. afterSearch, when given
 * (tests), is called with fscache's result before it is formatted.
 */
export async function runGrep(cwd, { pattern, path: searchDir, glob, ignoreCase, literal, context, limit }, signal, prof, host, afterSearch) {
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
      // Lines as they are in the file, each match with its own context:
      // formatted here as rg and pi do, from the bytes fscache searched.
      rawLines: true,
      context: Math.min(Math.ceil(contextValue), 0xffffffff),
      signal: signal ?? undefined,
    });
  } catch (err) {
    if (isAbort(err, signal)) throw abortError();
    if (err && err.code === "invalid_regex") throw new Error(rgRegexMessage(err.message, pattern));
    throw err;
  }
  const t2 = prof ? performance.now() : 0;
  if (afterSearch) await afterSearch(res);
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
  const formatPath = (rel, abs) => {
    if (isDirectory && rel && !rel.startsWith("..")) return rel;
    return path.basename(abs);
  };
  const push = (relativePath, lineNumber, lineText, isMatch) => {
    const { text, wasTruncated } = truncateLine(lineText.indexOf("\r") < 0 ? lineText : lineText.replace(/\r/g, ""));
    if (wasTruncated) linesTruncated = true;
    outputLines.push(isMatch ? `${relativePath}:${lineNumber}: ${text}` : `${relativePath}-${lineNumber}- ${text}`);
  };
  const limitCount = Math.ceil(effectiveLimit);
  // A file's matches are adjacent: its path is joined once per file.
  let lastPath, relativePath;
  for (const m of matches.slice(0, limitCount)) {
    if (m.path !== lastPath) {
      lastPath = m.path;
      relativePath = formatPath(isDirectory ? m.path : "", isDirectory ? path.join(searchPath, m.path) : m.path);
    }
    if (contextValue === 0 && !m.lossy) {
      // rg's line text (a UTF-8 BOM dropped from line 1, as rg does).
      const line = m.lineNumber === 1 && m.line.charCodeAt(0) === 0xfeff ? m.line.slice(1) : m.line;
      push(relativePath, m.lineNumber, sanitizeRgLine(line), true);
      continue;
    }
    // rg reports a line that is not valid UTF-8 as bytes, and pi then
    // cuts it, as every context block, from the file decoded as a whole.
    for (const [k, text, isMatch] of piBlock(m, contextValue)) push(relativePath, k, text, isMatch);
  }
  const r = grepAnswer(outputLines, matchLimitReached, effectiveLimit, linesTruncated);
  if (prof) {
    prof.native = t2 - t1;
    prof.post = performance.now() - t0 - prof.native;
  }
  return r;
}

/**
 * pi's grep result for its output lines (both lines format the same): the
 * text cut at pi's byte limit, then the notices of the match limit, the
 * byte limit and truncated lines, each with its details field.
 */
function grepAnswer(outputLines, matchLimitReached, effectiveLimit, linesTruncated) {
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

// A line as pi 1.x prints it: rg's text of the line (fscache's raw line,
// invalid UTF-8 replaced, as pi decodes rg's base64 `bytes`), only the line
// ending removed: a lone '\r' inside the line is kept; a UTF-8 BOM dropped
// from line 1, as rg does.
function lineText1(raw, n) {
  let str = raw.endsWith("\n") ? raw.slice(0, -1) : raw;
  if (str.endsWith("\r")) str = str.slice(0, -1);
  return n === 1 && str.charCodeAt(0) === 0xfeff ? str.slice(1) : str;
}

/**
 * pi 1.x's output for fscache's matches (in path order, one past the limit
 * at most): the first `limit` matches, with context as rg --context gives
 * it: each file's lines within `context` of a match, each once, a match
 * line marked ':'. Lines after the last match kept (its trailing context)
 * are all context lines, a further match among them too, as pi prints
 * them; the limit is reported when a match past it exists. The lines are
 * those fscache searched (rawLines: each match with its own context, as
 * far as the file has lines), never read again.
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
  for (let i = 0; i < kept.length; ) {
    // a file's matches are adjacent, in line order
    let j = i + 1;
    while (j < kept.length && kept[j].path === kept[i].path) j++;
    const abs = isDirectory ? path.join(searchPath, kept[i].path) : kept[i].path;
    const relativePath = isDirectory && kept[i].path && !kept[i].path.startsWith("..") ? kept[i].path : path.basename(abs);
    if (contextValue === 0) {
      for (let k = i; k < j; k++) push(relativePath, kept[k].lineNumber, lineText1(kept[k].line, kept[k].lineNumber), true);
    } else {
      // every line the kept matches bring (theirs and their context), by number
      const text = new Map();
      const isMatch = new Set();
      for (let k = i; k < j; k++) {
        const m = kept[k];
        isMatch.add(m.lineNumber);
        text.set(m.lineNumber, m.line);
        for (const l of m.contextBefore ?? []) if (!text.has(l.lineNumber)) text.set(l.lineNumber, l.line);
        for (const l of m.contextAfter ?? []) if (!text.has(l.lineNumber)) text.set(l.lineNumber, l.line);
      }
      let done = 0; // the last line printed
      for (let k = i; k < j; k++) {
        const m = kept[k];
        const n = m.lineNumber;
        // the engine's context stops at the file's first and last lines
        const from = Math.max(done + 1, n - (m.contextBefore?.length ?? 0));
        const to = Math.max(n + (m.contextAfter?.length ?? 0), n);
        for (let line = from; line <= to; line++) push(relativePath, line, lineText1(text.get(line) ?? "", line), isMatch.has(line));
        done = Math.max(done, to);
      }
    }
    i = j;
  }
  return grepAnswer(outputLines, matchLimitReached, effectiveLimit, linesTruncated);
}

/**
 * pi's grep tool definition with execute served by fscache. options.off,
 * when given, is asked at each call: when it returns true the call is
 * answered by pi's built-in grep tool instead (the --no-fscache-grep flag).
 * options.afterSearch (tests only) is runGrep's.
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
    return runGrep(where, params, signal, undefined, undefined, options.afterSearch);
  }
}
