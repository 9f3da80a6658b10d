// The package's test suite: runs under `node --expose-gc --test` and under
// `bun test` (same file; the runner is picked at load time).
//
// Environment:
//   FSCACHE_NODE_ADDON    the addon to test (make sets it to build/out/fscache.node)
//   FSCACHE_MEM_CALLS     calls in the memory-growth test (default 20000)
//   FSCACHE_MEM_SLACK_MB  MB of growth allowed on top of the test's 40 MB bound (default 0);
//                         the sanitizer run sets it to ASan's quarantine cap, memory that is
//                         freed but held back on purpose
//   FSCACHE_TEST_IMPL     a path to another implementation to run the suite
//                         against, e.g. pi-natives' .node file: checks that the
//                         expectations here are the reference's. Tests of
//                         what only fscache guarantees are skipped then.
import assert from "node:assert/strict";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

const isBun = typeof globalThis.Bun !== "undefined";
const runner = isBun ? await import("bun:test") : await import("node:test");
const { describe } = runner;
const beforeAll = isBun ? runner.beforeAll : runner.before;
const afterAll = isBun ? runner.afterAll : runner.after;

/** test(name, fn, { timeout, skip }) for both runners. */
function it(name, fn, { timeout = 30_000, skip = false } = {}) {
  if (isBun) {
    (skip ? runner.test.skip : runner.test)(name, fn, timeout);
  } else {
    runner.test(name, { timeout, skip }, fn);
  }
}

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const REFERENCE = process.env.FSCACHE_TEST_IMPL || "";
const ours = !REFERENCE;
const lib = REFERENCE ? require(path.resolve(REFERENCE)) : await import("../index.js");
const { glob, fuzzyFind, grep, invalidateFsScanCache, FileType, GrepOutputMode } = lib;

function gc() {
  if (typeof globalThis.gc === "function") globalThis.gc();
  else if (isBun) globalThis.Bun.gc(true);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const paths = (r) => r.matches.map((m) => m.path);

/** Asserts that `promise` rejects with an Error whose message starts with `prefix`. */
async function rejectsWith(promise, prefix, code) {
  let err;
  try {
    await promise;
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof Error, `expected a rejection starting with ${JSON.stringify(prefix)}`);
  // (the reference sometimes prepends "GenericFailure, "; fscache never does)
  const ok = ours ? err.message.startsWith(prefix) : err.message.replace(/^GenericFailure, /, "").startsWith(prefix);
  assert.ok(ok, `message ${JSON.stringify(err.message)} should start with ${JSON.stringify(prefix)}`);
  if (code && ours) assert.equal(err.code, code);
  return err;
}

/** Asserts that calling `fn` throws a TypeError mentioning every string of `words`. */
function throwsTypeError(fn, ...words) {
  let err;
  try {
    const p = fn();
    if (p && typeof p.catch === "function") p.catch(() => {});
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof TypeError, `expected a TypeError, got ${err}`);
  for (const w of words) assert.ok(err.message.includes(w), `${JSON.stringify(err.message)} should mention ${w}`);
  return err;
}

// ---------------------------------------------------------------- fixtures

let tmp; // everything the suite writes lives here
let root; // a small git repository
let big; // BIG_DIRS x BIG_FILES empty files
const BIG_DIRS = 40;
const BIG_FILES = 500;
const BIG_TOTAL = BIG_DIRS + BIG_DIRS * BIG_FILES;

/* Fixtures go to FSCACHE_TEST_TMP, else /dev/shm when usable (creating 20k
 * files on a slow disk can take half a minute), else the OS temp dir. */
function tempBase() {
  for (const dir of [process.env.FSCACHE_TEST_TMP, "/dev/shm"]) {
    if (!dir) continue;
    try {
      fs.accessSync(dir, fs.constants.W_OK);
      if (fs.statSync(dir).isDirectory()) return dir;
    } catch {
      /* not usable */
    }
  }
  return os.tmpdir();
}

function write(rel, text = "") {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(tempBase(), "fscache-node-")));
  root = path.join(tmp, "repo");
  fs.mkdirSync(path.join(root, ".git"), { recursive: true });
  write(".gitignore", "*.log\nbuild/\n");
  write("a.txt", "hello world\nsecond line\n");
  write("b.md", "# Title\nhello again\n");
  write("ignored.log", "hello log\n");
  write("build/out.js", "hello build\n");
  write("src/index.ts", "export const hello = 1;\n// TODO: fix\nconst x = 2;\n");
  write("src/util.ts", "export function util() {\n  return 'hello';\n}\n");
  write("src/deep/x.ts", "x\n");
  write(".hidden/h.ts", "hello hidden\n");
  write("node_modules/pkg/index.js", "hello nm\n");
  const t = Date.now() / 1000;
  fs.utimesSync(path.join(root, "src/deep/x.ts"), t - 300, t - 300);
  fs.utimesSync(path.join(root, "src/index.ts"), t - 200, t - 200);
  fs.utimesSync(path.join(root, "src/util.ts"), t - 100, t - 100);

  big = path.join(tmp, "big");
  for (let d = 0; d < BIG_DIRS; d++) {
    const dir = path.join(big, `d${String(d).padStart(2, "0")}`);
    fs.mkdirSync(dir, { recursive: true });
    for (let f = 0; f < BIG_FILES; f++) fs.writeFileSync(path.join(dir, `f${String(f).padStart(4, "0")}.txt`), "");
  }
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

