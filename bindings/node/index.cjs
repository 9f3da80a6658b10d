"use strict";
/*
 * fscache for Node and Bun: glob, fuzzyFind, grep and invalidateFsScanCache
 * with the same names, options, results and errors as @oh-my-pi/pi-natives.
 *
 * This file is the one implementation; index.js re-exports it as ESM, so a
 * process that both imports and requires the package shares one addon and
 * one scan cache.
 *
 * What happens here, before the native addon is called:
 *   - options are checked field by field (a TypeError names the field);
 *   - only the known fields are serialised (signal, functions and unknown
 *     keys never reach the JSON), numbers are converted the way Node-API's
 *     u32 conversion does (ToUint32), as the reference does;
 *   - an AbortSignal is wired to a native cancel token; an already-aborted
 *     signal rejects at once with "Aborted: Signal"; a call whose signal
 *     fired rejects with an Error named "AbortError" (see abortedError).
 *
 * listWorkspace and grep's maxCountPerFile are pi-natives 18.2's additions.
 * readCache, readCacheResolve and readCacheStore (the read cache), version
 * and cacheStats are fscache's own.
 */

const fs = require("node:fs");
const path = require("node:path");

/* ---------------------------------------------------------------- loading */

// The platform packages, napi-rs style: fscache-native-<triple> holds
// fscache.<triple>.node and the library it loads, and is an optional
// dependency of this package whose os/cpu/libc fields let npm install only
// the one that fits.
function isMusl() {
  if (process.platform !== "linux") return false;
  // 1. The objects mapped into this very process (/proc/self/maps), so a musl
  //    Node on a glibc distribution is still musl. musl's names are looked
  //    for first: its loader is its libc, so every musl process maps it. One
  //    read of about 7 KB: about 0.15 ms, where the report below builds a
  //    whole diagnostic report (4-5 ms) to answer the same question. "utf8"
  //    takes readFileSync's one-call path; latin1 costs 0.5 ms more here.
  try {
    const maps = fs.readFileSync("/proc/self/maps", "utf8");
    if (/\/(ld-musl-|libc\.musl-)/.test(maps)) return true;
    if (/\/(libc\.so\.6|ld-linux-)/.test(maps)) return false;
  } catch {
    // no /proc (a sandbox, a chroot): the report
  }
  // 2. The process report, when /proc is unreadable or names neither libc (a
  //    static binary): glibc's version when the runtime runs on glibc; else
  //    the musl loader among the loaded objects (as napi-rs does).
  //    The report leaves out network details (no lookups); the setting is put back.
  try {
    const rep = process.report;
    if (rep && typeof rep.getReport === "function") {
      const hadExclude = "excludeNetwork" in rep ? rep.excludeNetwork : undefined;
      if (hadExclude === false) rep.excludeNetwork = true;
      let report;
      try {
        report = rep.getReport();
      } finally {
        if (hadExclude === false) rep.excludeNetwork = false;
      }
      if (typeof report === "string") report = JSON.parse(report);
      if (report && report.header && typeof report.header.glibcVersionRuntime === "string") return false;
      if (report && Array.isArray(report.sharedObjects) && report.sharedObjects.some((f) => /(^|\/)(ld-musl-|libc\.musl-)/.test(f))) {
        return true;
      }
    }
  } catch {
    // fall through to the file checks
  }
  // 3. ldd: a script that runs musl's loader on musl systems.
  try {
    return fs.readFileSync("/usr/bin/ldd", "latin1").includes("musl");
  } catch {
    // no ldd (a minimal image)
  }
  // 4. musl's loader, when glibc's is not there too (a glibc system may have
  //    musl installed beside it).
  const musl = `/lib/ld-musl-${process.arch === "x64" ? "x86_64" : "aarch64"}.so.1`;
  const glibc = process.arch === "x64" ? "/lib64/ld-linux-x86-64.so.2" : "/lib/ld-linux-aarch64.so.1";
  return fs.existsSync(musl) && !fs.existsSync(glibc);
}

/** The platform triple of this process, as the platform packages name it. */
function platformTriple() {
  const { platform, arch } = process;
  if (platform === "linux") return `linux-${arch}-${isMusl() ? "musl" : "gnu"}`;
  if (platform === "win32") return `win32-${arch}-msvc`;
  return `${platform}-${arch}`;
}

