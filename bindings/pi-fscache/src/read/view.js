// What the model holds of each file, read from pi's messages (issue 48):
// pi's side of fscache-native/readcache-view (the line-level copy and the
// judge, shared with the omp package). This module says how pi's read
// results show lines: pi's read text (the lines of the range, then at most
// one notice), this package's markers and diffs (whose details.readcache
// record the digests of the lines they stand on), and which messages the
// model is sent (the last `context` event's, or the session's window).
//
// A file is named as the model named it: the absolute path of the read's
// path argument (details.readcache.name, the engine's absPath), symlinks
// not resolved: a read of link.txt teaches nothing about alpha.txt.

import { homedir } from "node:os";
import { isAbsolute, resolve as resolvePath } from "node:path";
import { parseMeta, sessionWindow, textHashOf } from "./replay.js";

let view;
/** fscache-native/readcache-view (the installed package's, else this checkout's). */
export async function loadView() {
  view ??= import("fscache-native/readcache-view").catch(() => import("../../../node/readcache-view.js"));
  return view;
}

// pi's notices after a read's lines (both lines' wording): truncated by
// lines or bytes, or a limit that stops before the end.
const NOTICE = /\n\n\[(?:Showing lines \d+-\d+ of \d+[^\]\n]*|\d+ more lines? in file\. Use offset=\d+ to continue\.)\]$/;

/** The notice at the end of a read's text ("[Showing lines ...]"), or "". */
export function noticeOf(text) {
  const m = NOTICE.exec(text);
  return m ? m[0].slice(2) : "";
}

/**
 * The lines a text of pi's read shows: [lineNo, text] pairs from start.
 * firstLineTooLong: pi showed no line, only its notice.
 */
export function shownOf(text, start, firstLineTooLong = false) {
  if (firstLineTooLong) return [];
  return text
    .replace(NOTICE, "")
    .split("\n")
    .map((t, i) => [start + i, t]);
}

/** The name pi's read opens for a path argument, where no record says it (pi's resolveReadPath, simplified). */
export function nameOf(cwd, p) {
  let s = String(p ?? "").replace(/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, " ");
  if (s.startsWith("@")) s = s.slice(1);
  if (s === "~") s = homedir();
  else if (s.startsWith("~/")) s = homedir() + s.slice(1);
  return isAbsolute(s) ? resolvePath(s) : resolvePath(cwd, s);
}

const textOf = (content) => (Array.isArray(content) ? content.filter((c) => c && c.type === "text").map((c) => c.text).join("") : typeof content === "string" ? content : "");
const onlyText = (content) => Array.isArray(content) && content.length > 0 && content.every((c) => c && c.type === "text" && typeof c.text === "string");

const DIGEST_RE = /^[0-9a-f]{64}$/;
function span(s) {
  return s && typeof s === "object" && Number.isSafeInteger(s.start) && Number.isSafeInteger(s.end) && s.start >= 1 && s.end >= s.start && typeof s.digest === "string" && DIGEST_RE.test(s.digest) ? s : undefined;
}

/**
 * pi's adapter for readcache-view: the read calls of an assistant message,
 * and what a read result shows. cwd names the files of results that carry
 * no record (pi's own read's).
 */
export function piAdapter(cwd, viewModule) {
  // A result's record, memoized per message object and per call id (a
  // context event's messages are fresh copies each request: the text is
  // compared, not hashed again).
  const byMessage = new WeakMap();
  const byCall = new Map();
  const MAX_CALLS = 4096;

  function compute(m, args) {
    if (m.isError || m.details?.readcacheLost === true) return { kind: "none" };
    const meta = parseMeta(m.details);
    const text = textOf(m.content);
    if (meta) {
      const name = typeof meta.name === "string" && meta.name !== "" ? meta.name : nameOf(cwd, args?.path);
      // What another extension rewrote (or a context handler pruned)
      // teaches nothing: its text is not what was served.
      if (!onlyText(m.content) || typeof meta.textHash !== "string" || textHashOf(text) !== meta.textHash) return { kind: "none" };
      if (meta.mode === "unchanged" || meta.mode === "unchanged_range") {
        const h = span(meta.held);
        return h ? { name, kind: "marker", start: h.start, end: h.end, digest: h.digest } : { name, kind: "marker", start: 1, end: 1, digest: "" };
      }
      if (meta.mode === "diff") {
        const b = span(meta.base);
        if (!b) return { name, kind: "opaque" };
        return { name, kind: "diff", baseStart: b.start, baseEnd: b.end, baseDigest: b.digest, hunks: viewModule.parseUnifiedDiff(text) };
      }
      const t = m.details?.truncation;
      const whole = typeof meta.whole === "boolean" ? meta.whole : meta.scopeKey === "full" && args?.offset === undefined && args?.limit === undefined;
      return { name, kind: "text", shown: shownOf(text, meta.rangeStart, t?.firstLineExceedsLimit === true), replace: whole };
    }
    // pi's own read (the package off, a file it does not serve, a session
    // from before it): its text shows the range the call asked for.
    if (!onlyText(m.content) || !args || typeof args.path !== "string") return { kind: "none" };
    const start = Number.isSafeInteger(args.offset) && args.offset > 0 ? args.offset : 1;
    const whole = args.offset === undefined && args.limit === undefined;
    return { name: nameOf(cwd, args.path), kind: "text", shown: shownOf(text, start, m.details?.truncation?.firstLineExceedsLimit === true), replace: whole };
  }

  return {
    readCalls(m) {
      if (!Array.isArray(m.content)) return [];
      const out = [];
      for (const c of m.content) if (c && c.type === "toolCall" && c.name === "read" && typeof c.id === "string") out.push({ id: c.id, args: c.arguments });
      return out;
    },
    record(m, args) {
      if (m.toolName !== "read") return undefined;
      let r = byMessage.get(m);
      if (r) return r;
      const text = textOf(m.content);
      const memo = byCall.get(m.toolCallId);
      const key = m.details?.readcache?.textHash;
      if (memo && memo.text === text && memo.key === key && memo.isError === m.isError) r = memo.rec;
      else {
        r = compute(m, args);
        byCall.delete(m.toolCallId);
        byCall.set(m.toolCallId, { text, key, isError: m.isError, rec: r });
        while (byCall.size > MAX_CALLS) byCall.delete(byCall.keys().next().value);
      }
      byMessage.set(m, r);
      return r;
    },
  };
}

/** The messages of sm's window as the model sees them (the fallback view when no context event was seen). */
export function windowMessages(sm) {
  const out = [];
  for (const [, msg] of sessionWindow(sm)) if (msg && typeof msg === "object") out.push(msg);
  return out;
}
