// bun:test suite for fscache_list_workspace through bun:ffi (see
// ffi.bun.test.ts for how the others are called): options as JSON, the
// result envelope read and freed, cancellation through an Int32Array.
//
//   FSCACHE_LIB   the library (make sets it); default ../../build/out/libfscache.so
import { afterAll, beforeAll, expect, test } from "bun:test";
import { CString, dlopen, type Pointer } from "bun:ffi";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const LIB = process.env.FSCACHE_LIB || path.join(import.meta.dir, "..", "..", "..", "build", "out", "libfscache.so");

const lib = dlopen(LIB, {
  fscache_list_workspace: { args: ["ptr", "ptr"], returns: "ptr" },
  fscache_free: { args: ["ptr"], returns: "void" },
});
const C = lib.symbols;
const cstr = (s: string) => Buffer.from(s + "\0", "utf8");

type Envelope = { ok?: any; error?: { code: string; message: string } };
function listC(opts: object | string, cancel: Int32Array | null = null): Envelope {
  const json = cstr(typeof opts === "string" ? opts : JSON.stringify(opts));
  const p = C.fscache_list_workspace(json, cancel) as Pointer | null;
  expect(p).not.toBeNull();
  const text = new CString(p!).toString();
  C.fscache_free(p);
  return JSON.parse(text);
}

let root: string;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "fscache-lw-ffi-")));
  const file = (rel: string, text = rel + "\n") => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  file(".gitignore", "docs/AGENTS.md\n*.log\nign/\n");
  file("AGENTS.md");
  file("a.log");
  file("docs/AGENTS.md");
  file("docs/guide.md");
  file("ign/AGENTS.md");
  file("src/lib/deep/er/AGENTS.md");
  file("src/lib/deep/er/est/AGENTS.md");
  file("build/AGENTS.md");
  file("é/AGENTS.md");
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test("entries to maxDepth, sorted, with metadata", () => {
  const r = listC({ path: root, maxDepth: 1 });
  expect(r.error).toBeUndefined();
  expect(r.ok.entries.map((e: any) => e.path)).toEqual(["AGENTS.md", "docs", "src", "é"]);
  const agents = r.ok.entries[0];
  expect(agents.fileType).toBe(1);
  expect(agents.size).toBe("AGENTS.md\n".length);
  expect(typeof agents.mtime).toBe("number");
  expect(r.ok.entries[1].size).toBeUndefined();
  expect(r.ok.agentsMdFiles).toEqual([]);
  expect(r.ok.truncated).toBe(false);
});

test("collectAgentsMd: depth 1..4, gitignored files included, ignored and pruned dirs not", () => {
  const r = listC({ path: root, maxDepth: 1, collectAgentsMd: true });
  expect(r.ok.agentsMdFiles).toEqual(["docs/AGENTS.md", "src/lib/deep/er/AGENTS.md", "é/AGENTS.md"]);
  const deep = listC({ path: root, maxDepth: 2, collectAgentsMd: true, gitignore: false });
  expect(deep.ok.agentsMdFiles).toEqual(["docs/AGENTS.md", "ign/AGENTS.md", "src/lib/deep/er/AGENTS.md", "é/AGENTS.md"]);
  expect(deep.ok.entries.map((e: any) => e.path)).toContain("a.log");
});

test("errors: missing root, file root, bad options, cancel flag", () => {
  const missing = listC({ path: path.join(root, "nope"), maxDepth: 1 });
  expect(missing.error!.code).toBe("path_not_found");
  expect(missing.error!.message).toBe(`Native directory scan failed for ${path.join(root, "nope")}: Path not found: No such file or directory (os error 2)`);
  const file = listC({ path: path.join(root, "AGENTS.md"), maxDepth: 1 });
  expect(file.error!.code).toBe("not_a_directory");
  expect(listC({ path: root }).error!.code).toBe("invalid_options");
  expect(listC({ path: root }).error!.message).toContain("maxDepth");
  expect(listC("not json").error!.code).toBe("invalid_options");
  const cancel = new Int32Array(1);
  cancel[0] = 1;
  const aborted = listC({ path: root, maxDepth: 3 }, cancel);
  expect(aborted.error).toEqual({ code: "aborted", message: "Aborted: Signal" });
});