function loadAddon() {
  const tried = [];
  // The addon in `file`, or null with the reason in `tried`.
  const attempt = (where, file) => {
    if (!fs.existsSync(file)) {
      tried.push(`${where}: ${file}: not found`);
      return null;
    }
    try {
      return require(file);
    } catch (err) {
      tried.push(`${where}: ${file}: ${err && err.message}`);
      return null;
    }
  };
  // 1. An explicit override wins: a local build, a debug build. It is tried
  //    before the triple is worked out, which it does not need (nor the libc
  //    check behind it).
  if (process.env.FSCACHE_NODE_ADDON) {
    const addon = attempt("FSCACHE_NODE_ADDON", path.resolve(process.env.FSCACHE_NODE_ADDON));
    if (addon !== null) return addon;
  }
  const triple = platformTriple();
  const file = `fscache.${triple}.node`;
  const candidates = [];
  // 2. The platform package.
  const pkg = `fscache-native-${triple}`;
  try {
    candidates.push([`package ${pkg}`, path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file)]);
  } catch {
    tried.push(`package ${pkg}: not installed`);
  }
  // 3. A local build: next to this file, then the repository's build/out/.
  candidates.push(["next to index.cjs", path.join(__dirname, file)]);
  candidates.push(["next to index.cjs", path.join(__dirname, "fscache.node")]);
  candidates.push(["repository build", path.join(__dirname, "..", "..", "build", "out", "fscache.node")]);
  for (const [where, candidate] of candidates) {
    const addon = attempt(where, candidate);
    if (addon !== null) return addon;
  }
  throw new Error(
    `fscache: no native addon for ${triple} (platform ${process.platform}, arch ${process.arch}). Looked in:\n  ` +
      tried.join("\n  ") +
      `\nInstall the platform package (npm install ${pkg}), or build from source: ` +
      "clone fscache, run `make build` (Go 1.26, a C compiler, Node, npm), then set " +
      "FSCACHE_NODE_ADDON=/path/to/fscache/build/fscache.node.",
  );
}

const native = loadAddon();

// process.exit() while a call is still streaming matches: stop this
// environment's calls so no thread-pool thread is left working for a
// JS thread that is gone.
if (typeof process.on === "function") process.on("exit", () => native.closeAll());

/* ------------------------------------------------------------------ enums */

/** Entry kinds reported by glob (and accepted by its fileType filter). */
const FileType = Object.freeze({ File: 1, Dir: 2, Symlink: 3 });

/** What grep reports per match. */
const GrepOutputMode = Object.freeze({
  Content: "content",
  Count: "count",
  FilesWithMatches: "filesWithMatches",
});

const FILE_TYPES = new Set([1, 2, 3]);
const GREP_MODES = new Set(["content", "count", "filesWithMatches"]);
const LINE_COUNTS = new Set(["split", "lines"]);

/* ------------------------------------------------------------- validation */

function describe(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  const t = typeof v;
  if (t === "string") return `string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + "..." : v)}`;
  if (t === "number" || t === "boolean" || t === "bigint") return `${t} ${String(v)}`;
  return t;
}

function typeError(message, code) {
  const err = new TypeError(message);
  err.code = code;
  return err;
}