// ------------------------------------------------------------------ tests

describe("exports", () => {
  it("has the functions and run-time enums of pi-natives", () => {
    for (const f of [glob, fuzzyFind, grep, invalidateFsScanCache]) assert.equal(typeof f, "function");
    assert.equal(FileType.File, 1);
    assert.equal(FileType.Dir, 2);
    assert.equal(FileType.Symlink, 3);
    assert.equal(GrepOutputMode.Content, "content");
    assert.equal(GrepOutputMode.Count, "count");
    assert.equal(GrepOutputMode.FilesWithMatches, "filesWithMatches");
  });

  it("import and require give the same functions, by path and by package name", async () => {
    const cjs = require("../index.cjs");
    const esm = await import("../index.js");
    const byName = await import("fscache-native");
    const byNameCjs = require("fscache-native");
    for (const k of ["glob", "fuzzyFind", "grep", "invalidateFsScanCache", "FileType", "GrepOutputMode"]) {
      assert.equal(esm[k], cjs[k], k);
      assert.equal(byName[k], cjs[k], k);
      assert.equal(byNameCjs[k], cjs[k], k);
    }
    assert.match(cjs.version(), /^\d+\.\d+\.\d+/);
  }, { skip: !ours });
});

describe("glob", () => {
  it("finds files recursively, sorted, gitignore and hidden rules applied", async () => {
    const r = await glob({ pattern: "*.ts", path: root });
    assert.deepEqual(paths(r), ["src/deep/x.ts", "src/index.ts", "src/util.ts"]);
    assert.equal(r.totalMatches, 3);
    for (const m of r.matches) {
      assert.equal(m.fileType, FileType.File);
      assert.ok(!("mtime" in m) && !("size" in m), "no mtime/size without sortByMtime");
    }
    const hidden = await glob({ pattern: "*.ts", path: root, hidden: true });
    assert.deepEqual(paths(hidden), [".hidden/h.ts", "src/deep/x.ts", "src/index.ts", "src/util.ts"]);
  });

  it("honours gitignore and node_modules options", async () => {
    assert.deepEqual(paths(await glob({ pattern: "*.log", path: root })), []);
    assert.deepEqual(paths(await glob({ pattern: "*.log", path: root, gitignore: false })), ["ignored.log"]);
    assert.deepEqual(paths(await glob({ pattern: "*.js", path: root })), []);
    assert.deepEqual(paths(await glob({ pattern: "*.js", path: root, includeNodeModules: true })), [
      "node_modules/pkg/index.js",
    ]);
    assert.deepEqual(paths(await glob({ pattern: "*.js", path: root, gitignore: false })), ["build/out.js"]);
  });

  it("filters by type and caps results", async () => {
    const dirs = await glob({ pattern: "*", path: root, fileType: FileType.Dir });
    assert.deepEqual(paths(dirs), ["src", "src/deep"]);
    for (const m of dirs.matches) assert.equal(m.fileType, FileType.Dir);
    const two = await glob({ pattern: "*.ts", path: root, maxResults: 2 });
    assert.deepEqual(paths(two), ["src/deep/x.ts", "src/index.ts"]);
    assert.equal(two.totalMatches, 2);
    assert.deepEqual(await glob({ pattern: "*.ts", path: root, maxResults: 0 }), { matches: [], totalMatches: 0 });
  });

  it("sorts by mtime, newest first, with mtime and size", async () => {
    const r = await glob({ pattern: "src/**/*.ts", path: root, sortByMtime: true });
    assert.deepEqual(paths(r), ["src/util.ts", "src/index.ts", "src/deep/x.ts"]);
    for (const m of r.matches) {
      assert.equal(typeof m.mtime, "number");
      assert.equal(typeof m.size, "number");
    }
    assert.equal(r.matches[0].size, fs.statSync(path.join(root, "src/util.ts")).size);
    const one = await glob({ pattern: "*.ts", path: root, sortByMtime: true, maxResults: 1 });
    assert.deepEqual(paths(one), ["src/util.ts"]);
  });

  // pi-natives 18.2's mtimes (docs/compat.md): ms with the sub-millisecond fraction, the same
  // float64 as Node's fs.Stats.mtimeMs, sorted newest first on it, then by path. 14.9.9 had
  // whole ms: with FSCACHE_TEST_IMPL set to 14.9.9 this test fails, to 18.2.3 it passes.
  it("sorts by mtime with the sub-millisecond fraction, as pi-natives 18.2", async () => {
    const dir = path.join(tmp, "submillis");
    const at = (i) => `1767225600.${String(5_000_000 + i * 100_000).padStart(9, "0")}`;
    for (let i = 0; i < 30; i++) {
      const f = path.join(dir, `f${String(i).padStart(2, "0")}.txt`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(f, "x");
      assert.equal(spawnSync("touch", ["-d", `@${at(i)}`, f]).status, 0);
    }
    // 1 ns newer than f10 is the same float64 (a tie, in path order); 300 ns is not.
    for (const [name, t] of [["g1ns.txt", "1767225600.006000001"], ["g300ns.txt", "1767225600.006000300"]]) {
      fs.writeFileSync(path.join(dir, name), "x");
      assert.equal(spawnSync("touch", ["-d", `@${t}`, path.join(dir, name)]).status, 0);
    }
    const five = await glob({ pattern: "*.txt", path: dir, sortByMtime: true, maxResults: 5 });
    assert.deepEqual(paths(five), ["f29.txt", "f28.txt", "f27.txt", "f26.txt", "f25.txt"]);
    assert.equal(five.matches[0].mtime, 1767225600007.9);
    const all = await glob({ pattern: "*.txt", path: dir, sortByMtime: true });
    for (const m of all.matches) assert.equal(m.mtime, fs.lstatSync(path.join(dir, m.path)).mtimeMs, m.path);
    assert.deepEqual(paths(all).slice(18, 23), ["f11.txt", "g300ns.txt", "f10.txt", "g1ns.txt", "f09.txt"]);
  });

  it("rejects a missing root, a file root and a bad pattern", async () => {
    await rejectsWith(glob({ pattern: "*", path: path.join(tmp, "nope") }), "Path not found", "path_not_found");
    await rejectsWith(glob({ pattern: "*", path: path.join(root, "a.txt") }), "Search path must be a directory", "not_a_directory");
    await rejectsWith(glob({ pattern: "[", path: root }), "Invalid glob pattern", "invalid_glob");
  });
});

describe("onMatch", () => {
  // glob streams while the walk runs, in the walk's order (docs/compat.md):
  // its matches are compared as sets; grep's keep their order.
  it("glob: every match once, error === null, before the promise settles", async () => {
    const seen = [];
    let errs = 0;
    let countAtSettle = -1;
    const r = await glob({ pattern: "*", path: big }, (err, m) => {
      if (err !== null) errs++;
      seen.push(m);
    }).then((res) => {
      countAtSettle = seen.length;
      return res;
    });
    assert.equal(r.totalMatches, BIG_TOTAL);
    assert.equal(errs, 0);
    assert.equal(countAtSettle, BIG_TOTAL);
    assert.deepEqual(seen.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), r.matches);
  }, { skip: !ours });

  it("grep: the final matches, in order", async () => {
    const seen = [];
    const r = await grep({ pattern: "hello", path: root }, (err, m) => {
      assert.equal(err, null);
      seen.push(m);
    });
    assert.ok(r.matches.length > 0);
    assert.deepEqual(seen, r.matches);
    const limited = [];
    const r2 = await grep({ pattern: "hello", path: root, maxCount: 2, offset: 1 }, (_e, m) => limited.push(m));
    assert.deepEqual(limited, r2.matches);
    assert.equal(limited.length, 2);
  }, { skip: !ours });

  it("streams: a slow consumer still gets everything, once", async () => {
    let n = 0;
    const once = new Set();
    const r = await glob({ pattern: "d0[0-3]/*", path: big }, (_e, m) => {
      once.add(m.path);
      n++;
      if (n % 250 === 0) {
        const until = Date.now() + 2;
        while (Date.now() < until); // keep the JS thread busy so batches queue up
      }
    });
    assert.equal(n, r.totalMatches);
    assert.equal(n, 4 * BIG_FILES);
    assert.equal(once.size, n);
  }, { skip: !ours });

  it("stress: concurrent large streams with slow consumers stay complete", async () => {
    for (let round = 0; round < 4; round++) {
      const runs = [];
      for (let k = 0; k < 4; k++) {
        const seen = [];
        let spin = 0;
        runs.push(
          glob({ pattern: "*", path: big }, (_e, m) => {
            seen.push(m.path);
            if (++spin % (500 + k * 300) === 0) {
              const until = Date.now() + 3;
              while (Date.now() < until); // let the queues fill and the flusher race the producers
            }
          }).then((r) => {
            assert.equal(seen.length, r.totalMatches);
            assert.deepEqual(seen.sort(), paths(r));
          }),
        );
      }
      await Promise.all(runs);
    }
  }, { timeout: 120_000, skip: !ours });

  it("an exception thrown by onMatch stops the call and rejects with it", async () => {
    const boom = new Error("boom");
    let calls = 0;
    await assert.rejects(
      glob({ pattern: "*", path: big }, () => {
        calls++;
        throw boom;
      }),
      (e) => e === boom,
    );
    assert.equal(calls, 1, "no onMatch call after the throw");
    // a non-Error value is passed through as is
    await assert.rejects(grep({ pattern: "hello", path: root }, () => {
      throw "plain string";
    }), (e) => e === "plain string");
    // the process is fine and the next call works
    assert.equal((await glob({ pattern: "*.ts", path: root })).totalMatches, 3);
  }, { skip: !ours });
});

