// The read cache's lineCount: "lines" against pi 1.x's own read tool
// (@earendil-works/pi-coding-agent, which streams its read and counts
// details.truncation.totalLines without a trailing empty line): on the
// same generated files with the same offset/limit, readCache({lineCount:
// "lines"}) must give pi 1.x's text, its details.truncation field by
// field, and its errors. pi 1.x is not a dependency of this repository
// (its own line, its own Node): point PI1_MODULES at a node_modules that
// holds it and run this under a Node it supports (22+):
//
//   PI1_MODULES=/path/node_modules /path/to/node22 bindings/node/bench/pi1-parity.mjs
//   make pi1-parity PI1_MODULES=/path/node_modules PI1_NODE=/path/to/node22
//
// Exits non-zero, printing each difference, when any read differs. The
// files over the engine's size limit (which both it and pi 1.x stream)
// take 70 MB of temporary space each, one at a time.
import assert from "node:assert/strict";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const modules = process.env.PI1_MODULES;
if (!modules) {
  console.error("pi1-parity: set PI1_MODULES to a node_modules holding @earendil-works/pi-coding-agent");
  process.exit(2);
}
const pkgDir = join(modules, "@earendil-works", "pi-coding-agent");
const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
// Its read tool's own module (the package exports only for import).
const pi = await import(pathToFileURL(join(pkgDir, "dist", "core", "tools", "read.js")).href);
const { readCache } = await import(new URL("../index.js", import.meta.url).href);

const lines = (n, make) => Array.from({ length: n }, (_, i) => make(i + 1)).join("\n");

const files = {
  "empty.txt": "",
  "newline.txt": "\n",
  "two-newlines.txt": "\n\n",
  "one.txt": "just one line",
  "nl.txt": "a\nb\nc\n",
  "no-nl.txt": "a\nb\nc",
  "crlf.txt": "a\r\nb\r\nc\r\n",
  "crlf-no-nl.txt": "a\r\nb\r\nc",
  "blank-lines.txt": "\n\n\n",
  "blank-middle.txt": "a\n\n\nb\n",
  "lines-120-nl.txt": lines(120, (i) => `line ${i}`) + "\n",
  "lines-1999-nl.txt": lines(1999, (i) => `line ${i}`) + "\n",
  "lines-2000.txt": lines(2000, (i) => `line ${i}`),
  "lines-2000-nl.txt": lines(2000, (i) => `line ${i}`) + "\n",
  "lines-2000-nlnl.txt": lines(2000, (i) => `line ${i}`) + "\n\n",
  "lines-2001.txt": lines(2001, (i) => `line ${i}`),
  "lines-2001-nl.txt": lines(2001, (i) => `line ${i}`) + "\n",
  "lines-3000-nl.txt": lines(3000, (i) => `line ${i}`) + "\n",
  "lines-2500-crlf.txt": lines(2500, (i) => `line ${i}\r`) + "\n",
  "bytes-100k.txt": lines(1000, (i) => `${i}:`.padEnd(99, "x")) + "\n",
  "exact-50k.txt": "y".repeat(51200),
  "exact-50k-nl.txt": "y".repeat(51199) + "\n",
  "exact-50k-plus-nl.txt": "y".repeat(51200) + "\n",
  "over-50k.txt": "y".repeat(51201) + "\nnext\n",
  "wide-first.txt": "z".repeat(70000) + "\nshort\n",
  "wide-first-only.txt": "z".repeat(70000) + "\n",
  "wide-middle.txt": "a\nb\n" + "w".repeat(60000) + "\nc\n",
  "utf8.txt": lines(3000, (i) => `é€😀 ${i} — ünïcödé`) + "\n",
  "utf8-bytes.txt": lines(600, (i) => "é".repeat(60) + i) + "\n",
  "mb-size.txt": "q".repeat(1300 * 1024) + "\n",
  "bom.txt": "\ufeffa\nb\n",
};

