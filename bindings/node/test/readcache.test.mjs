// The read cache through the package (fscache's own; not in pi-natives):
// readCache, readCacheResolve and readCacheStore against the real engine,
// as a pi package calls them: a first read is pi's text, a reread against
// its hash the marker, an edit a diff, ranges, errors with their codes,
// AbortSignal and timeoutMs. Runs under `node --test` and `bun test`.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";

const isBun = typeof globalThis.Bun !== "undefined";
const runner = isBun ? await import("bun:test") : await import("node:test");
const beforeAll = isBun ? runner.beforeAll : runner.before;
const afterAll = isBun ? runner.afterAll : runner.after;
const it = (name, fn) => (isBun ? runner.test(name, fn, 120_000) : runner.test(name, { timeout: 120_000 }, fn));

const pkg = await import("../index.js");
const { readCache, readCacheResolve, readCacheStore } = pkg;

const sha = (s) => createHash("sha256").update(s).digest("hex");
const lines = (n, f = (i) => `line ${i} of the file`) => Array.from({ length: n }, (_, i) => f(i + 1) + "\n").join("");

let root, store, file, body, edited;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "fscache-rc-")));
  store = path.join(root, "store");
  file = path.join(root, "f.txt");
  body = lines(300);
  edited = body.replace("line 120 of the file\n", "line 120 was edited\n");
  fs.writeFileSync(file, body);
  fs.writeFileSync(path.join(root, "small.txt"), "one\ntwo\nthree\n");
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Rejects with an error whose code (and message start) is given. */
async function rejectsWith(promise, code, messageStart = "") {
  await assert.rejects(promise, (e) => {
    assert.ok(e instanceof Error, `not an Error: ${e}`);
    assert.equal(e.code, code, `code of ${e.message}`);
    assert.ok(e.message.startsWith(messageStart), `message ${JSON.stringify(e.message)}`);
    return true;
  });
}

it("is exported by both entry points", () => {
  const cjs = createRequire(import.meta.url)("../index.cjs");
  for (const name of ["readCache", "readCacheResolve", "readCacheStore"]) {
    assert.equal(typeof pkg[name], "function", name);
    assert.equal(cjs[name], pkg[name], name);
  }
});

it("a first read is pi's text; a reread against its hash is the marker", async () => {
  const first = await readCache({ path: "f.txt", cwd: root, storeDir: store });
  assert.equal(first.mode, "full");
  assert.equal(first.text, body);
  assert.equal(first.absPath, file);
  assert.equal(first.path, "f.txt");
  assert.equal("offset" in first, false);
  assert.equal("reason" in first, false);
  assert.equal("truncation" in first, false);
  assert.deepEqual(first.meta, {
    v: 1,
    pathKey: first.pathKey,
    scopeKey: "full",
    servedHash: sha(body),
    mode: "full",
    totalLines: 301,
    rangeStart: 1,
    rangeEnd: 301,
    bytes: Buffer.byteLength(body),
  });

  const again = await readCache({ path: "f.txt", cwd: root, storeDir: store, pathKey: first.pathKey, bases: { full: first.meta.servedHash } });
  assert.equal(again.mode, "unchanged");
  assert.equal(again.text, "[readcache: unchanged, 301 lines]");
  assert.equal(again.meta.baseHash, sha(body));
  assert.equal(again.meta.servedHash, sha(body));

  // Bases are for their pathKey only.
  const other = await readCache({ path: "f.txt", cwd: root, storeDir: store, pathKey: "/elsewhere", bases: { full: sha(body) } });
  assert.equal(other.mode, "full");
});

it("after an edit, a diff against the stored base", async () => {
  const first = await readCache({ path: "f.txt", cwd: root, storeDir: store });
  fs.writeFileSync(file, edited);
  try {
    const d = await readCache({ path: "f.txt", cwd: root, storeDir: store, pathKey: first.pathKey, bases: { full: first.meta.servedHash } });
    assert.equal(d.mode, "diff");
    assert.ok(d.text.startsWith("[readcache: 1 lines changed of 301]\n"), d.text);
    assert.ok(d.text.includes("\n-line 120 of the file\n+line 120 was edited\n"), d.text);
    assert.ok(d.text.length < edited.length / 10, `${d.text.length} bytes`);
    assert.equal(d.meta.servedHash, sha(edited));
    assert.equal(d.meta.baseHash, sha(body));
  } finally {
    fs.writeFileSync(file, body);
  }
});

it("ranges: offset/limit and the path:start-end shorthand, then their marker", async () => {
  const r = await readCache({ path: "f.txt", cwd: root, offset: 2, limit: 2, storeDir: store });
  assert.equal(r.mode, "full");
  assert.equal(r.text, "line 2 of the file\nline 3 of the file\n\n[298 more lines in file. Use offset=4 to continue.]");
  assert.equal(r.offset, 2);
  assert.equal(r.limit, 2);
  assert.equal(r.meta.scopeKey, "r:2:3");
  const again = await readCache({ path: "f.txt:2-3", cwd: root, storeDir: store, pathKey: r.pathKey, bases: { "r:2:3": r.meta.servedHash } });
  assert.equal(again.mode, "unchanged_range");
  assert.equal(again.text, "[readcache: unchanged in lines 2-3 of 301]");
  assert.equal(again.path, "f.txt");
});