describe("fuzzyFind", () => {
  it("scores basenames and marks directories", async () => {
    const r = await fuzzyFind({ query: "util", path: root });
    assert.equal(r.matches[0].path, "src/util.ts");
    assert.equal(r.matches[0].isDirectory, false);
    assert.ok(r.matches[0].score > 0);
    const d = await fuzzyFind({ query: "deep", path: root });
    assert.equal(d.matches[0].path, "src/deep/");
    assert.equal(d.matches[0].isDirectory, true);
    const capped = await fuzzyFind({ query: "", path: root, maxResults: 2 });
    assert.equal(capped.matches.length, 2);
    assert.ok(capped.totalMatches > 2);
  });

  it("rejects a missing root", async () => {
    await rejectsWith(fuzzyFind({ query: "x", path: path.join(tmp, "nope") }), "Path not found", "path_not_found");
  });
});

describe("grep", () => {
  it("content mode, with hidden files and gitignore", async () => {
    const r = await grep({ pattern: "hello", path: root, mode: GrepOutputMode.Content });
    assert.deepEqual(
      r.matches.map((m) => `${m.path}:${m.lineNumber}:${m.line}`),
      [".hidden/h.ts:1:hello hidden", "a.txt:1:hello world", "b.md:2:hello again", "src/index.ts:1:export const hello = 1;", "src/util.ts:2:  return 'hello';"],
    );
    assert.equal(r.totalMatches, 5);
    assert.equal(r.filesWithMatches, 5);
    assert.ok(r.filesSearched >= 5);
  });

  it("context lines", async () => {
    const r = await grep({ pattern: "TODO", path: root, context: 1 });
    assert.equal(r.matches.length, 1);
    const m = r.matches[0];
    assert.equal(m.path, "src/index.ts");
    assert.equal(m.lineNumber, 2);
    assert.deepEqual(m.contextBefore, [{ lineNumber: 1, line: "export const hello = 1;" }]);
    assert.deepEqual(m.contextAfter, [{ lineNumber: 3, line: "const x = 2;" }]);
  });

  it("count and filesWithMatches modes, a single file, limits", async () => {
    const c = await grep({ pattern: "l", path: root, mode: GrepOutputMode.Count, glob: "*.txt" });
    assert.deepEqual(c.matches, [{ path: "a.txt", lineNumber: 0, line: "", matchCount: 2 }]);
    const f = await grep({ pattern: "hello", path: root, mode: GrepOutputMode.FilesWithMatches, type: "ts" });
    assert.deepEqual(paths(f), [".hidden/h.ts", "src/index.ts", "src/util.ts"]);
    const file = path.join(root, "a.txt");
    const one = await grep({ pattern: "line", path: file });
    assert.deepEqual(one.matches, [{ path: file, lineNumber: 2, line: "second line" }]);
    const lim = await grep({ pattern: "hello", path: root, maxCount: 1 });
    assert.equal(lim.matches.length, 1);
    assert.equal(lim.limitReached, true);
  });

  it("rejects a bad regex and a missing path", async () => {
    await rejectsWith(grep({ pattern: "[", path: root }), "Regex error", "invalid_regex");
    await rejectsWith(grep({ pattern: "x", path: path.join(tmp, "nope") }), "Path not found", "path_not_found");
  });
});

