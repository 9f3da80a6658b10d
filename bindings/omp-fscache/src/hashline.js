// omp's read output ("hashline"), as the model sees it:
//
//   [path#TAG]                 the header: TAG is 4 hex digits of a hash of
//                              the whole file (pi-natives' hashlineFileHash)
//   12:text                    a row: line 12 is "text"
//   1-7:export function f(...) { … }   a summary row (NOT a line's text)
//   …                          an elision
//   […95ln elided; ...]        an inline notice
//   (blank)                    then trailing notices: [Showing lines 1-300
//                              of 400. Use :301 to continue]
//
// Only `N:text` rows are line text. Anything this module does not know makes
// the output unreadable (parseRead returns undefined) and it is left as omp
// wrote it.

import { isAbsolute, resolve } from "node:path";
import { homedir } from "node:os";

const HEADER_RE = /^\[(.+)#([0-9A-F]{4})\]$/;
const ROW_RE = /^([1-9][0-9]*):/;
const SUMMARY_RE = /^[1-9][0-9]*-[1-9][0-9]*:/;

/**
 * Parses one read result's text. Returns undefined when it is not hashline
 * output, else {header, body: the lines after it, tag, rows: [[n, text]], contiguous, span: [first,
 * last] | undefined, plain: no summary row, elision or inline notice among
 * the rows, notices: the trailing lines after the rows (blank and [...])}.
 */
export function parseRead(text) {
  if (typeof text !== "string") return undefined;
  const lines = text.split("\n");
  const hm = HEADER_RE.exec(lines[0]);
  if (!hm) return undefined;
  const rows = [];
  let lastRow = 0; // the last row's line
  let lastContent = 0; // the last row, summary row or elision: the view's body ends there
  let lastSummary = 0; // the last summary row or elision
  let firstOther = Infinity; // the first line that is not a row
  let contiguous = true;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i];
    const m = ROW_RE.exec(l);
    if (m) {
      const n = Number(m[1]);
      if (rows.length > 0 && n !== rows[rows.length - 1][0] + 1) contiguous = false;
      rows.push([n, l.slice(m[0].length)]);
      lastRow = lastContent = i;
      continue;
    }
    if (i < firstOther) firstOther = i;
    if (SUMMARY_RE.test(l) || l.startsWith("…")) {
      lastContent = lastSummary = i;
      continue;
    }
    if (l === "" || (l.startsWith("[") && l.endsWith("]"))) continue;
    return undefined;
  }
  contiguous = contiguous && rows.length > 0;
  // plain: only rows up to the last one, and no summary row or elision after
  // it (what follows is blank lines and [...] notices).
  const plain = firstOther > lastRow && lastSummary < lastRow;
  return {
    header: lines[0],
    // the view's body: up to the last row, summary row or elision; what
    // follows (blank lines, [...] notices such as omp's "identical output"
    // count) is the view's tail
    body: lines.slice(1, lastContent + 1),
    tail: lines.slice(lastContent + 1).join("\n"),
    path: hm[1],
    tag: hm[2],
    rows,
    contiguous,
    span: contiguous ? [rows[0][0], rows[rows.length - 1][0]] : undefined,
    plain: plain && contiguous,
    // the trailing notices: what follows the last row
    notices: lines.slice(lastRow + 1).join("\n"),
  };
}

const SELECTOR_CHUNK_RE = /^(raw|conflicts|img|-\d+(?:[-+]\d+)?|\d+(?:[-+]\d*)?(?:,\d+(?:[-+]\d*)?)*)$/i;

/**
 * Splits a read's path argument into the path and its selector (":50-60",
 * ":raw", ":conflicts", ...), as omp's read does for the forms it knows.
 */
export function splitSelector(arg) {
  let path = arg;
  const sels = [];
  for (;;) {
    const k = path.lastIndexOf(":");
    if (k <= 0) break;
    const chunk = path.slice(k + 1);
    if (!SELECTOR_CHUNK_RE.test(chunk)) break;
    sels.unshift(chunk);
    path = path.slice(0, k);
  }
  return { path, selector: sels.length ? sels.join(":") : undefined };
}

/**
 * The name the model gave a file: the absolute path of the read's path
 * argument (selector dropped, `~` and a leading `@` expanded as omp does,
 * relative paths joined to cwd; symlinks not resolved). undefined for a URL
 * or internal scheme (`skill://`, `https://`).
 */
export function nameOf(arg, cwd) {
  if (typeof arg !== "string" || arg.length === 0 || arg.includes("://")) return undefined;
  let { path } = splitSelector(arg.startsWith("@") ? arg.slice(1) : arg);
  if (path === "~") path = homedir();
  else if (path.startsWith("~/")) path = homedir() + path.slice(1);
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}
