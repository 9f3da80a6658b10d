// bun:test suite for the C ABI through bun:ffi: opens libfscache.so with the
// signatures of include/fscache.h, calls every function with JSON, reads
// and frees the results, receives matches through on_match and cancels
// through a pointer into an Int32Array (passed as the `cancel` argument, and
// stored into by native code during a call via ptr()).
//
//   FSCACHE_LIB   the library (make sets it); default ../../build/libfscache.so
//
// Callbacks and threads (what was found about Bun 1.4):
//   - A JSCallback without `threadsafe` may only be called on the JS thread.
//   - A JSCallback with `threadsafe: true` does not run the function: it
//     posts a task to the JS thread and returns at once. The task runs
//     after the (synchronous) FFI call has returned, when `match_json`,
//     valid only during the callback, is gone. So it can count matches but
//     cannot read them.
//   - The header promises that on_match runs on the calling thread, so a
//     plain JSCallback can read each match during the call. The tests check
//     that promise with a small C sink (test/ffi_sink.c, compiled by Bun's
//     built-in TinyCC) that copies each match and notes the thread it ran
//     on, then use a plain JSCallback.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CString, JSCallback, cc, dlopen, ptr, type Pointer } from "bun:ffi";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const LIB = process.env.FSCACHE_LIB || path.join(import.meta.dir, "..", "..", "..", "build", "out", "libfscache.so");

const lib = dlopen(LIB, {
  fscache_glob: { args: ["ptr", "ptr", "ptr", "ptr"], returns: "ptr" },
  fscache_fuzzy_find: { args: ["ptr", "ptr"], returns: "ptr" },
  fscache_grep: { args: ["ptr", "ptr", "ptr", "ptr"], returns: "ptr" },
  fscache_invalidate: { args: ["ptr"], returns: "void" },
  fscache_free: { args: ["ptr"], returns: "void" },
  fscache_version: { args: [], returns: "ptr" },
});
const C = lib.symbols;

const sink = cc({
  source: path.join(import.meta.dir, "ffi_sink.c"),
  symbols: {
    sink_reset: { args: [], returns: "void" },
    sink_cancel_after: { args: ["ptr", "usize"], returns: "void" },
    sink_fn: { args: [], returns: "ptr" },
    sink_data: { args: [], returns: "cstring" },
    sink_count: { args: [], returns: "f64" },
    sink_foreign: { args: [], returns: "f64" },
  },
}).symbols;

/** A NUL-terminated UTF-8 copy of `s`. Buffers are passed to "ptr"
 * arguments as is: bun:ffi keeps them alive for the call. */
const cstr = (s: string) => Buffer.from(s + "\0", "utf8");

type Envelope = { ok?: any; error?: { code: string; message: string } };

/** Reads and frees a result string. */
function take(p: Pointer | null): Envelope {
  expect(p).not.toBeNull();
  const text = new CString(p!).toString();
  C.fscache_free(p);
  return JSON.parse(text);
}

function globC(opts: object, onMatch: Pointer | null = null, cancel: Int32Array | null = null): Envelope {
  const json = cstr(JSON.stringify(opts));
  return take(C.fscache_glob(json, onMatch, null, cancel));
}
function grepC(opts: object, onMatch: Pointer | null = null, cancel: Int32Array | null = null): Envelope {
  const json = cstr(JSON.stringify(opts));
  return take(C.fscache_grep(json, onMatch, null, cancel));
}
function fuzzyC(opts: object, cancel: Int32Array | null = null): Envelope {
  const json = cstr(JSON.stringify(opts));
  return take(C.fscache_fuzzy_find(json, cancel));
}
/** Parses what the sink collected. */
function sinkMatches(): any[] {
  const text = String(sink.sink_data());
  return text === "" ? [] : text.trimEnd().split("\n").map((l) => JSON.parse(l));
}

