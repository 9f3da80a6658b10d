#!/usr/bin/env node
// fscache demo: a glob, a cached glob (miss, then hit), a fuzzyFind and a
// grep on a real directory, through the Node package, with timings.
//
//   node bindings/node/demo.mjs [DIR]      (make demo [DIR=/some/path])
//
// DIR defaults to the repository root.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FileType, GrepOutputMode, fuzzyFind, glob, grep, invalidateFsScanCache, readCache, version } from "./index.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = path.resolve(process.argv[2] || path.join(here, "..", ".."));

const tty = process.stdout.isTTY;
const paint = (code) => (s) => (tty ? `\x1b[${code}m${s}\x1b[0m` : String(s));
const bold = paint(1);
const dim = paint(2);
const cyan = paint(36);
const green = paint(32);

async function timed(fn) {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
}
const ms = (t) => `${t < 10 ? t.toFixed(2) : t.toFixed(1)} ms`.padStart(10);
const row = (what, detail, t) => console.log(`  ${cyan(what.padEnd(30))} ${detail.padEnd(34)} ${green(ms(t))}`);
const sub = (s) => console.log(`  ${" ".repeat(30)} ${dim(s)}`);
const clip = (s, n = 70) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

const runtime = typeof Bun !== "undefined" ? `bun ${Bun.version}` : `node ${process.versions.node}`;
console.log(`\n${bold("fscache demo")}  ${dir}`);
console.log(dim(`  libfscache ${version()}, ${runtime}\n`));

try {
  // 1. A plain glob, streaming matches through onMatch.
  let streamed = 0;
  const [all, tAll] = await timed(() => glob({ pattern: "**/*", path: dir }, () => streamed++));
  const files = all.matches.filter((m) => m.fileType === FileType.File).length;
  row("glob  **/*", `${all.totalMatches} entries (${files} files)`, tAll);
  sub(`onMatch saw ${streamed} matches before the promise settled`);

  // 2. The same scan through the shared cache: a miss, then a hit.
  invalidateFsScanCache(dir);
  const [miss, tMiss] = await timed(() => glob({ pattern: "**/*", path: dir, cache: true }));
  row("glob  **/*, cache miss", `${miss.totalMatches} entries`, tMiss);
  const [hit, tHit] = await timed(() => glob({ pattern: "**/*", path: dir, cache: true }));
  row("glob  **/*, cache hit", `${hit.totalMatches} entries`, tHit);
  if (tHit > 0) sub(`${(tMiss / tHit).toFixed(1)}x faster from the cache`);

  // 3. Newest files (what the agent's find tool asks for).
  const [recent, tRecent] = await timed(() =>
    glob({ pattern: "*", path: dir, fileType: FileType.File, sortByMtime: true, maxResults: 3 }),
  );
  row("glob  *, sortByMtime, max 3", `${recent.totalMatches} newest files`, tRecent);
  for (const m of recent.matches) sub(`${clip(m.path, 50)}  ${new Date(m.mtime ?? 0).toISOString()}  ${m.size ?? 0} B`);

  // 4. fuzzyFind for the start of the newest file's name.
  const stem = path.basename(recent.matches[0]?.path ?? "index").replace(/\..*$/, "").slice(0, 5) || "main";
  const [fz, tFz] = await timed(() => fuzzyFind({ query: stem, path: dir, cache: true, maxResults: 5 }));
  row(`fuzzyFind  "${stem}"`, `${fz.matches.length} of ${fz.totalMatches} matches`, tFz);
  for (const m of fz.matches.slice(0, 3)) sub(`${m.score.toString().padStart(3)}  ${clip(m.path, 60)}`);

  // 5. grep: the first lines, then per-file counts.
  const pattern = "TODO|FIXME|func |function ";
  const [gr, tGr] = await timed(() =>
    grep({ pattern, path: dir, maxCount: 3, maxColumns: 80, mode: GrepOutputMode.Content }),
  );
  row("grep  content, max 3", `${gr.matches.length} shown, ${gr.filesSearched} files searched`, tGr);
  sub(`pattern /${pattern}/`);
  for (const m of gr.matches) sub(`${clip(`${m.path}:${m.lineNumber}: ${m.line.trim()}`)}`);
  const [cnt, tCnt] = await timed(() => grep({ pattern, path: dir, mode: GrepOutputMode.Count }));
  row("grep  count", `${cnt.totalMatches} lines in ${cnt.filesWithMatches} files`, tCnt);

  // 6. The read cache: pi's read text, then the marker for the same content
  //    (noStore: nothing is written into the directory shown).
  const file = gr.matches[0]?.path;
  if (file) {
    const [first, tFirst] = await timed(() => readCache({ path: file, cwd: dir, noStore: true }));
    row("readCache  first read", `${first.mode}, ${Buffer.byteLength(first.text)} bytes`, tFirst);
    sub(clip(file, 60));
    const bases = first.meta ? { [first.meta.scopeKey]: first.meta.servedHash } : {};
    const [again, tAgain] = await timed(() => readCache({ path: file, cwd: dir, noStore: true, pathKey: first.pathKey, bases }));
    row("readCache  reread", `${again.mode}, ${Buffer.byteLength(again.text)} bytes`, tAgain);
    sub(again.text);
  }
  console.log();
} catch (err) {
  console.error(`\n  ${err.message}${err.code ? ` (${err.code})` : ""}\n`);
  process.exitCode = 1;
}
