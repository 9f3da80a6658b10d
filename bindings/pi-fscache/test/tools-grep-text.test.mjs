// pi-fscache's grep shows the text of the bytes fscache searched (issue
// 45, item 3): a file rewritten between fscache's search and the
// formatting of its answer gets the search's lines, never fscache's line
// numbers paired with the new file's text. The rewrite is made by the
// tool's afterSearch hook (tests only), between the two; the expected text
// is pi's built-in grep's (rg) on the file before the rewrite.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import { run, setupBuiltinTools } from "./tools-harness.mjs";

const env = setupBuiltinTools();
const pi = await import("@mariozechner/pi-coding-agent");
const { createGrepOverride } = await import("../src/tools/grep.js");

after(() => fs.rmSync(env.dir, { recursive: true, force: true }));

const BEFORE = [
  "package a",
  "",
  "// first needle   ", // trailing white space: rg keeps it
  "func F() {}\r", // a CRLF line
  "// second needle",
  "\treturn",
  "}",
  "",
].join("\n");
// Other lines at the same numbers, and more of them.
const AFTER = ["x1", "x2", "x3 needle", "x4", "x5", "x6", "x7", "x8", "x9", ""].join("\n");

const cases = [
  { pattern: "needle" },
  { pattern: "needle", context: 1 },
  { pattern: "needle", context: 3 },
  { pattern: "needle", context: 1, limit: 1 },
];

for (const params of cases) {
  test(`grep ${JSON.stringify(params)}: the lines searched, with a rewrite before the report`, async () => {
    const cwd = fs.mkdtempSync(path.join(env.dir, "rewrite-"));
    const file = path.join(cwd, "a.go");
    fs.writeFileSync(file, BEFORE);
    const want = await run(pi.createGrepToolDefinition(cwd), params, cwd);
    assert.equal(want.error, undefined, `the built-in failed: ${want.error}`);
    assert.match(want.text, /a\.go:3: \/\/ first needle {3}/);
    let rewrites = 0;
    const ours = createGrepOverride(cwd, {
      afterSearch: () => {
        fs.writeFileSync(file, AFTER);
        rewrites++;
      },
    });
    const got = await run(ours, params, cwd);
    assert.equal(rewrites, 1, "the hook ran between the search and the report");
    assert.equal(got.error, undefined, `ours failed: ${got.error}`);
    assert.equal(got.text, want.text, "the text of the lines searched");
    assert.deepEqual(got.details, want.details);
    // The next grep searches the new content.
    const now = await run(pi.createGrepToolDefinition(cwd), params, cwd);
    const next = await run(createGrepOverride(cwd), params, cwd);
    assert.equal(next.text, now.text, "the next grep: the file as rewritten");
    assert.match(next.text, /a\.go:3: x3 needle/);
  });
}

// Random small files of CRLF, lone CR, invalid UTF-8, trailing white space,
// with and without a final newline: ours is the built-in's text, byte for
// byte, but where a lone "\r" lies before a block (pi's split then numbers
// lines otherwise; docs/pi-tools.md, item 8), which is left out.
test("random files: the built-in's text", async () => {
  const parts = ["a", "TODO", " ", "\t", "\r\n", "\n", "\n", "\n", "\r", "\xff", "é", "x TODO y", "b c", "\r\n"];
  let seed = 45;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  let compared = 0;
  let left = 0;
  for (let k = 0; k < 100; k++) {
    const cwd = fs.mkdtempSync(path.join(env.dir, "random-"));
    const chunks = [];
    for (let i = 0, n = 4 + rand(30); i < n; i++) {
      const p = parts[rand(parts.length)];
      chunks.push(p === "\xff" ? Buffer.from([0xff]) : Buffer.from(p));
    }
    const bytes = Buffer.concat(chunks);
    fs.writeFileSync(path.join(cwd, "r.txt"), bytes);
    const params = { pattern: "TODO", context: rand(4) };
    const want = await run(pi.createGrepToolDefinition(cwd), params, cwd);
    const got = await run(createGrepOverride(cwd), params, cwd);
    assert.equal(got.error, want.error);
    // Where a lone CR precedes a block's first line, pi numbers lines otherwise.
    const lineStarts = [0];
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) lineStarts.push(i + 1);
    const firstLoneCR = bytes.findIndex((b, i) => b === 13 && bytes[i + 1] !== 10);
    const lines = (got.text ?? "").split("\n").map((l) => /^r\.txt:(\d+): /.exec(l)).filter(Boolean);
    const shifted = lines.some((m) => {
      const n = Number(m[1]);
      const first = Math.max(1, n - (params.context || 0));
      return firstLoneCR >= 0 && firstLoneCR < lineStarts[first - 1];
    });
    if (shifted) {
      left++;
      continue;
    }
    compared++;
    assert.equal(got.text, want.text, `${JSON.stringify(bytes.toString("latin1"))} ${JSON.stringify(params)}`);
    assert.deepEqual(got.details, want.details);
  }
  assert.ok(compared >= 50, `only ${compared} of 100 compared (${left} after a lone CR)`);
});
