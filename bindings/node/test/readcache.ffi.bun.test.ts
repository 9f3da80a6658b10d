// bun:test suite for the read cache's C calls through bun:ffi
// (fscache_read_cache, fscache_read_cache_resolve, fscache_read_cache_store;
// see ffi.bun.test.ts for how the others are called): options as JSON, the
// result envelope read and freed, cancellation through an Int32Array.
//
//   FSCACHE_LIB   the library (make sets it); default ../../build/out/libfscache.so
import { afterAll, beforeAll, expect, test } from "bun:test";
import { CString, dlopen, type Pointer } from "bun:ffi";
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const LIB = process.env.FSCACHE_LIB || path.join(import.meta.dir, "..", "..", "..", "build", "out", "libfscache.so");

const lib = dlopen(LIB, {
  fscache_read_cache: { args: ["ptr", "ptr"], returns: "ptr" },
  fscache_read_cache_resolve: { args: ["ptr"], returns: "ptr" },
  fscache_read_cache_store: { args: ["ptr"], returns: "ptr" },
  fscache_free: { args: ["ptr"], returns: "void" },
});
const C = lib.symbols;
const cstr = (s: string) => Buffer.from(s + "\0", "utf8");
const sha = (s: string) => createHash("sha256").update(s).digest("hex");

type Envelope = { ok?: any; error?: { code: string; message: string } };
function envelope(p: Pointer | null): Envelope {
  expect(p).not.toBeNull();
  const text = new CString(p!).toString();
  C.fscache_free(p);
  return JSON.parse(text);
}
const json = (opts: object | string) => cstr(typeof opts === "string" ? opts : JSON.stringify(opts));
const read = (opts: object | string, cancel: Int32Array | null = null) => envelope(C.fscache_read_cache(json(opts), cancel) as Pointer | null);
const resolve = (opts: object | string) => envelope(C.fscache_read_cache_resolve(json(opts)) as Pointer | null);
const storeInfo = (opts: object | string) => envelope(C.fscache_read_cache_store(json(opts)) as Pointer | null);

let root: string, store: string, body: string;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "fscache-rc-ffi-")));
  store = path.join(root, "store");
  body = Array.from({ length: 200 }, (_, i) => `row ${i + 1} é\n`).join("");
  fs.writeFileSync(path.join(root, "f.txt"), body);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test("first read, marker, diff: the engine's answers through the C ABI", () => {
  const first = read({ path: "f.txt", cwd: root, storeDir: store });
  expect(first.error).toBeUndefined();
  expect(first.ok.mode).toBe("full");
  expect(first.ok.text).toBe(body);
  expect(first.ok.meta.servedHash).toBe(sha(body));
  expect(first.ok.meta.totalLines).toBe(201);

  const bases = { full: first.ok.meta.servedHash };
  const again = read({ path: "f.txt", cwd: root, storeDir: store, pathKey: first.ok.pathKey, bases });
  expect(again.ok.mode).toBe("unchanged");
  expect(again.ok.text).toBe("[readcache: unchanged, 201 lines]");
  expect(again.ok.meta.baseHash).toBe(sha(body));

  const edited = body.replace("row 50 é\n", "row fifty é\n");
  fs.writeFileSync(path.join(root, "f.txt"), edited);
  const d = read({ path: "f.txt", cwd: root, storeDir: store, pathKey: first.ok.pathKey, bases });
  expect(d.ok.mode).toBe("diff");
  expect(d.ok.text.startsWith("[readcache: 1 lines changed of 201]\n")).toBe(true);
  expect(d.ok.text).toContain("\n-row 50 é\n+row fifty é\n");
  expect(d.ok.meta.servedHash).toBe(sha(edited));

  const info = storeInfo({ dir: store });
  expect(info.ok).toEqual({ dir: store, objects: 2, bytes: Buffer.byteLength(body) + Buffer.byteLength(edited) });
});

test("a range and its marker; resolve", () => {
  const r = read({ path: "f.txt", cwd: root, offset: 5, limit: 3, noStore: true });
  expect(r.ok.mode).toBe("full");
  expect(r.ok.meta.scopeKey).toBe("r:5:7");
  expect(r.ok.text.startsWith("row 5 é\nrow 6 é\nrow 7 é\n\n[")).toBe(true);
  const again = read({ path: "f.txt:5-7", cwd: root, noStore: true, pathKey: r.ok.pathKey, bases: { "r:5:7": r.ok.meta.servedHash } });
  expect(again.ok.mode).toBe("unchanged_range");
  expect(again.ok.text).toBe("[readcache: unchanged in lines 5-7 of 201]");
  const res = resolve({ path: "f.txt:5-7", cwd: root });
  expect(res.ok).toEqual({ pathKey: path.join(root, "f.txt"), absPath: path.join(root, "f.txt"), path: "f.txt", offset: 5, limit: 3 });
});

test("errors: codes pass through; a raised flag cancels", () => {
  expect(read({ path: "f.txt:9-2", cwd: root }).error!.code).toBe("invalid_range");
  const beyond = read({ path: "f.txt", cwd: root, offset: 500 });
  expect(beyond.error).toEqual({ code: "offset_beyond_eof", message: "Offset 500 is beyond end of file (201 lines total)" });
  const fifo = path.join(root, "fifo");
  execFileSync("mkfifo", [fifo]);
  const f = read({ path: "fifo", cwd: root });
  expect(f.error!.code).toBe("not_regular");
  expect(f.error!.message).toContain(fifo);
  expect(read("not json").error!.code).toBe("invalid_options");
  expect(read({ cwd: root }).error!.message).toContain("ReadCacheOptions.path: missing");
  expect(resolve({ path: "f.txt:0", cwd: root }).error!.code).toBe("invalid_range");
  expect(storeInfo({}).error!.code).toBe("invalid_options");

  const flag = new Int32Array(1);
  flag[0] = 1;
  const cancelStore = path.join(root, "cancelled-store");
  expect(read({ path: "f.txt", cwd: root, storeDir: cancelStore }, flag).error).toEqual({ code: "cancelled", message: "Operation aborted" });
  expect(read({ path: "f.txt", cwd: root, storeDir: cancelStore, timeoutMs: 0 }).error).toEqual({ code: "timeout", message: "Aborted: Timeout" });
  expect(fs.existsSync(cancelStore)).toBe(false);
  flag[0] = 0;
  expect(read({ path: "f.txt", cwd: root, storeDir: cancelStore }, flag).ok.mode).toBe("full");
});