/* Field kinds: the "!" suffix marks a required field. */
const CONVERT = {
  string(v, where) {
    if (typeof v !== "string") throw typeError(`${where} must be a string, got ${describe(v)}`, "StringExpected");
    return v;
  },
  bool(v, where) {
    if (typeof v !== "boolean") throw typeError(`${where} must be a boolean, got ${describe(v)}`, "BooleanExpected");
    return v;
  },
  /* Node-API's u32 conversion (ToUint32): -1 -> 4294967295, 1.5 -> 1, NaN -> 0. */
  u32(v, where) {
    if (typeof v !== "number") throw typeError(`${where} must be a number, got ${describe(v)}`, "NumberExpected");
    return v >>> 0;
  },
  fileType(v, where) {
    if (typeof v !== "number") {
      throw typeError(`${where} must be a FileType (1 file, 2 dir, 3 symlink), got ${describe(v)}`, "NumberExpected");
    }
    const n = v | 0;
    if (!FILE_TYPES.has(n)) {
      throw typeError(`${where} must be a FileType (1 file, 2 dir, 3 symlink), got ${describe(v)}`, "InvalidArg");
    }
    return n;
  },
  /* The read cache's offset and limit: any integer (the engine validates
   * it), truncated toward zero and clamped to the int32 range, as in C. */
  int(v, where) {
    if (typeof v !== "number") throw typeError(`${where} must be a number, got ${describe(v)}`, "NumberExpected");
    if (Number.isNaN(v)) throw typeError(`${where} must be a number, got NaN`, "NumberExpected");
    return Math.max(-2147483648, Math.min(2147483647, Math.trunc(v))) || 0;
  },
  /* A byte count or an age: non-negative, truncated, at most 2^53. */
  size(v, where) {
    if (typeof v !== "number") throw typeError(`${where} must be a number, got ${describe(v)}`, "NumberExpected");
    if (!(v >= 0)) throw typeError(`${where} must be a non-negative number, got ${describe(v)}`, "InvalidArg");
    return Math.min(Math.trunc(v), 2 ** 53);
  },
  /* { [key: string]: string }: own enumerable keys, each value a string. */
  stringMap(v, where) {
    if (v === null || typeof v !== "object" || Array.isArray(v)) {
      throw typeError(`${where} must be an object of strings, got ${describe(v)}`, "ObjectExpected");
    }
    const out = {};
    for (const k of Object.keys(v)) out[k] = CONVERT.string(v[k], `${where}[${JSON.stringify(k)}]`);
    return out;
  },
  stringArray(v, where) {
    if (!Array.isArray(v)) throw typeError(`${where} must be an array of strings, got ${describe(v)}`, "ArrayExpected");
    return v.map((x, i) => CONVERT.string(x, `${where}[${i}]`));
  },
  /* The read cache's lineCount. */
  lineCount(v, where) {
    if (typeof v !== "string" || !LINE_COUNTS.has(v)) {
      throw typeError(`${where} must be a LineCount ("split" or "lines"), got ${describe(v)}`, typeof v === "string" ? "InvalidArg" : "StringExpected");
    }
    return v;
  },
  mode(v, where) {
    if (typeof v !== "string" || !GREP_MODES.has(v)) {
      throw typeError(
        `${where} must be a GrepOutputMode ("content", "count" or "filesWithMatches"), got ${describe(v)}`,
        typeof v === "string" ? "InvalidArg" : "StringExpected",
      );
    }
    return v;
  },
};

/* The fields of each options interface, in index.d.ts's order (signal
 * aside): test/schema.test.mjs checks them, and what shapeOptions makes of
 * them, against schema/options.json at the repository root. */
const SCHEMAS = {
  GlobOptions: {
    pattern: "string!",
    path: "string!",
    fileType: "fileType",
    recursive: "bool",
    hidden: "bool",
    maxResults: "u32",
    gitignore: "bool",
    cache: "bool",
    sortByMtime: "bool",
    includeNodeModules: "bool",
    timeoutMs: "u32",
  },
  FuzzyFindOptions: {
    query: "string!",
    path: "string!",
    hidden: "bool",
    gitignore: "bool",
    cache: "bool",
    maxResults: "u32",
    timeoutMs: "u32",
  },
  GrepOptions: {
    pattern: "string!",
    path: "string!",
    glob: "string",
    type: "string",
    ignoreCase: "bool",
    multiline: "bool",
    hidden: "bool",
    gitignore: "bool",
    cache: "bool",
    maxCount: "u32",
    offset: "u32",
    contextBefore: "u32",
    contextAfter: "u32",
    context: "u32",
    maxColumns: "u32",
    mode: "mode",
    maxCountPerFile: "u32",
    rawLines: "bool",
    timeoutMs: "u32",
  },
  ListWorkspaceOptions: {
    path: "string!",
    maxDepth: "u32!",
    hidden: "bool",
    gitignore: "bool",
    collectAgentsMd: "bool",
    timeoutMs: "u32",
  },
  ReadCacheOptions: {
    path: "string!",
    cwd: "string",
    offset: "int",
    limit: "int",
    pathKey: "string",
    bases: "stringMap",
    storeDir: "string",
    noStore: "bool",
    objectHash: "string",
    exclude: "stringArray",
    maxFileBytes: "size",
    storeMaxBytes: "size",
    storeMaxAgeSeconds: "size",
    lineCount: "lineCount",
    timeoutMs: "u32",
  },
  ReadCacheResolveOptions: {
    path: "string!",
    cwd: "string",
    offset: "int",
    limit: "int",
  },
  ReadCacheStoreOptions: {
    dir: "string!",
  },
};