describe("cancellation", () => {
  it("an already-aborted signal rejects at once", async () => {
    const ac = new AbortController();
    ac.abort();
    for (const call of [
      () => glob({ pattern: "*", path: root, signal: ac.signal }),
      () => fuzzyFind({ query: "a", path: root, signal: ac.signal }),
      () => grep({ pattern: "a", path: root, signal: ac.signal }),
    ]) {
      await rejectsWith(call(), "Aborted: Signal", "aborted");
    }
  }, { skip: !ours });

  it("aborting during a call rejects with Aborted: Signal", async () => {
    for (const call of [
      (signal) => glob({ pattern: "*", path: big, signal }),
      (signal) => fuzzyFind({ query: "f1", path: big, signal }),
      (signal) => grep({ pattern: "x", path: big, signal }),
    ]) {
      const ac = new AbortController();
      const p = call(ac.signal);
      ac.abort();
      await rejectsWith(p, "Aborted: Signal", "aborted");
    }
  });

  it("aborting from onMatch stops the walk", async () => {
    const ac = new AbortController();
    let n = 0;
    await rejectsWith(
      glob({ pattern: "*", path: big, signal: ac.signal }, () => {
        if (++n === 1) ac.abort();
      }),
      "Aborted: Signal",
      "aborted",
    );
    assert.ok(n < BIG_TOTAL, `onMatch ran ${n} times`);
  }, { skip: !ours });

  it("a fired signal does not affect later calls, and listeners are removed", async () => {
    const ac = new AbortController();
    for (let i = 0; i < 50; i++) await glob({ pattern: "*.ts", path: root, signal: ac.signal });
    if (!isBun) {
      const { getEventListeners } = await import("node:events");
      assert.equal(getEventListeners(ac.signal, "abort").length, 0);
    }
    ac.abort();
    await rejectsWith(glob({ pattern: "*.ts", path: root, signal: ac.signal }), "Aborted: Signal");
    assert.equal((await glob({ pattern: "*.ts", path: root })).totalMatches, 3);
  }, { skip: !ours });

  it("one signal shared by concurrent calls: one listener, and it cancels them all", async () => {
    const ac = new AbortController();
    const calls = [];
    for (let i = 0; i < 20; i++) calls.push(glob({ pattern: "*", path: big, signal: ac.signal }, () => {}));
    calls.push(grep({ pattern: "x", path: big, signal: ac.signal }));
    calls.push(fuzzyFind({ query: "f", path: big, signal: ac.signal }));
    let listeners = () => -1;
    if (!isBun) {
      const { getEventListeners } = await import("node:events");
      listeners = () => getEventListeners(ac.signal, "abort").length;
      assert.equal(listeners(), 1);
    }
    ac.abort();
    const results = await Promise.allSettled(calls);
    for (const r of results) {
      assert.equal(r.status, "rejected");
      assert.equal(r.reason.message, "Aborted: Signal");
    }
    if (!isBun) assert.equal(listeners(), 0);
  }, { skip: !ours });

  it("timeoutMs rejects with Aborted: Timeout", async () => {
    // Each call walks: an uncached call on a root called twice before is
    // answered from its watched scan, too fast to time out.
    invalidateFsScanCache();
    await rejectsWith(glob({ pattern: "*", path: big, timeoutMs: 1 }), "Aborted: Timeout", "timeout");
    invalidateFsScanCache();
    await rejectsWith(grep({ pattern: "x", path: big, timeoutMs: 1 }), "Aborted: Timeout", "timeout");
    invalidateFsScanCache();
    await rejectsWith(fuzzyFind({ query: "f", path: big, timeoutMs: 1 }), "Aborted: Timeout", "timeout");
    const ok = await glob({ pattern: "*.ts", path: root, timeoutMs: 60_000 });
    assert.equal(ok.totalMatches, 3);
  });

  it("timeoutMs: 0 times out at once, as in the reference (so do NaN and negative-to-0 conversions)", async () => {
    await rejectsWith(glob({ pattern: "*.ts", path: root, timeoutMs: 0 }), "Aborted: Timeout", "timeout");
    await rejectsWith(fuzzyFind({ query: "u", path: root, timeoutMs: 0 }), "Aborted: Timeout", "timeout");
    await rejectsWith(grep({ pattern: "x", path: root, timeoutMs: 0 }), "Aborted: Timeout", "timeout");
    await rejectsWith(glob({ pattern: "*.ts", path: root, timeoutMs: NaN }), "Aborted: Timeout", "timeout");
  });
});

