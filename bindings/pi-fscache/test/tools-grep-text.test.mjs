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