/* Interfaces without a signal: a `signal` key is ignored like any unknown one. */
const NO_SIGNAL = new Set(["ReadCacheResolveOptions", "ReadCacheStoreOptions"]);

function isAbortSignal(s) {
  return (
    s !== null &&
    typeof s === "object" &&
    typeof s.aborted === "boolean" &&
    typeof s.addEventListener === "function" &&
    typeof s.removeEventListener === "function"
  );
}

/*
 * Checks `options` against the named schema and returns the JSON for the
 * library plus the AbortSignal, if any. Throws a TypeError on bad input.
 * null/undefined optional fields count as absent.
 */
function shapeOptions(fnName, typeName, options) {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw typeError(`${fnName}(options): options must be a ${typeName} object, got ${describe(options)}`, "ObjectExpected");
  }
  const schema = SCHEMAS[typeName];
  const out = {};
  for (const key of Object.keys(schema)) {
    let kind = schema[key];
    const required = kind.endsWith("!");
    if (required) kind = kind.slice(0, -1);
    const v = options[key];
    if (v === undefined || v === null) {
      if (required) throw typeError(`Missing field \`${key}\` on ${typeName}`, "InvalidArg");
      continue;
    }
    out[key] = CONVERT[kind](v, `${typeName}.${key}`);
  }
  const signal = NO_SIGNAL.has(typeName) ? undefined : options.signal;
  if (signal !== undefined && signal !== null && !isAbortSignal(signal)) {
    throw typeError(`${typeName}.signal must be an AbortSignal, got ${describe(signal)}`, "InvalidArg");
  }
  return { json: JSON.stringify(out), signal: signal == null ? null : signal };
}

function checkOnMatch(fnName, onMatch) {
  if (onMatch === undefined || onMatch === null) return null;
  if (typeof onMatch !== "function") {
    throw typeError(`${fnName}(options, onMatch): onMatch must be a function, got ${describe(onMatch)}`, "FunctionExpected");
  }
  return onMatch;
}

/* A call cancelled by its AbortSignal rejects with this: an Error named
 * "AbortError" (how the agent's tools recognise aborts, as pi-natives'
 * newest tests expect) whose message stays "Aborted: Signal". */
function abortedError() {
  const err = new Error("Aborted: Signal");
  err.name = "AbortError";
  err.code = "aborted";
  return err;
}

/* The rejection of a call whose signal fired: the library's own
 * "Aborted: Signal" error renamed, or, when the signal fired after the
 * native work finished but before the promise settled, a fresh one. */
function asAbortError(err) {
  if (err instanceof Error && err.message === "Aborted: Signal") {
    err.name = "AbortError";
    return err;
  }
  return abortedError();
}

/*
 * AbortSignal wiring. A signal is often shared by many calls (one per agent
 * turn, say), so each signal gets ONE listener from this module, whatever
 * the number of calls in flight on it; the listener sets the cancel token of
 * every such call. The listener is removed when the last of them settles,
 * so a long-lived signal does not collect listeners (nor Node's
 * MaxListenersExceededWarning).
 */
const watched = new WeakMap(); // AbortSignal -> { tokens: Set, onAbort }

function watch(signal, token) {
  let w = watched.get(signal);
  if (w === undefined) {
    const tokens = new Set();
    const onAbort = () => {
      for (const t of tokens) native.cancel(t);
    };
    signal.addEventListener("abort", onAbort);
    w = { tokens, onAbort };
    watched.set(signal, w);
  }
  w.tokens.add(token);
}

function unwatch(signal, token) {
  const w = watched.get(signal);
  if (w === undefined) return;
  w.tokens.delete(token);
  if (w.tokens.size === 0) {
    signal.removeEventListener("abort", w.onAbort);
    watched.delete(signal);
  }
}

/*
 * Starts one native call. `start(json, token)` calls the addon. With a
 * signal, the call gets a cancel token that the signal's listener sets.
 */