describe("bad arguments", () => {
  it("throw TypeErrors that name the field", () => {
    throwsTypeError(() => glob(), "GlobOptions");
    throwsTypeError(() => glob(null), "GlobOptions");
    throwsTypeError(() => glob("*.ts"), "GlobOptions");
    throwsTypeError(() => glob({ path: root }), "pattern");
    throwsTypeError(() => glob({ pattern: "*" }), "path");
    throwsTypeError(() => glob({ pattern: 5, path: root }), "GlobOptions.pattern", "string");
    throwsTypeError(() => glob({ pattern: "*", path: {} }), "GlobOptions.path");
    throwsTypeError(() => glob({ pattern: "*", path: root, hidden: "yes" }), "GlobOptions.hidden", "boolean");
    throwsTypeError(() => glob({ pattern: "*", path: root, maxResults: "3" }), "GlobOptions.maxResults", "number");
    throwsTypeError(() => glob({ pattern: "*", path: root, maxResults: 3n }), "GlobOptions.maxResults");
    throwsTypeError(() => glob({ pattern: "*", path: root, fileType: 7 }), "GlobOptions.fileType");
    throwsTypeError(() => glob({ pattern: "*", path: root, fileType: "file" }), "GlobOptions.fileType");
    throwsTypeError(() => glob({ pattern: "*", path: root, timeoutMs: "1" }), "GlobOptions.timeoutMs");
    throwsTypeError(() => glob({ pattern: "*", path: root, signal: 5 }), "GlobOptions.signal", "AbortSignal");
    throwsTypeError(() => glob({ pattern: "*", path: root }, 5), "onMatch", "function");
    throwsTypeError(() => glob({ pattern: "*", path: root }, "x"), "onMatch");
    throwsTypeError(() => fuzzyFind({ path: root }), "query");
    throwsTypeError(() => fuzzyFind({ query: 5, path: root }), "FuzzyFindOptions.query");
    throwsTypeError(() => fuzzyFind({ query: "a", path: root, cache: 1 }), "FuzzyFindOptions.cache");
    throwsTypeError(() => grep({ path: root }), "pattern");
    throwsTypeError(() => grep({ pattern: "a", path: root, mode: "bogus" }), "GrepOptions.mode");
    throwsTypeError(() => grep({ pattern: "a", path: root, mode: 5 }), "GrepOptions.mode");
    throwsTypeError(() => grep({ pattern: "a", path: root, type: 5 }), "GrepOptions.type");
    throwsTypeError(() => grep({ pattern: "a", path: root, context: "2" }), "GrepOptions.context");
    throwsTypeError(() => invalidateFsScanCache(5), "path", "string");
    throwsTypeError(() => invalidateFsScanCache({}), "path");
    const e = throwsTypeError(() => glob({ pattern: 5, path: root }), "pattern");
    assert.equal(e.code, "StringExpected");
  }, { skip: !ours });

  it("accept what Node-API's conversions accept", async () => {
    // u32 fields convert like ToUint32: -1 is 4294967295 (no cap), 1.9 is 1
    assert.equal((await glob({ pattern: "*.ts", path: root, maxResults: -1 })).totalMatches, 3);
    assert.equal((await glob({ pattern: "*.ts", path: root, maxResults: 1.9 })).totalMatches, 1);
    // unknown keys and functions are ignored; a signal is never serialised
    const r = await glob({ pattern: "*.ts", path: root, extra: () => 1, signal: new AbortController().signal });
    assert.equal(r.totalMatches, 3);
    // an onMatch of null or undefined means none
    assert.equal((await glob({ pattern: "*.ts", path: root }, null)).totalMatches, 3);
    assert.equal((await glob({ pattern: "*.ts", path: root }, undefined)).totalMatches, 3);
  });

  it("the native addon survives garbage", async () => {
    const addon = require(process.env.FSCACHE_NODE_ADDON || path.join(here, "..", "..", "..", "build", "out", "fscache.node"));
    const bad = [
      () => addon.glob(),
      () => addon.glob(5),
      () => addon.glob({}),
      () => addon.glob("{}", 5),
      () => addon.glob("{}", null, {}),
      () => addon.glob("{}", null, 5),
      () => addon.fuzzyFind("{}", new Int32Array(1)),
      () => addon.cancel(),
      () => addon.cancel({}),
      () => addon.cancel(new Int32Array(1)),
      () => addon.invalidate(5),
      () => addon.invalidate({}),
    ];
    for (const f of bad) assert.throws(f, TypeError);
    // malformed JSON and wrong shapes come back as rejections, not crashes
    for (const json of ["", "not json", "[]", "null", '{"pattern":5}', '{"pattern":"*","path":5}', '{"pattern":"*"}']) {
      await assert.rejects(addon.glob(json), (e) => e instanceof Error && typeof e.code === "string");
      await assert.rejects(addon.grep(json, () => {}), Error);
      await assert.rejects(addon.fuzzyFind(json), Error);
    }
    const tok = addon.createCancelToken();
    addon.cancel(tok);
    addon.cancel(tok);
    await assert.rejects(addon.glob(JSON.stringify({ pattern: "*", path: root }), null, tok), /Aborted: Signal/);
    assert.equal(addon.invalidate(), undefined);
    assert.equal(addon.invalidate(path.join(tmp, "does/not/exist")), undefined);
    assert.equal(addon.invalidate("a\u0000b"), undefined);
  }, { skip: !ours });
});