let tmp = "";
let root = "";
let big = "";
const BIG_DIRS = 20;
const BIG_FILES = 500;
const BIG = BIG_DIRS * BIG_FILES + BIG_DIRS;

beforeAll(() => {
  const base = fs.existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(base, "fscache-ffi-")));
  root = path.join(tmp, "root");
  const files: Record<string, string> = {
    "a.txt": "alpha\nbeta\n",
    "src/main.go": "package main\n\nfunc main() {}\n",
    "src/util.go": "package main\n\n// util helper\nfunc util() {}\n",
    "docs/readme.md": "# util docs\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  big = path.join(tmp, "big");
  for (let d = 0; d < BIG_DIRS; d++) {
    fs.mkdirSync(path.join(big, `d${String(d).padStart(2, "0")}`), { recursive: true });
    for (let f = 0; f < BIG_FILES; f++) {
      fs.writeFileSync(path.join(big, `d${String(d).padStart(2, "0")}`, `f${String(f).padStart(3, "0")}.txt`), "x\n");
    }
  }
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("bun:ffi against libfscache", () => {
  test("fscache_version is a static version string", () => {
    const v = new CString(C.fscache_version()!).toString();
    expect(v).toMatch(/^\d+\.\d+\.\d+/);
  });

  test("fscache_glob returns GlobResult JSON", () => {
    const r = globC({ pattern: "*.go", path: root });
    expect(r.error).toBeUndefined();
    expect(r.ok).toEqual({
      matches: [
        { path: "src/main.go", fileType: 1 },
        { path: "src/util.go", fileType: 1 },
      ],
      totalMatches: 2,
    });
  });

  test("fscache_fuzzy_find returns FuzzyFindResult JSON", () => {
    const r = fuzzyC({ query: "util", path: root });
    expect(r.error).toBeUndefined();
    expect(r.ok.matches[0].path).toBe("src/util.go");
    expect(r.ok.totalMatches).toBeGreaterThanOrEqual(1);
  });

  test("fscache_grep returns GrepResult JSON", () => {
    const r = grepC({ pattern: "util", path: root });
    expect(r.error).toBeUndefined();
    expect(r.ok.matches.map((m: any) => `${m.path}:${m.lineNumber}`)).toEqual(["docs/readme.md:1", "src/util.go:3", "src/util.go:4"]);
    expect(r.ok.filesWithMatches).toBe(2);
  });

  test("errors come back as envelopes", () => {
    expect(globC({ pattern: "*", path: path.join(tmp, "nope") }).error?.code).toBe("path_not_found");
    expect(globC({ pattern: "[", path: root }).error?.code).toBe("invalid_glob");
    expect(globC({ path: root }).error?.code).toBe("invalid_options");
    const bad = cstr("not json");
    expect(take(C.fscache_glob(bad, null, null, null)).error?.code).toBe("invalid_options");
    expect(take(C.fscache_glob(null, null, null, null)).error?.code).toBe("invalid_options");
    expect(take(C.fscache_fuzzy_find(null, null)).error?.code).toBe("invalid_options");
    expect(grepC({ pattern: "[", path: root }).error?.code).toBe("invalid_regex");
  });

  // glob streams in the walk's order (docs/compat.md): compared by path.
  const byPath = (a: any, b: any) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

  test("on_match (a native sink) gets every match, on the calling thread", () => {
    sink.sink_reset();
    const r = globC({ pattern: "*", path: big }, sink.sink_fn());
    expect(r.ok.totalMatches).toBe(BIG);
    expect(sinkMatches().sort(byPath)).toEqual(r.ok.matches);
    expect(sink.sink_foreign()).toBe(0);
    sink.sink_reset();
    const g = grepC({ pattern: "util", path: root }, sink.sink_fn());
    expect(sinkMatches()).toEqual(g.ok.matches);
    expect(sink.sink_foreign()).toBe(0);
  });

  test("on_match as a JSCallback on the calling thread reads each match", () => {
    const seen: any[] = [];
    const cb = new JSCallback(
      (_ctx: Pointer, json: Pointer, len: number | bigint) => {
        const text = new CString(json, 0, Number(len)).toString();
        seen.push(JSON.parse(text));
      },
      { args: ["ptr", "ptr", "usize"], returns: "void" },
    );
    try {
      const r = globC({ pattern: "*", path: big }, cb.ptr);
      expect(seen.sort(byPath)).toEqual(r.ok.matches);
    } finally {
      cb.close();
    }
  });

  test("a threadsafe JSCallback is only told later, after the call returned", async () => {
    let calls = 0;
    const cb = new JSCallback(() => void calls++, {
      args: ["ptr", "ptr", "usize"],
      returns: "void",
      threadsafe: true,
    });
    try {
      const r = globC({ pattern: "*.txt", path: big }, cb.ptr);
      const during = calls;
      const deadline = Date.now() + 60_000; // a hang watchdog, not a time goal
      while (calls < r.ok.totalMatches && Date.now() < deadline) await Bun.sleep(5);
      expect(during).toBe(0);
      expect(calls).toBe(r.ok.totalMatches);
    } finally {
      cb.close();
    }
  });

  test("cancel: a pointer into an Int32Array", () => {
    const flag = new Int32Array(1);
    flag[0] = 1;
    expect(globC({ pattern: "*", path: root }, null, flag).error).toEqual({ code: "aborted", message: "Aborted: Signal" });
    expect(fuzzyC({ query: "a", path: root }, flag).error?.code).toBe("aborted");
    expect(grepC({ pattern: "a", path: root }, null, flag).error?.code).toBe("aborted");
    flag[0] = 0;
    expect(globC({ pattern: "*", path: root }, null, flag).ok.totalMatches).toBeGreaterThan(0);
    // set during the call: the sink stores 1 after the first match
    sink.sink_reset();
    sink.sink_cancel_after(ptr(flag), 1);
    C.fscache_invalidate(null); // a walk, not the watched scan of earlier calls
    const r = globC({ pattern: "*", path: big }, sink.sink_fn(), flag);
    expect(r.error?.code).toBe("aborted");
    expect(sink.sink_count()).toBeLessThan(BIG);
  });

  test("timeoutMs is passed in the options", () => {
    // Each call walks: an uncached call on a root called twice before is
    // answered from its watched scan, too fast to time out.
    C.fscache_invalidate(null);
    expect(globC({ pattern: "*", path: big, timeoutMs: 1 }).error).toEqual({ code: "timeout", message: "Aborted: Timeout" });
    C.fscache_invalidate(null);
    expect(grepC({ pattern: "y", path: big, timeoutMs: 1 }).error?.code).toBe("timeout");
    expect(globC({ pattern: "*.go", path: root, timeoutMs: 60_000 }).ok.totalMatches).toBe(2);
  });

  test("timeoutMs: 0 times out at once, as in the reference", () => {
    expect(globC({ pattern: "*", path: root, timeoutMs: 0 }).error?.code).toBe("timeout");
  });

  test("fscache_invalidate takes a path or NULL", () => {
    expect(globC({ pattern: "*.txt", path: root, cache: true }).ok.totalMatches).toBe(1);
    fs.writeFileSync(path.join(root, "b.txt"), "");
    C.fscache_invalidate(cstr(root));
    expect(globC({ pattern: "*.txt", path: root, cache: true }).ok.totalMatches).toBe(2);
    C.fscache_invalidate(null);
    C.fscache_invalidate(cstr(path.join(tmp, "no/such/dir")));
    fs.rmSync(path.join(root, "b.txt"));
    C.fscache_invalidate(cstr(""));
    expect(globC({ pattern: "*.txt", path: root, cache: true }).ok.totalMatches).toBe(1);
  });

  test("fscache_free(NULL) is a no-op", () => {
    C.fscache_free(null);
  });
});