function run(shaped, start) {
  const { json, signal } = shaped;
  if (signal === null) return start(json, null);
  if (signal.aborted) return Promise.reject(abortedError());
  const token = native.createCancelToken();
  watch(signal, token);
  let promise;
  try {
    promise = start(json, token);
  } catch (err) {
    unwatch(signal, token);
    throw err;
  }
  return promise.then(
    (value) => {
      unwatch(signal, token);
      if (signal.aborted) throw abortedError();
      return value;
    },
    (err) => {
      unwatch(signal, token);
      if (signal.aborted) throw asAbortError(err);
      throw err;
    },
  );
}

/* ------------------------------------------------------------------- API */

function glob(options, onMatch) {
  const shaped = shapeOptions("glob", "GlobOptions", options);
  const cb = checkOnMatch("glob", onMatch);
  return run(shaped, (json, token) => native.glob(json, cb, token));
}

function fuzzyFind(options) {
  const shaped = shapeOptions("fuzzyFind", "FuzzyFindOptions", options);
  return run(shaped, (json, token) => native.fuzzyFind(json, token));
}

function grep(options, onMatch) {
  const shaped = shapeOptions("grep", "GrepOptions", options);
  const cb = checkOnMatch("grep", onMatch);
  return run(shaped, (json, token) => native.grep(json, cb, token)).then(sharePaths);
}

/*
 * JSON.parse gives every match its own copy of its file's path. Pointing the
 * matches of one file at one copy, right after the parse, leaves the other
 * copies to die young instead of being copied by the scavenges that promote
 * the result to the old generation. Strings are values, so nothing else can
 * tell. Grep over Go's src with `\w+_\w+\(` (35,873 matches in 1,273 files,
 * back-to-back calls): median 167/169 -> 160/155 ms, p75 194 -> 163 ms.
 */
function sharePaths(result) {
  const matches = result.matches;
  let last = null;
  for (let i = 0; i < matches.length; i++) {
    const m = matches[i];
    if (m.path === last) m.path = last;
    else last = m.path;
  }
  return result;
}

/** One walk of a workspace: entries up to maxDepth plus AGENTS.md files (pi-natives 18.2). */
function listWorkspace(options) {
  const shaped = shapeOptions("listWorkspace", "ListWorkspaceOptions", options);
  return run(shaped, (json, token) => native.listWorkspace(json, token));
}

/*
 * The read cache (fscache's own). Errors reject with an Error whose `code`
 * is the library's ("invalid_range", "offset_beyond_eof", "not_regular",
 * "invalid_options", "timeout", "store", "object_missing", ...); a call whose signal fired
 * rejects with an AbortError.
 */

/** A read tool's answer: pi's output, an unchanged marker or a diff. */
function readCache(options) {
  const shaped = shapeOptions("readCache", "ReadCacheOptions", options);
  return run(shaped, (json, token) => native.readCache(json, token));
}

/** A read's path and range after pi's normalisation, without reading the file. */
function readCacheResolve(options) {
  const shaped = shapeOptions("readCacheResolve", "ReadCacheResolveOptions", options);
  return run(shaped, (json) => native.readCacheResolve(json));
}

/** The object store in options.dir: its objects and their bytes. */
function readCacheStore(options) {
  const shaped = shapeOptions("readCacheStore", "ReadCacheStoreOptions", options);
  return run(shaped, (json) => native.readCacheStore(json));
}

function invalidateFsScanCache(path) {
  if (path === undefined || path === null) {
    native.invalidate();
    return undefined;
  }
  if (typeof path !== "string") {
    throw typeError(`invalidateFsScanCache(path): path must be a string, got ${describe(path)}`, "StringExpected");
  }
  native.invalidate(path);
  return undefined;
}

/**
 * Statistics of the scan cache (an fscache addition, not in pi-natives):
 * entries, what is watched, fallbacks to the TTL policy and why, events
 * applied, targeted refreshes and full scans with their cost.
 */
function cacheStats() {
  const r = JSON.parse(native.cacheStats());
  if (r.error) throw new Error(r.error.message);
  return r.ok;
}

/** The version of the loaded libfscache, e.g. "0.1.0". */
function version() {
  return native.version();
}

module.exports = {
  FileType,
  GrepOutputMode,
  fuzzyFind,
  glob,
  grep,
  invalidateFsScanCache,
  listWorkspace,
  readCache,
  readCacheResolve,
  readCacheStore,
  version,
  cacheStats,
};
