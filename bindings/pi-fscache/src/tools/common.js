// Helpers shared by the find, grep and ls overrides: pi's path resolution
// (path-utils.js of pi 0.73.1 and utils/paths.js of pi 1.x, which pi does
// not export), abort handling, and fd's sort order.
import * as os from "node:os";
import { isAbsolute, join, resolve as resolvePath } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The `cache` option of the find and grep overrides' fscache calls: false.
 * Without `cache`, fscache answers from the root's watched scan (and
 * grep's index, the one saved on disk too) once a call has started
 * watching it, current as of the call, and walks otherwise: the first call
 * of a process walks only as far as its limit needs (grep in path order,
 * stopping once its answer is complete) where `cache: true` scans the whole
 * root first, and a root nothing can watch is walked each time where
 * `cache: true` would serve a scan up to its TTL old. Measured on Go's src
 * (make bench-pi-tools, docs/pi-tools.md): repeated calls cost the same
 * either way; first calls 2 to 4 times less without.
 */
export const CACHE = false;

/**
 * A count for fscache's u32 options (maxResults, maxCount), which convert
 * as ToUint32 does (4294967296 would be 0): a larger count is no cap.
 */
export function u32Cap(n) {
  return n > 0xffffffff ? undefined : n;
}

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/** pi's expandPath: a leading '@' dropped, Unicode spaces made plain, '~' expanded. */
export function expandPath(filePath) {
  const at = filePath.startsWith("@") ? filePath.slice(1) : filePath;
  const normalized = at.replace(UNICODE_SPACES, " ");
  if (normalized === "~") return os.homedir();
  if (normalized.startsWith("~/")) return os.homedir() + normalized.slice(1);
  return normalized;
}

/** pi's resolveToCwd: filePath resolved against cwd after expandPath. */
export function resolveToCwd(filePath, cwd) {
  const expanded = expandPath(filePath);
  if (isAbsolute(expanded)) return expanded;
  return resolvePath(cwd, expanded);
}

// pi 1.x's normalizePath (utils/paths.js) on POSIX: for a tool's path
// argument Unicode spaces made plain and a leading '@' dropped; then '~'
// expanded and a file:// URL turned into its path.
function normalizePath1(input, toolArg) {
  let normalized = toolArg ? input.replace(UNICODE_SPACES, " ") : input;
  if (toolArg && normalized.startsWith("@")) normalized = normalized.slice(1);
  const home = os.homedir();
  if (normalized === "~") return home;
  if (normalized.startsWith("~/")) return join(home, normalized.slice(2));
  if (/^file:\/\//.test(normalized)) return fileURLToPath(normalized);
  return normalized;
}

/**
 * pi 1.x's resolveToCwd (resolvePath with normalizeUnicodeSpaces and
 * stripAtPrefix): as pi 0.73's, but an absolute path is normalized too
 * ('..' and a trailing '/' resolved), a file:// URL is taken as its path,
 * and cwd is normalized as well.
 */
export function resolveToCwd1(filePath, cwd) {
  const normalized = normalizePath1(filePath, true);
  return isAbsolute(normalized) ? resolvePath(normalized) : resolvePath(normalizePath1(cwd, false), normalized);
}

/** resolveToCwd as the host resolves paths: host.paths "1" (pi 1.x) or "0.73". */
export function resolveAsHost(host, filePath, cwd) {
  return host?.paths === "1" ? resolveToCwd1(filePath, cwd) : resolveToCwd(filePath, cwd);
}

/** The error pi's tools reject with when their signal aborts. */
export function abortError() {
  return new Error("Operation aborted");
}

/** Whether err comes from an aborted fscache call. */
export function isAbort(err, signal) {
  return Boolean(signal?.aborted) || (err && (err.name === "AbortError" || err.code === "aborted"));
}

// Rust's Path ordering, which fd sorts its results by: component by
// component, each compared as bytes. JavaScript's string order is UTF-16's,
// which differs from UTF-8's only for surrogates.
const SURROGATE = /[\uD800-\uDFFF]/;

function cmpBytes(a, b) {
  if (SURROGATE.test(a) || SURROGATE.test(b)) return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares two '/'-separated relative paths as Rust compares Paths. */
export function comparePaths(a, b) {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) {
    // one is a prefix of the other: the shorter comes first, whether the
    // longer goes on in the same component or in a further one
    return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
  }
  const ca = a.charCodeAt(i);
  const cb = b.charCodeAt(i);
  // a '/' here ends that path's component, which is then the shorter
  if (ca === 47) return -1;
  if (cb === 47) return 1;
  // within one component, below the surrogates: UTF-16 order is UTF-8's
  if (ca < 0xd800 && cb < 0xd800) return ca - cb;
  // back to the start of the component that differs
  let s = i;
  while (s > 0 && a.charCodeAt(s - 1) !== 47) s--;
  const ea = a.indexOf("/", s);
  const eb = b.indexOf("/", s);
  const compA = a.slice(s, ea < 0 ? a.length : ea);
  const compB = b.slice(s, eb < 0 ? b.length : eb);
  if (compA !== compB) return cmpBytes(compA, compB);
  // same component: the one that ends here is the shorter path
  return ea < 0 ? -1 : 1;
}