it("a long file keeps pi's truncation", async () => {
  fs.writeFileSync(path.join(root, "long.txt"), lines(2500));
  const r = await readCache({ path: "long.txt", cwd: root, noStore: true });
  assert.equal(r.mode, "full");
  assert.equal(r.truncation.truncated, true);
  assert.equal(r.truncation.truncatedBy, "lines");
  assert.equal(r.truncation.totalLines, 2501);
  assert.equal(r.truncation.outputLines, 2000);
  assert.ok(r.text.endsWith("\n\n[Showing lines 1-2000 of 2501. Use offset=2001 to continue.]"), r.text.slice(-100));
});

it('lineCount "lines" counts as pi 1.x: no trailing empty line in totals and markers', async () => {
  const big = path.join(root, "lc-3000.txt");
  fs.writeFileSync(big, lines(3000));
  const split = await readCache({ path: big, noStore: true });
  const byLines = await readCache({ path: big, noStore: true, lineCount: "lines" });
  assert.equal(split.truncation.totalLines, 3001);
  assert.equal(byLines.truncation.totalLines, 3000);
  assert.equal(byLines.text, split.text); // the notice says "of 3001" either way
  const small = path.join(root, "lc-120.txt");
  fs.writeFileSync(small, lines(120));
  const lcStore = path.join(root, "lc-store");
  const first = await readCache({ path: small, storeDir: lcStore, lineCount: "lines" });
  const again = await readCache({ path: small, storeDir: lcStore, lineCount: "lines", pathKey: first.pathKey, bases: { full: first.meta.servedHash } });
  assert.equal(again.text, "[readcache: unchanged, 120 lines]");
  assert.throws(() => readCache({ path: small, lineCount: "Lines" }), (e) => e instanceof TypeError && /lineCount must be a LineCount/.test(e.message));
});

it("a file over maxFileBytes is streamed: pi's text, mode full, no meta, nothing stored", async () => {
  const big = path.join(root, "over-limit.txt");
  fs.writeFileSync(big, lines(3000));
  const whole = await readCache({ path: big, noStore: true });
  const streamStore = path.join(root, "stream-store");
  const streamed = await readCache({ path: big, storeDir: streamStore, maxFileBytes: 1000 });
  assert.equal(streamed.mode, "full");
  assert.equal(streamed.reason, "streamed");
  assert.equal(streamed.meta, undefined);
  assert.equal(streamed.text, whole.text);
  assert.deepEqual(streamed.truncation, whole.truncation);
  const again = await readCache({ path: big, storeDir: streamStore, maxFileBytes: 1000, pathKey: whole.pathKey, bases: { full: whole.meta.servedHash } });
  assert.equal(again.mode, "full"); // never a marker: nothing is trusted
  assert.equal((await readCacheStore({ dir: streamStore })).objects, 0);
});

it("images, binaries and excluded files are the caller's own read", async () => {
  fs.writeFileSync(path.join(root, "img.png"), Buffer.from("89504e470d0a1a0a0000", "hex"));
  fs.writeFileSync(path.join(root, "bad.txt"), Buffer.from([0x61, 0xff, 0xfe, 0x0a]));
  fs.writeFileSync(path.join(root, ".env.local"), "SECRET=1\n");
  for (const [name, reason] of [
    ["img.png", "image"],
    ["bad.txt", "invalid_utf8"],
    [".env.local", "excluded"],
    ["missing.txt", "not_found"],
  ]) {
    const r = await readCache({ path: name, cwd: root, noStore: true });
    assert.equal(r.mode, "baseline", name);
    assert.equal(r.reason, reason, name);
    assert.equal(r.text, "", name);
    assert.equal("meta" in r, false, name);
  }
  const all = await readCache({ path: ".env.local", cwd: root, noStore: true, exclude: [] });
  assert.equal(all.mode, "full");
  assert.equal(all.text, "SECRET=1\n");
});

it("errors reject with the engine's code and message", async () => {
  await rejectsWith(readCache({ path: "small.txt:5-3", cwd: root }), "invalid_range");
  await rejectsWith(readCache({ path: "small.txt", cwd: root, offset: 99 }), "offset_beyond_eof", "Offset 99 is beyond end of file (4 lines total)");
  await rejectsWith(readCache({ path: "small.txt", cwd: "relative" }), "invalid_options");
  await rejectsWith(readCacheResolve({ path: "small.txt:0", cwd: root }), "invalid_range");
  // A bad option is a TypeError naming it, before the library is called.
  assert.throws(() => readCache({ path: "small.txt", bases: { full: 1 } }), (e) => e instanceof TypeError && e.message.startsWith('ReadCacheOptions.bases["full"] must be a string'));
  assert.throws(() => readCache({ cwd: root }), (e) => e instanceof TypeError && e.message === "Missing field `path` on ReadCacheOptions");
  assert.throws(() => readCache({ path: "x", maxFileBytes: -1 }), (e) => e instanceof TypeError && /maxFileBytes must be a non-negative number/.test(e.message));
});

