// Differential test (issue 36): pi 0.73.1's built-in find, grep and ls
// (fd and rg from the distribution on PATH) against pi-fscache's overrides,
// over Go's src (read-only) and a tree made here. Identical text where the
// built-in is deterministic; where it is not (rg's file order across
// threads; which results fd or rg keep when a limit cuts them), the same
// lines, and with a limit a subset of the full answer of the same size.
// Explained differences (docs/pi-tools.md) are excluded by construction:
// the tree's git repository marker is above the searched root (fd and rg
// list and search .git's contents; fscache never does), and no .fdignore
// or .rgignore files.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { run, setupBuiltinTools } from "./tools-harness.mjs";

const env = setupBuiltinTools();
const { pi, LINE } = await import("./pi-line.mjs");
const { createFindOverride } = await import("../src/tools/find.js");
const { createGrepOverride } = await import("../src/tools/grep.js");
const { createLsOverride } = await import("../src/tools/ls.js");
const { comparePaths } = await import("../src/tools/common.js");

const GOROOT_SRC = path.join(execFileSync("go", ["env", "GOROOT"], { encoding: "utf8" }).trim(), "src");
const REPO = path.join(env.dir, "repo");
const TREE = path.join(REPO, "work");

function w(rel, content) {
  const p = path.join(TREE, rel);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, content);
}

function makeTree() {
  mkdirSync(path.join(REPO, ".git"), { recursive: true }); // the repository: .gitignore files apply
  w(".gitignore", "*.log\nbuild/\n!keep.log\ndist\n");
  w(".ignore", "secret*\n");
  w("keep.log", "log line TODO keep\n");
  w("drop.log", "log line TODO drop\n");
  w("build/out.js", "TODO built\n");
  w("dist/bundle.js", "TODO bundled\n");
  w("secret.txt", "TODO secret\n");
  w(".env", "TOKEN=abc TODO\n");
  w(".config/settings.json", '{ "todo": "TODO hidden" }\n');
  w("node_modules/pkg/index.js", "module.exports = 1; // TODO module\n");
  w("README.md", "# Readme\nTODO: write\nSee also readme.txt\n");
  w("readme.txt", "lower readme TODO\n");
  w("Makefile", "all:\n\techo TODO\n");
  w("src/main.go", "package main\n\nfunc main() {\n\t// TODO main   \n\tprintln(\"hi\")\n}\n");
  w("src/util/strings.go", "package util\n\nfunc Upper(s string) string { return s } // TODO upper\n");
  w("src/util/strings_test.go", "package util\n\n// TODO test\nfunc TestUpper(t *T) {}\n");
  w("src/app.ts", "export const a = 1; // TODO ts\nexport function foo(x: number) { return x + 1 }\n");
  w("src/app.spec.ts", "describe('a', () => { /* TODO spec */ })\n");
  w("src/Component.TSX", "export default () => null // TODO tsx\n");
  w("src/a.b", "dot TODO\n");
  w("src/a-b", "dash TODO\n");
  w("src/a/x.txt", "slash TODO\n");
  w("src/sub/.gitignore", "gen/\n");
  w("src/sub/gen/file.go", "// TODO generated\n");
  w("src/sub/real.go", "// TODO real\nfoo(bar)\n");
  w("crlf.txt", "first TODO line\r\nsecond line\r\nthird TODO\r\n");
  w("cr-inner.txt", "a\rb TODO c\nnext TODO\n");
  w("trailing.txt", "TODO trailing spaces   \nTODO tab\t\n\nlast TODO");
  w("long.txt", `${"x".repeat(600)} TODO long\nshort TODO\n${"y".repeat(499)}TODO\n`);
  w("unicode.txt", "héllo TODO wörld\nÉCOLE todo\nnaïve TODO ✓\n");
  writeFileSync(path.join(TREE, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x54, 0x4f, 0x44, 0x4f, 0x0a, 0x6f, 0x6b, 0x20, 0x54, 0x4f, 0x44, 0x4f, 0x0a]));
  writeFileSync(path.join(TREE, "binary.bin"), Buffer.concat([Buffer.from("TODO binary\n"), Buffer.alloc(16), Buffer.from("TODO after nul\n")]));
  writeFileSync(path.join(TREE, "bom.txt"), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("TODO bom first\nsecond TODO\n")]));
  const ctx = [];
  for (let i = 1; i <= 40; i++) ctx.push(i % 3 === 0 ? `line ${i} TODO ctx` : `line ${i}`);
  w("context.txt", ctx.join("\n") + "\n");
  const many = [];
  for (let i = 0; i < 300; i++) many.push(`match ${i} needle ${"z".repeat(200)}`);
  w("big/many.txt", many.join("\n") + "\n");
  for (let i = 0; i < 1100; i++) w(`bulk/dir${i % 7}/file_${String(i).padStart(4, "0")}_${"n".repeat(40)}.dat`, `needle ${i}\n`);
  w("deep/a/b/c/d/e/deep.go", "package e // TODO deep\n");
  w("space dir/file name.txt", "TODO space\n");
  w("[brackets].txt", "TODO brackets\n");
  w("empty-dir/.keep", "");
  mkdirSync(path.join(TREE, "really-empty"));
  symlinkSync("src", path.join(TREE, "link-src"));
  symlinkSync("README.md", path.join(TREE, "link-readme"));
  symlinkSync("nowhere", path.join(TREE, "link-broken"));
}

