// Issue 16, part 1: loading fscache must leave the host's signal handlers
// alone. Bun 1.3.13/1.3.14's JavaScriptCore suspends threads for garbage
// collection with a signal whose handler will not run on an alternate
// signal stack; the Go runtime, when the library loads, used to add
// SA_ONSTACK to that handler, and a collection after WebAssembly had run
// then retried the suspension forever (oven-sh/bun#31158): the timer below
// never fired. Run by `make test-signals-js` (build/mk/signals.mk) under a hard
// time limit, in Bun 1.3.14, the project's Bun and Node (node --expose-gc).
//
// Loads the package (FSCACHE_NODE_ADDON names the addon), makes one call,
// calls a tiny WebAssembly function, collects, then awaits a 50 ms timer and
// prints "ok". A hang is the failure; `timeout` turns it into an exit code.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { glob } from "../index.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fscache-signals-"));
try {
  fs.writeFileSync(path.join(dir, "a.txt"), "hello\n");
  const res = await glob({ pattern: "*.txt", path: dir });
  if (res.matches.length !== 1) throw new Error(`glob found ${res.matches.length} files, want 1`);

  // (module (func (export "f") (result i32) (local i32)
  //   (loop (local.set 0 (i32.add (local.get 0) (i32.const 1)))
  //     (br_if 0 (i32.lt_s (local.get 0) (i32.const 10000))))
  //   (local.get 0)))
  // The loop is what matters: it gets the function tiered up, and the
  // compiler thread then suspends the JS thread (oven-sh/bun#31161's repro).
  const wasm = new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
    0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f, // type 0: () -> i32
    0x03, 0x02, 0x01, 0x00, // function 0 has type 0
    0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00, // export "f" = function 0
    0x0a, 0x22, 0x01, 0x20, 0x01, 0x01, 0x7f, // code: one body, one i32 local
    0x41, 0x00, 0x21, 0x00, // i32.const 0, local.set 0
    0x02, 0x40, 0x03, 0x40, // block, loop
    0x20, 0x00, 0x41, 0x01, 0x6a, 0x21, 0x00, // local 0 += 1
    0x20, 0x00, 0x41, 0x90, 0xce, 0x00, 0x48, 0x0d, 0x00, // br_if 0 (local 0 < 10000)
    0x0b, 0x0b, 0x20, 0x00, 0x0b, // end loop, end block, local.get 0, end
  ]);
  const f = new WebAssembly.Instance(new WebAssembly.Module(wasm)).exports.f;
  const n = f();
  if (n !== 10000) throw new Error(`wasm f() = ${n}, want 10000`);

  if (typeof Bun !== "undefined") Bun.gc(true);
  else if (typeof globalThis.gc === "function") globalThis.gc();
  else throw new Error("no way to collect: run node with --expose-gc");

  await new Promise((resolve) => setTimeout(resolve, 50));
  console.log(`ok ${typeof Bun !== "undefined" ? `bun ${Bun.version}` : `node ${process.version}`}`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