it("objectHash: the text a marker stood for, from the store, though the file changed or is gone", async () => {
  const objStore = path.join(root, "obj-store");
  const p = path.join(root, "obj.txt");
  const content = lines(3000);
  fs.writeFileSync(p, content);
  for (const lineCount of ["split", "lines"]) {
    for (const [offset, limit] of [[undefined, undefined], [2990, undefined], [10, 5]]) {
      fs.writeFileSync(p, content);
      const first = await readCache({ path: "obj.txt", cwd: root, offset, limit, storeDir: objStore, lineCount });
      assert.equal(first.meta.servedHash, sha(content));
      for (const change of [() => fs.writeFileSync(p, "changed\n"), () => fs.rmSync(p)]) {
        change();
        const again = await readCache({ path: "obj.txt", cwd: root, offset, limit, storeDir: objStore, lineCount,
          pathKey: first.pathKey, bases: { full: first.meta.servedHash }, objectHash: first.meta.servedHash });
        assert.deepEqual(again, first, `${lineCount} ${offset}/${limit}`);
      }
    }
  }
  // A path:start-end suffix is still parsed with the file gone.
  fs.writeFileSync(p, content);
  const range = await readCache({ path: "obj.txt:20-22", cwd: root, storeDir: objStore });
  fs.rmSync(p);
  assert.deepEqual(await readCache({ path: "obj.txt:20-22", cwd: root, storeDir: objStore, objectHash: sha(content) }), range);
  assert.equal(range.text, "line 20 of the file\nline 21 of the file\nline 22 of the file\n\n[2979 more lines in file. Use offset=23 to continue.]");
  const missing = "0".repeat(64);
  await rejectsWith(readCache({ path: "obj.txt", cwd: root, storeDir: objStore, objectHash: missing }), "object_missing",
    `readcache: object sha256-${missing}.txt is missing or damaged in the read cache store ${objStore}`);
  await rejectsWith(readCache({ path: "obj.txt", cwd: root, storeDir: objStore, objectHash: "ABC" }), "invalid_options", 'readcache: objectHash "ABC"');
  await rejectsWith(readCache({ path: "obj.txt", cwd: root, noStore: true, objectHash: sha(content) }), "invalid_options", "readcache: objectHash");
  assert.throws(() => readCache({ path: "obj.txt", objectHash: 1 }), (e) => e instanceof TypeError && /objectHash must be a string/.test(e.message));
});

// (Windows has no FIFOs of this kind.)
if (process.platform !== "win32") {
  it("a FIFO is refused without blocking", async () => {
    const fifo = path.join(root, "fifo");
    execFileSync("mkfifo", [fifo]);
    await rejectsWith(readCache({ path: "fifo", cwd: root }), "not_regular", `Not a regular file: ${fifo}`);
  });
}

it("signal and timeoutMs cancel; nothing is stored", async () => {
  const cancelStore = path.join(root, "cancel-store");
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(readCache({ path: "f.txt", cwd: root, storeDir: cancelStore, signal: ac.signal }), (e) => e.name === "AbortError" && e.message === "Aborted: Signal");
  await rejectsWith(readCache({ path: "f.txt", cwd: root, storeDir: cancelStore, timeoutMs: 0 }), "timeout", "Aborted: Timeout");
  assert.equal(fs.existsSync(cancelStore), false);
  // A signal that does not fire changes nothing.
  const live = new AbortController();
  const r = await readCache({ path: "small.txt", cwd: root, storeDir: cancelStore, signal: live.signal, timeoutMs: 60_000 });
  assert.equal(r.mode, "full");
  // Resolve and store take no signal: it is ignored like any unknown field.
  const res = await readCacheResolve({ path: "small.txt", cwd: root, signal: ac.signal });
  assert.equal(res.path, "small.txt");
});

it("readCacheResolve and readCacheStore", async () => {
  const res = await readCacheResolve({ path: "@f.txt:10-20", cwd: root });
  assert.deepEqual(res, { pathKey: file, absPath: file, path: "@f.txt", offset: 10, limit: 11 });
  const plain = await readCacheResolve({ path: "f.txt", cwd: root, offset: 3 });
  assert.deepEqual(plain, { pathKey: file, absPath: file, path: "f.txt", offset: 3 });

  const st = await readCacheStore({ dir: store });
  assert.equal(st.dir, store);
  // The two versions of f.txt that were read with this store.
  assert.equal(st.objects, 2);
  assert.equal(st.bytes, body.length + edited.length);
  if (process.platform !== "win32") {
    const open = path.join(root, "open-store");
    fs.mkdirSync(open);
    fs.chmodSync(open, 0o777);
    await rejectsWith(readCacheStore({ dir: open }), "store", `read cache store ${open}`);
    const r = await readCache({ path: "small.txt", cwd: root, storeDir: open });
    assert.equal(r.mode, "full");
    assert.ok(r.storeError.includes(open), r.storeError);
  }
  assert.throws(() => readCacheStore({}), (e) => e instanceof TypeError && e.message === "Missing field `dir` on ReadCacheStoreOptions");
});
