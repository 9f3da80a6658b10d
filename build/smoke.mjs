// smoke.mjs NAME: what an agent does with an installed fscache, imported as
// NAME ("fscache-native" or "@oh-my-pi/pi-natives"): a find-tool-shaped glob, a
// cached fuzzyFind, an invalidation after a write, a grep. Run by
// build/test-dist.sh in Node, Bun and an arm64 Node under qemu, in a
// project that has only the installed tarballs. Exits non-zero on a failure.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const name = process.argv[2];
const m = await import(name);
const { glob, fuzzyFind, grep, invalidateFsScanCache, FileType, GrepOutputMode } = m;
const runtime = typeof globalThis.Bun !== "undefined" ? `bun ${Bun.version}` : `node ${process.version}`;

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "fscache-smoke-")));
const put = (rel, body) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), body);
};
try {
  fs.mkdirSync(path.join(root, ".git"));
  put(".gitignore", "ignored/\n");
  put("src/app.ts", "export const needle = 1;\n");
  put("src/util/helper.ts", "export const other = 2;\n");
  put("ignored/skip.ts", "export const needle = 3;\n");
  put(".hidden/h.ts", "//\n");
  put("node_modules/dep/index.ts", "export const needle = 4;\n");
  put("README.md", "# needle\n");

  // The find tool: hidden, gitignore, sortByMtime, a limit, a signal and a timeout.
  const seen = [];
  const ac = new AbortController();
  const found = await glob(
    { pattern: "**/*.ts", path: root, hidden: true, gitignore: true, sortByMtime: true, maxResults: 100, signal: ac.signal, timeoutMs: 10_000 },
    (err, match) => {
      assert.equal(err, null);
      seen.push(match.path);
    },
  );
  assert.deepEqual(found.matches.map((x) => x.path).sort(), [".hidden/h.ts", "src/app.ts", "src/util/helper.ts"]);
  assert.equal(found.totalMatches, 3);
  assert.ok(found.matches.every((x) => x.fileType === FileType.File && typeof x.mtime === "number"));
  assert.deepEqual(seen.sort(), [".hidden/h.ts", "src/app.ts", "src/util/helper.ts"]);

  // @-mention: a cached fuzzyFind, then a write, an invalidation and the same call.
  const first = await fuzzyFind({ query: "helper", path: root, cache: true, maxResults: 10 });
  assert.deepEqual(first.matches.map((x) => x.path), ["src/util/helper.ts"]);
  put("src/util/helper2.ts", "\n");
  invalidateFsScanCache(path.join(root, "src/util/helper2.ts"));
  const again = await fuzzyFind({ query: "helper", path: root, cache: true, maxResults: 10 });
  assert.deepEqual(again.matches.map((x) => x.path).sort(), ["src/util/helper.ts", "src/util/helper2.ts"]);

  // grep: content mode, gitignore and node_modules honoured.
  const hits = await grep({ pattern: "needle", path: root, mode: GrepOutputMode.Content });
  assert.deepEqual(hits.matches.map((x) => [x.path, x.lineNumber]).sort(), [["README.md", 1], ["src/app.ts", 1]]);
  assert.equal(hits.totalMatches, 2);
  await assert.rejects(grep({ pattern: "(", path: path.join(root, "nope") }), /Path not found/);

  console.log(`smoke ok: ${name} on ${runtime}, ${process.platform}-${process.arch}`);
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