const ranges = [
  {},
  { offset: 0 },
  { offset: 1 },
  { offset: 2 },
  { offset: 3 },
  { offset: 4 },
  { offset: 3, limit: 1 },
  { offset: 2, limit: 1 },
  { offset: 1, limit: 2 },
  { offset: 1, limit: 2000 },
  { offset: 1999, limit: 5 },
  { offset: 2000 },
  { offset: 2001 },
  { offset: 2002 },
  { offset: 2500 },
  { offset: 2501 },
  { offset: 3001 },
  { limit: 1 },
  { limit: 3 },
  { limit: 120 },
  { limit: 121 },
  { limit: 2000 },
  { limit: 2001 },
  { limit: 2500 },
  { offset: 500, limit: 10000 },
];

async function piRead(tool, path, r) {
  try {
    const out = await tool.execute("t", { path, ...r }, undefined, undefined, undefined);
    return { text: out.content.map((c) => c.text).join(""), truncation: out.details?.truncation };
  } catch (err) {
    return { error: err.message };
  }
}

async function engineRead(cwd, path, r) {
  try {
    const out = await readCache({ path, cwd, noStore: true, lineCount: "lines", ...r });
    if (out.mode === "baseline") return { baseline: out.reason };
    return { text: out.text, truncation: out.truncation ?? undefined };
  } catch (err) {
    return { error: err.message };
  }
}

// Files over the engine's 64 MiB limit, which it streams (mode full,
// nothing stored): 70 MB of 100-byte lines, with and without a last
// newline, and one whose first line alone is 1 MB.
const HUGE = 70_000_000;
const hugeLine = "0123456789abcdef".repeat(6) + "ghi\n"; // 100 bytes
const hugeFiles = {
  "huge-nl.txt": (fd) => writeRepeated(fd, hugeLine, HUGE / 100),
  "huge-tail.txt": (fd) => (writeRepeated(fd, hugeLine, HUGE / 100), writeSync(fd, "tail without newline")),
  "huge-wide.txt": (fd) => (writeSync(fd, "w".repeat(1 << 20) + "\n"), writeRepeated(fd, hugeLine, HUGE / 100)),
};
const hugeRanges = [{}, { offset: 2 }, { offset: 350000 }, { offset: 699999 }, { offset: 700000 }, { offset: 700001 }, { offset: 700002 },
  { offset: 700003 }, { limit: 3 }, { offset: 1, limit: 1 }, { offset: 699990, limit: 5 }, { offset: 699998, limit: 50 }];

function writeRepeated(fd, line, n) {
  const block = line.repeat(10000);
  for (let i = 0; i < n / 10000; i++) writeSync(fd, block);
}

const dir = mkdtempSync(join(tmpdir(), "fscache-pi1-parity-"));
let compared = 0;
const failures = [];
const brief = (x) => JSON.stringify(x, (k, v) => (typeof v === "string" && v.length > 120 ? `${v.slice(0, 60)}...(${v.length})` : v));
async function compare(tool, name, r, check) {
  const want = await piRead(tool, name, r);
  const got = await engineRead(dir, name, r);
  compared++;
  try {
    assert.deepEqual(got, want);
    check?.(got);
  } catch {
    failures.push(`${name} ${JSON.stringify(r)}\n  pi:     ${brief(want)}\n  engine: ${brief(got)}`);
  }
}
try {
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const tool = pi.createReadToolDefinition(dir);
  for (const name of Object.keys(files)) {
    for (const r of ranges) await compare(tool, name, r);
  }
  for (const [name, make] of Object.entries(hugeFiles)) {
    const fd = openSync(join(dir, name), "w");
    make(fd);
    closeSync(fd);
    for (const r of hugeRanges) await compare(tool, name, r);
    rmSync(join(dir, name));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
for (const f of failures) console.log(f);
console.log(`pi1-parity: ${pkg.name} ${pkg.version}, ${Object.keys(files).length} files x ${ranges.length} ranges, ` +
  `${Object.keys(hugeFiles).length} files over 64 MiB (streamed) x ${hugeRanges.length} ranges`);
console.log(`${compared - failures.length} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