const findCases = [];
const grepCases = [];
const lsCases = [];

function cases() {
  const fp = [
    "*", "*.go", "*.GO", "*.ts", "*.tsx", "readme*", "README*", "Readme.md", "*.md", "**", "", "*.log", "*.json", ".*",
    "*.{ts,go}", "[ab]*", "[!a-z]*", "?.b", "a?b", "*_test.go", "file_00*", "file_1??9*", "*.dat",
    "src/*.go", "src/**/*.go", "**/*.go", "util/*", "**/util/**", "src/**", "/nonexistent/*", "work/src/*.ts", "repo/**/main.go",
    "deep/**/deep.go", "*/*.txt", "src/a*", "**/*.spec.ts", "*spec*", "nomatch-xyz", "{a", "[a", "a\\", "[z-a]", "link-*",
    "file name.txt", "\\[brackets\\].txt", "[[]brackets*", "*.{TXT,txt}", "b*/d*/", "bulk", "bulk/dir1",
  ];
  for (const p of fp) findCases.push({ root: TREE, params: { pattern: p } });
  for (const p of ["*", "*.dat", "*.go", "src/**", "*.txt"]) {
    for (const limit of [1, 3, 10, 0]) findCases.push({ root: TREE, params: { pattern: p, limit } });
  }
  findCases.push({ root: TREE, params: { pattern: "*.go", path: "src" } });
  findCases.push({ root: TREE, params: { pattern: "*", path: "src/util" } });
  findCases.push({ root: TREE, params: { pattern: "*.go", path: "missing-dir" } });
  findCases.push({ root: TREE, params: { pattern: "*.go", path: "README.md" } });
  findCases.push({ root: TREE, params: { pattern: "*.dat", limit: 2000 } });
  findCases.push({ root: TREE, params: { pattern: "*.dat", limit: 5.5 } });
  findCases.push({ root: TREE, params: { pattern: "*", path: "empty-dir" } });
  findCases.push({ root: TREE, params: { pattern: "*", path: "really-empty" } });
  // what pi 1.x's rewrite changed (issue 43): "./", patterns anchored at
  // the search path and its smart case, the limit (floored, at least 1,
  // reported only when a result past it exists), path resolution
  // (absolute paths normalized, file:// URLs)
  for (const p of ["./*.go", "./src/*.go", "././src/**", "src/util/*", "SRC/*.go", "src/*.GO", "Src/**", "src/sub/**", "**/sub/**", "/**/util/*", "src", "src/", "deep/**/e/*", "src/{a,sub}/*"]) {
    findCases.push({ root: TREE, params: { pattern: p } });
  }
  findCases.push({ root: TREE, params: { pattern: "util/*", path: "src" } });
  findCases.push({ root: TREE, params: { pattern: "./util/*.go", path: "src" } });
  findCases.push({ root: TREE, params: { pattern: "*.go", path: "src/../src" } });
  findCases.push({ root: TREE, params: { pattern: "*.go", path: `${TREE}/src/../src` } });
  findCases.push({ root: TREE, params: { pattern: "*.go", path: `file://${TREE}/src` } });
  findCases.push({ root: TREE, params: { pattern: "*.go", path: "@src" } });
  for (const [p, limit] of [["Makefile", 1], ["*.md", 1], ["*.go", 6], ["*.go", 7], ["*.go", -1], ["*.go", 2.5], ["*", 0.5], ["*.go", 4294967296], ["*.go", 1e300]]) {
    findCases.push({ root: TREE, params: { pattern: p, limit } });
  }
  for (const p of ["*.go", "*_test.go", "README*", "*.s", "Make*", "*.json", "go.mod", "*", "runtime/*.go", "net/http/**/*.go", "**/testdata/**", "src/sort/*.go", "*.{c,h}", "zstd/*", "*.GO", "doc.go"]) {
    findCases.push({ root: GOROOT_SRC, params: { pattern: p } });
  }
  for (const p of ["*.go", "*"]) findCases.push({ root: GOROOT_SRC, params: { pattern: p, limit: 50 } });
  findCases.push({ root: GOROOT_SRC, params: { pattern: "*.go", path: "sort" } });
  findCases.push({ root: GOROOT_SRC, params: { pattern: "*", path: "internal/zstd", limit: 5 } });

  const gp = [
    { pattern: "TODO" }, { pattern: "todo", ignoreCase: true }, { pattern: "TODO", glob: "*.go" }, { pattern: "TODO", glob: "*.{ts,TSX}" },
    { pattern: "TODO", glob: "**/*.spec.ts" }, { pattern: "TODO", glob: "src/**/*.go" }, { pattern: "TODO", glob: "!*.txt" }, { pattern: "TODO", context: 1 },
    { pattern: "TODO", context: 2, path: "context.txt" }, { pattern: "TODO ctx", context: 3 }, { pattern: "foo(", literal: true }, { pattern: "foo(" },
    { pattern: "(unclosed" }, { pattern: "unopened)" }, { pattern: "[a" }, { pattern: "a{2,1}" }, { pattern: "x+", glob: "{a" }, { pattern: "needle" },
    { pattern: "needle", limit: 5 }, { pattern: "needle", limit: 1 }, { pattern: "needle", path: "big/many.txt" }, { pattern: "needle", path: "big/many.txt", limit: 1000 },
    { pattern: "needle", path: "big/many.txt", limit: 250 }, { pattern: "needle", path: "big", context: 1, limit: 40 }, { pattern: "TODO long" }, { pattern: "TODO", path: "long.txt" },
    { pattern: "x{10}", path: "long.txt", context: 1 }, { pattern: "TODO", path: "crlf.txt" }, { pattern: "TODO", path: "crlf.txt", context: 1 }, { pattern: "TODO", path: "cr-inner.txt" },
    { pattern: "TODO", path: "cr-inner.txt", context: 1 }, { pattern: "TODO", path: "trailing.txt" }, { pattern: "TODO$", path: "trailing.txt" }, { pattern: "TODO", path: "latin1.txt" },
    { pattern: "TODO", path: "unicode.txt" }, { pattern: "école", ignoreCase: true, path: "unicode.txt" }, { pattern: "TODO", path: "bom.txt" }, { pattern: "TODO$", path: "bom.txt" },
    { pattern: "TODO", path: "missing.txt" }, { pattern: "TODO", path: "src" }, { pattern: "TODO", path: "src/main.go", context: 5 }, { pattern: "\\bfunc\\s+\\w+", glob: "*.go" },
    { pattern: "a.b", literal: true }, { pattern: "a.b" }, { pattern: "TODO", path: ".config" }, { pattern: "TOKEN" }, { pattern: "module" }, { pattern: "nomatch_xyz_123" },
{ pattern: "TODO", path: "node_modules" }, { pattern: "TODO", path: "src/sub" }, { pattern: "TODO", path: "space dir" },
    { pattern: "TODO", limit: 0 }, { pattern: "TODO", limit: 2, context: 1 }, { pattern: "TODO", context: -1, path: "context.txt" }, { pattern: "\\d+ needle", path: "big/many.txt", limit: 3 },
    { pattern: "(?i)readme" }, { pattern: "TODO|needle 7\\b" }, { pattern: "wörld" }, { pattern: "✓" }, { pattern: "TODO", glob: "[[]brackets*" },
  ];
  for (const p of gp) grepCases.push({ root: TREE, params: p });
  const gg = [
    { pattern: "func main\\(" }, { pattern: "TODO\\(", limit: 20 }, { pattern: "bufio", glob: "*.go", limit: 50 }, { pattern: "package sort", path: "sort" },
    { pattern: "func Sort", path: "sort/sort.go" }, { pattern: "func Sort", path: "sort/sort.go", context: 2 }, { pattern: "nolint", ignoreCase: true }, { pattern: "syscall.Errno(", literal: true },
    { pattern: "Copyright 2009", limit: 5 }, { pattern: "zstd", path: "internal/zstd", context: 1, limit: 10 }, { pattern: "xxhash64" }, { pattern: "\\bNewReader\\b", glob: "**/bufio/*.go" },
    { pattern: "return errors.New", path: "strconv" }, { pattern: "fmt.Errorf", glob: "net/**", limit: 30 }, { pattern: "no such pattern anywhere 42" }, { pattern: "goroutine", path: "runtime/proc.go", limit: 1000 },
    { pattern: "^// Package sort" }, { pattern: "TODO", path: "cmd/go/internal/modload", limit: 500 }, { pattern: "unsafe.Pointer", glob: "*_test.go", limit: 100 }, { pattern: "\\t+return nil$", path: "io" },
  ];
  for (const p of gg) grepCases.push({ root: GOROOT_SRC, params: p });
  // what pi 1.x's rewrite changed (issue 43): context as rg gives it and
  // the trailing context of the last match kept, a match in it shown as
  // context; the limit (floored, at least 1, reported only when a match
  // past it exists); context floored; "./" dropped from globs; globs
  // rooted at the searched directory; path resolution
  const g1 = [
    { pattern: "TODO", path: "context.txt", context: 4, limit: 2 }, { pattern: "TODO", path: "context.txt", context: 2, limit: 3 },
    { pattern: "TODO", path: "context.txt", context: 1, limit: 13 }, { pattern: "TODO", path: "context.txt", limit: 13 },
    { pattern: "TODO", path: "context.txt", limit: 12 }, { pattern: "TODO", path: "context.txt", limit: 2.5 },
    { pattern: "TODO", path: "context.txt", context: 1.5, limit: 4 }, { pattern: "TODO", path: "context.txt", context: 0.5, limit: 4 },
    { pattern: "line 1$|line 40", path: "context.txt", context: 2 }, { pattern: "TODO", path: "latin1.txt", context: 1 },
    { pattern: "TODO", path: "bom.txt", context: 1 }, { pattern: "TODO", path: "trailing.txt", context: 1 }, { pattern: "TODO", path: "long.txt", context: 1 },
    { pattern: "TODO", glob: "./*.go" }, { pattern: "TODO", glob: "!./*.txt" }, { pattern: "TODO", context: 1, limit: 5 },
    { pattern: "TODO", path: `${TREE}/src/../src` }, { pattern: "TODO", path: "missing/../context.txt", limit: 1 },
    { pattern: "TODO", path: `file://${TREE}/src` }, { pattern: "TODO", path: "@src/main.go" }, { pattern: "needle", path: "big/many.txt", limit: 300 },
    { pattern: "needle", path: "big/many.txt", limit: 299, context: 2 }, { pattern: "TODO", path: "context.txt", limit: 4294967296 },
    { pattern: "TODO", path: "context.txt", limit: 1e300 }, { pattern: "TODO", path: "src/main.go", context: 1e300 }, { pattern: "TODO", path: "src/main.go", glob: "*.txt" },
  ];
  for (const p of g1) grepCases.push({ root: TREE, params: p });
  // pi 0.73 matches a glob with '/' against the path relative to its
  // working directory (difference 4, docs/pi-tools.md); pi 1.x, as fscache,
  // relative to the searched directory
  if (LINE === "1") {
    grepCases.push({ root: TREE, params: { pattern: "TODO", path: "src", glob: "util/*.go" } });
    grepCases.push({ root: TREE, params: { pattern: "TODO", path: "src", glob: "**/sub/*.go", context: 1 } });
  }

  for (const p of [".", "src", "src/util", ".config", "bulk/dir0", "bulk", "missing", "README.md", "really-empty", "empty-dir", "link-src", "node_modules", "space dir"]) {
    lsCases.push({ root: TREE, params: { path: p } });
  }
  for (const limit of [0, 1, 3, 10, 500]) lsCases.push({ root: TREE, params: { limit } });
  lsCases.push({ root: TREE, params: { path: "bulk/dir1", limit: 100 } });
  for (const limit of [2.5, -3, 0.5]) lsCases.push({ root: TREE, params: { limit } });
  for (const p of [`${TREE}/src/../src/`, `file://${TREE}/src`, "@src", "src/util/../util"]) lsCases.push({ root: TREE, params: { path: p } });
  lsCases.push({ root: TREE, params: {} });
  for (const p of [".", "runtime", "sort", "internal", "cmd/go/internal", "net/http", "archive/tar/testdata"]) lsCases.push({ root: GOROOT_SRC, params: { path: p } });
  lsCases.push({ root: GOROOT_SRC, params: { path: "runtime", limit: 50 } });
}

