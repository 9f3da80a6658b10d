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
  let plain = true;
  let i = 1;
  // plain: only rows between the header and the last row (checked below).
  let lastRow = 0;
  for (; i < lines.length; i++) {
    const l = lines[i];
    const m = ROW_RE.exec(l);
    if (m) {
      rows.push([Number(m[1]), l.slice(m[0].length)]);
      lastRow = i;
      continue;
    }
    if (SUMMARY_RE.test(l) || l.startsWith("…") || (l.startsWith("[") && l.endsWith("]"))) continue;
    if (l === "") continue;
    return undefined;
  }
  // Trailing notices: what follows the last row (blank lines and [...]).
  const tail = lines.slice(lastRow + 1);
  if (tail.some((l) => l !== "" && !(l.startsWith("[") && l.endsWith("]")))) plain = false;
  const inner = lines.slice(1, lastRow + 1);
  if (inner.some((l) => !ROW_RE.test(l))) plain = false;
  // The view's body: up to the last row, summary row or elision; what
  // follows (blank lines, [...] notices such as omp's "identical output"
  // count) is the view's tail.
  let lastContent = 0;
  for (let k = 1; k < lines.length; k++) if (ROW_RE.test(lines[k]) || SUMMARY_RE.test(lines[k]) || lines[k].startsWith("…")) lastContent = k;
  let contiguous = rows.length > 0;
  for (let k = 1; k < rows.length; k++) if (rows[k][0] !== rows[k - 1][0] + 1) contiguous = false;
  return {
    header: lines[0],
    body: lines.slice(1, lastContent + 1),
    tail: lines.slice(lastContent + 1).join("\n"),
    path: hm[1],
    tag: hm[2],
    rows,
    contiguous,
    span: contiguous ? [rows[0][0], rows[rows.length - 1][0]] : undefined,
    plain: plain && contiguous,
    notices: rows.length > 0 ? tail.join("\n") : lines.slice(1).join("\n"),
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