describe("scan cache", () => {
  it("invalidateFsScanCache is synchronous and makes new files visible", async () => {
    const dir = path.join(tmp, "cached");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "one.txt"), "");
    const t0 = Date.now();
    assert.deepEqual(paths(await glob({ pattern: "*.txt", path: dir, cache: true })), ["one.txt"]);
    fs.writeFileSync(path.join(dir, "two.txt"), "");
    const stale = paths(await glob({ pattern: "*.txt", path: dir, cache: true }));
    if (ours && process.platform === "linux") {
      // fscache watches cached roots (docs/compat.md): current without invalidation.
      assert.deepEqual(stale, ["one.txt", "two.txt"], "watched scan");
    } else if (Date.now() - t0 < 500) assert.deepEqual(stale, ["one.txt"], "served from the cache");
    assert.equal(invalidateFsScanCache(dir), undefined);
    assert.deepEqual(paths(await glob({ pattern: "*.txt", path: dir, cache: true })), ["one.txt", "two.txt"]);
    fs.writeFileSync(path.join(dir, "three.txt"), "");
    assert.equal(invalidateFsScanCache(path.join(dir, "three.txt")), undefined);
    assert.equal((await glob({ pattern: "*.txt", path: dir, cache: true })).totalMatches, 3);
    assert.equal(invalidateFsScanCache(), undefined);
    assert.equal(invalidateFsScanCache(null), undefined);
    assert.equal(invalidateFsScanCache(path.join(tmp, "gone/away")), undefined);
  });

  it("64 concurrent calls mixed with invalidations give the sequential answers", async () => {
    const jobs = [
      [glob, { pattern: "*.ts", path: root, cache: true }],
      [glob, { pattern: "*.ts", path: root }],
      [glob, { pattern: "d01/*", path: big, cache: true }],
      [fuzzyFind, { query: "util", path: root, cache: true }],
      [grep, { pattern: "hello", path: root, cache: true }],
      [grep, { pattern: "hello", path: root }],
      [glob, { pattern: "*", path: root, fileType: FileType.Dir, cache: true }],
      [fuzzyFind, { query: "f0001", path: big, maxResults: 5 }],
    ];
    const expected = [];
    for (const [fn, opts] of jobs) expected.push(JSON.stringify(await fn(opts)));
    for (let round = 0; round < 3; round++) {
      const pending = [];
      for (let i = 0; i < 64; i++) {
        const k = (i + round) % jobs.length;
        const [fn, opts] = jobs[k];
        let p;
        if (ours && fn !== fuzzyFind && i % 2 === 0) {
          const streamed = [];
          p = fn(opts, (_e, m) => streamed.push(m)).then((r) => {
            if (fn === glob) streamed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
            assert.deepEqual(streamed, r.matches, `job ${k} streamed`);
            return r;
          });
        } else {
          p = fn(opts);
        }
        pending.push(p.then((r) => [k, JSON.stringify(r)]));
        if (i % 5 === 0) invalidateFsScanCache(i % 10 === 0 ? root : undefined);
        if (i % 7 === 0) invalidateFsScanCache(path.join(big, "d01"));
      }
      for (const [k, got] of await Promise.all(pending)) assert.equal(got, expected[k], `job ${k}`);
    }
  });
});