function body(r) {
  // the text without the trailing notice block
  const i = r.text.lastIndexOf("\n\n[");
  return i < 0 ? r.text : r.text.slice(0, i);
}
function notice(r) {
  const i = r.text.lastIndexOf("\n\n[");
  return i < 0 ? "" : r.text.slice(i);
}
function sortedLines(s) {
  return s.split("\n").sort();
}

let calls = 0;
const report = [];

// Explained difference (docs/pi-tools.md): fscache's grep never searches
// node_modules directories; rg does when no ignore rule excludes them.
function explained(kind, r) {
  if (kind !== "grep" || r.text === undefined) return r;
  const i = r.text.lastIndexOf("\n\n[");
  const head = i < 0 ? r.text : r.text.slice(0, i);
  const kept = head.split("\n").filter((l) => !/^(?:[^:]*\/)?node_modules\//.test(l));
  if (kept.length === 0) return { text: "No matches found", details: undefined };
  return { ...r, text: kept.join("\n") + (i < 0 ? "" : r.text.slice(i)) };
}

// The whole answer, straight from fd or rg (pi's own calls, without a
// limit): relative paths for find, "path:line" for grep.
function fullSet(kind, c) {
  const root = path.resolve(c.root, c.params.path || ".");
  if (kind === "find") {
    const args = ["--glob", "--color=never", "--hidden", "--max-results", "100000000"];
    let p = c.params.pattern;
    if (p.includes("/")) {
      args.push("--full-path");
      if (!p.startsWith("/") && !p.startsWith("**/") && p !== "**") p = `**/${p}`;
    }
    args.push("--", p, root);
    const out = execFileSync(path.join(env.dir, "bin", "fd"), args, { encoding: "utf8", maxBuffer: 1 << 30 });
    return new Set(out.split("\n").filter(Boolean).map((l) => l.slice(root.length + 1).replace(/\/$/, "")));
  }
  const args = ["--json", "--line-number", "--color=never", "--hidden"];
  if (c.params.ignoreCase) args.push("--ignore-case");
  if (c.params.literal) args.push("--fixed-strings");
  if (c.params.glob) args.push("--glob", c.params.glob);
  args.push("--", c.params.pattern, root);
  let out = "";
  try {
    out = execFileSync(env.rg, args, { encoding: "utf8", maxBuffer: 1 << 30 });
  } catch (e) {
    out = e.stdout || "";
  }
  const set = new Set();
  for (const line of out.split("\n")) {
    if (!line.startsWith('{"type":"match"')) continue;
    const ev = JSON.parse(line);
    set.add(`${path.relative(root, ev.data.path.text) || path.basename(ev.data.path.text)}:${ev.data.line_number}`);
  }
  return set;
}

async function compare(kind, c, builtin, ours) {
  calls++;
  const b = explained(kind, await run(builtin, c.params, c.root));
  const o = await run(ours, c.params, c.root);
  const label = `${kind} ${JSON.stringify(c.params)} in ${c.root === TREE ? "tree" : "go/src"}`;
  if (b.error !== undefined || o.error !== undefined) {
    assert.equal(o.error, b.error, `${label}: error`);
    return;
  }
  const limitKey = kind === "find" ? "resultLimitReached" : kind === "grep" ? "matchLimitReached" : "entryLimitReached";
  const deterministic =
    kind === "ls" ||
    (kind === "find" && b.details?.[limitKey] === undefined && !(c.params.limit > 1000) && fdSorted(b)) ||
    (kind === "grep" && !isDirParam(c) && b.details?.[limitKey] === undefined);
  if (deterministic) {
    assert.equal(o.text, b.text, `${label}: text`);
    assert.deepEqual(o.details, b.details, `${label}: details`);
    return;
  }
  assert.equal(o.details?.[limitKey], b.details?.[limitKey], `${label}: limit`);
  if (b.details?.[limitKey] === undefined) assert.equal(notice(o), notice(b), `${label}: notices`);
  else {
    const lim = (r) => (notice(r).match(/\d+(?:\.\d+)? \w+ limit reached\. Use limit=[\d.]+ for more(?:, or refine pattern)?/) || [""])[0];
    assert.equal(lim(o), lim(b), `${label}: limit notice`);
  }
  if (b.details?.[limitKey] === undefined && !b.details?.truncation) {
    assert.deepEqual(sortedLines(o.text), sortedLines(b.text), `${label}: lines`);
    assert.deepEqual(o.details, b.details, `${label}: details`);
    return;
  }
  // a limit cut the answer: ours is a subset of the full answer, of the same size
  const all = fullSet(kind, c);
  const mine = body(o).split("\n");
  for (const line of mine) {
    const key = kind === "find" ? line.replace(/\/$/, "") : (line.match(/^(.*?):(\d+): /) || [])[0]?.slice(0, -2);
    if (kind === "grep" && key === undefined) continue; // a context line
    assert.ok(all.has(key), `${label}: ${JSON.stringify(line)} not in the full answer`);
  }
  const hits = (r) => body(r).split("\n").filter((l) => kind !== "grep" || /^.*?:\d+: /.test(l)).length;
  if (!b.details?.truncation && !o.details?.truncation) assert.equal(hits(o), hits(b), `${label}: number of results`);
  report.push(label);
}

// fd sorts its results when it finishes within 100 ms; past that it
// streams them in the walk's order.
function fdSorted(r) {
  const lines = body(r).split("\n").map((l) => l.replace(/\/$/, ""));
  for (let i = 1; i < lines.length; i++) if (comparePaths(lines[i - 1], lines[i]) > 0) return false;
  return true;
}

function isDirParam(c) {
  const p = c.params.path;
  if (!p) return true;
  try {
    const where = p.startsWith("file://") ? fileURLToPath(p) : path.resolve(c.root, p.replace(/^@/, ""));
    return execFileSync("sh", ["-c", 'test -d "$1" && echo d', "-", where], { encoding: "utf8" }).trim() === "d";
  } catch {
    return false;
  }
}

// Every call is compared, and every difference reported, before a test fails.
async function check(failures, fn) {
  try {
    await fn();
  } catch (err) {
    if (!(err instanceof assert.AssertionError)) throw err;
    const show = (v) => {
      const j = JSON.stringify(v) ?? String(v);
      return j.length > 2000 ? `${j.slice(0, 2000)}...` : j;
    };
    failures.push(`${err.message}\n  ours: ${show(err.actual)}\n  pi:   ${show(err.expected)}`);
  }
}

before(() => {
  makeTree();
  cases();
});

after(() => {
  rmSync(env.dir, { recursive: true, force: true });
});

test("find: the built-in's answers", async () => {
  const failures = [];
  for (const c of findCases) {
    process.chdir(c.root);
    await check(failures, () => compare("find", c, pi.createFindToolDefinition(c.root), createFindOverride(c.root)));
  }
  assert.deepEqual(failures, [], `${failures.length} find calls differ`);
});

test("grep: the built-in's answers", async () => {
  const failures = [];
  for (const c of grepCases) {
    process.chdir(c.root); // rg matches --glob against paths relative to its working directory
    await check(failures, () => compare("grep", c, pi.createGrepToolDefinition(c.root), createGrepOverride(c.root)));
  }
  assert.deepEqual(failures, [], `${failures.length} grep calls differ`);
});

test("ls: the built-in's answers", async () => {
  const failures = [];
  for (const c of lsCases) {
    process.chdir(c.root);
    await check(failures, () => compare("ls", c, pi.createLsToolDefinition(c.root), createLsOverride(c.root)));
  }
  assert.deepEqual(failures, [], `${failures.length} ls calls differ`);
});

test("at least 200 calls compared", () => {
  assert.ok(calls >= 200, `only ${calls} calls`);
  console.log(`# ${calls} calls compared; limit-cut answers checked as subsets: ${report.length}`);
});