describe("process and worker lifecycle", () => {
  /* Runs `code` (an ES module) in a child process of the same runtime; a
   * crash or a hang there fails this test instead of killing the runner. */
  function runChild(code, timeoutMs = 60_000) {
    const file = path.join(tmp, `child-${Math.random().toString(36).slice(2)}.mjs`);
    fs.writeFileSync(file, code);
    const r = spawnSync(process.execPath, [file], { encoding: "utf8", timeout: timeoutMs, env: process.env });
    return { status: r.status, signal: r.signal, out: `${r.stdout}${r.stderr}` };
  }
  const pkg = () => JSON.stringify(pathToFileURL(path.join(here, "..", "index.js")).href);
  const pkgCjs = () => JSON.stringify(path.join(here, "..", "index.cjs"));

  it("process.exit() inside onMatch exits at once (no thread left blocked)", () => {
    const r = runChild(`
      import { glob } from ${pkg()};
      let n = 0;
      glob({ pattern: "*", path: ${JSON.stringify(big)} }, () => { if (++n === 100) process.exit(7); });
    `); // runChild's watchdog: a minute
    assert.equal(r.signal, null, r.out);
    assert.equal(r.status, 7, r.out);
  }, { skip: !ours });

  it("terminating a worker in the middle of a streaming call is safe", () => {
    const r = runChild(`
      import { Worker } from "node:worker_threads";
      import { glob } from ${pkg()};
      const code = \`
        const { glob } = require(${pkgCjs().replace(/\\/g, "\\\\")});
        const { parentPort } = require("node:worker_threads");
        let n = 0;
        glob({ pattern: "*", path: ${JSON.stringify(big)} }, () => { if (++n === 50) parentPort.postMessage("busy"); })
          .then((r) => parentPort.postMessage("done " + r.totalMatches), (e) => parentPort.postMessage("error " + e.message));
      \`;
      for (let i = 0; i < 10; i++) {
        const w = new Worker(code, { eval: true });
        await new Promise((res) => w.once("message", res));
        await w.terminate();
      }
      const w = new Worker(code, { eval: true });
      let last = "";
      await new Promise((res) => w.on("message", (m) => { last = m; if (!m.startsWith("busy")) res(); }));
      await w.terminate();
      const main = await glob({ pattern: "d01/*", path: ${JSON.stringify(big)} });
      console.log(last, main.totalMatches);
    `);
    assert.equal(r.signal, null, r.out);
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, new RegExp(`done ${BIG_TOTAL} ${BIG_FILES}`));
  }, { skip: !ours });
});

describe("resources", () => {
  const CALLS = Number(process.env.FSCACHE_MEM_CALLS || 20000);
  it(`memory stays flat over ${CALLS} calls`, async () => {
    const signalShared = new AbortController().signal;
    const abortedSignal = AbortSignal.abort();
    let i = 0;
    const one = async () => {
      const k = i++ % 6;
      let sink = 0;
      try {
        if (k === 0) await glob({ pattern: "*.ts", path: root }, () => sink++);
        else if (k === 1) await glob({ pattern: "*.ts", path: root, cache: true, signal: signalShared });
        else if (k === 2) await fuzzyFind({ query: "ut", path: root, cache: true });
        else if (k === 3) await grep({ pattern: "hello", path: root }, () => sink++);
        else if (k === 4) await glob({ pattern: "*", path: path.join(tmp, "nope") }); // rejects
        else await glob({ pattern: "*", path: root, signal: abortedSignal }); // rejects at once
      } catch {
        /* the error paths are part of what is measured */
      }
    };
    const batch = async (n) => {
      const inflight = 16;
      let left = n;
      await Promise.all(
        Array.from({ length: inflight }, async () => {
          while (left-- > 0) await one();
        }),
      );
    };
    await batch(Math.min(5000, CALLS)); // warm-up: caches, JIT, allocator pools
    gc();
    await sleep(50);
    gc();
    const before = process.memoryUsage().rss;
    await batch(CALLS);
    gc();
    await sleep(50);
    gc();
    const after = process.memoryUsage().rss;
    const growthMB = (after - before) / 1048576;
    console.log(`    rss ${Math.round(before / 1048576)} MB -> ${Math.round(after / 1048576)} MB over ${CALLS} calls (${growthMB.toFixed(1)} MB)`);
    const bound = 40 + Number(process.env.FSCACHE_MEM_SLACK_MB || 0);
    assert.ok(growthMB < bound, `RSS grew by ${growthMB.toFixed(1)} MB over ${CALLS} calls (bound ${bound} MB)`);
  }, { timeout: 300_000, skip: !ours });
});
