// The read cache's line diff (internal/diff, Go) side by side with jsdiff's
// createTwoFilesPatch (npm "diff", context 3): the same generated files,
// timed in one run with the two sides alternated (the order swapped each
// round), and the patches' sizes.
//
//   node diff-jsdiff.mjs [--helper PATH] [--jsdiff DIR] [--rounds N] [--out FILE] [--no-hog]
//                        [--cases 2000x10,12000x50,...]
//
// --helper is internal/diff/cmd/diffbench built (default: built with `go
// build` into the temp dir); it reads the files once and times Unified on
// them, as jsdiff is timed here on strings already in memory. --jsdiff is
// the package's directory (default bindings/node/node_modules/diff). The
// inputs: code-like lines (some repeated, as "}" and blank lines), and a
// copy with edits (a line replaced, 1-3 lines inserted or deleted at random
// places), from a seeded PRNG: the same generator as internal/diff's
// gen_test.go, so the Go benchmarks diff the same files.
//
// Each cell: one untimed call per side, then per round a run of reps calls
// per side; ms is the median over rounds of the mean call. ratio = ours /
// jsdiff. Goals: ratio <= 0.2 at 12k lines and more; patch bytes at most
// 1.1 times jsdiff's (the exit status is 1 when a patch is larger).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, parseArgs } from './args.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const args = parseArgs(process.argv.slice(2));
const rounds = Number(args.rounds ?? 5);
const TIME_GOAL = 0.2;
const SIZE_GOAL = 1.1;

/* ------------------------------------------------------------- generator */

// mulberry32, as rng in internal/diff/gen_test.go.
function rng(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), 1 | t);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
  return { intn: (n) => next() % n };
}

const words = ['value', 'index', 'count', 'result', 'options', 'buffer', 'node', 'entry', 'path', 'name',
  'size', 'offset', 'items', 'state', 'config', 'error', 'handler', 'cache', 'key', 'data'];

// genLine: one code-like line; the PRNG is drawn in genLine's (Go) order.
function genLine(r) {
  const ind = '\t'.repeat(r.intn(4));
  const w = () => words[r.intn(words.length)];
  const k = r.intn(20);
  if (k < 3) return '';
  if (k < 5) return `${ind}}`;
  if (k < 6) return `${ind}return null;`;
  if (k < 9) return `${ind}if (${w()} === ${r.intn(1000)}) {`;
  if (k < 13) return `${ind}const ${w()}${r.intn(10000)} = ${w()}(${w()}, ${r.intn(100000)});`;
  if (k < 15) return `${ind}// ${w()} ${w()} ${w()} ${r.intn(1000)}`;
  if (k < 17) return `${ind}${w()}.${w()} = ${w()}[${r.intn(100)}];`;
  return `${ind}function ${w()}${r.intn(100000)}(${w()}, ${w()}) {`;
}

// genPair: the old and new files of genPair in gen_test.go.
function genPair(lines, edits, seed) {
  const r = rng(seed);
  const a = [];
  for (let i = 0; i < lines; i++) a.push(genLine(r));
  const b = a.slice();
  for (let e = 0; e < edits; e++) {
    const pos = r.intn(b.length + 1);
    switch (r.intn(3)) {
      case 0:
        if (pos < b.length) b[pos] = genLine(r);
        break;
      case 1: {
        const k = 1 + r.intn(3);
        const ins = [];
        for (let i = 0; i < k; i++) ins.push(genLine(r));
        b.splice(pos, 0, ...ins);
        break;
      }
      default: {
        const k = 1 + r.intn(3);
        b.splice(pos, k);
      }
    }
  }
  const join = (ls) => (ls.length ? ls.join('\n') + '\n' : '');
  return [join(a), join(b)];
}

/* ------------------------------------------------------------------ sides */

const jsdiffDir = path.resolve(args.jsdiff ?? path.join(repo, 'bindings/node/node_modules/diff'));
if (!fs.existsSync(path.join(jsdiffDir, 'package.json'))) {
  console.error(`diff-jsdiff: jsdiff not found in ${jsdiffDir} (npm ci in bindings/node, or --jsdiff DIR)`);
  process.exit(2);
}
const jsdiffVersion = JSON.parse(fs.readFileSync(path.join(jsdiffDir, 'package.json'), 'utf8')).version;
const jsdiffMain = JSON.parse(fs.readFileSync(path.join(jsdiffDir, 'package.json'), 'utf8')).module ?? 'libesm/index.js';
const { createTwoFilesPatch } = await import(pathToFileURL(path.join(jsdiffDir, jsdiffMain)).href);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'diff-jsdiff-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

let helper = args.helper;
if (!helper) {
  helper = path.join(tmp, 'diffbench');
  const b = spawnSync('go', ['build', '-o', helper, './internal/diff/cmd/diffbench'], { cwd: repo, stdio: 'inherit' });
  if (b.status !== 0) {
    console.error('diff-jsdiff: go build ./internal/diff/cmd/diffbench failed');
    process.exit(2);
  }
}
const child = spawn(path.resolve(helper), [], { stdio: ['pipe', 'pipe', 'inherit'] });
const answers = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
async function ours(oldPath, newPath, reps) {
  child.stdin.write(JSON.stringify({ old: oldPath, new: newPath, reps, context: 3 }) + '\n');
  const { value, done } = await answers.next();
  if (done) throw new Error('diffbench exited');
  const r = JSON.parse(value);
  if (r.error) throw new Error(`diffbench: ${r.error}`);
  return r;
}
function theirs(a, b, reps) {
  let p = '';
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < reps; i++) p = createTwoFilesPatch('a/old', 'b/new', a, b, undefined, undefined, { context: 3 });
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6 / reps, bytes: Buffer.byteLength(p) };
}

/* ------------------------------------------------------------------- run */

const cases = (args.cases ?? '2000x10,2000x50,2000x200,2000x1000,12000x10,12000x50,12000x200,12000x500,12000x1000,50000x200,100000x10,100000x50,100000x200,100000x1000')
  .split(',').map((c) => c.split('x').map(Number));
const rows = [];
let sizeFail = false;
// Idle, then beside a CPU hog (a busy child process), unless --no-hog.
for (const hog of args['no-hog'] ? [false] : [false, true]) {
const busy = hog ? spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }) : null;
try {
for (const [lines, edits] of cases) {
  const [a, b] = genPair(lines, edits, (lines * 7919 + edits) >>> 0);
  const oldPath = path.join(tmp, `${lines}x${edits}.old`);
  const newPath = path.join(tmp, `${lines}x${edits}.new`);
  fs.writeFileSync(oldPath, a);
  fs.writeFileSync(newPath, b);
  const reps = lines <= 2000 ? 20 : lines <= 12000 ? 5 : 2;
  const o0 = await ours(oldPath, newPath, 1);
  const t0 = theirs(a, b, 1);
  const om = [], tm = [];
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      om.push((await ours(oldPath, newPath, reps)).ms);
      tm.push(theirs(a, b, reps).ms);
    } else {
      tm.push(theirs(a, b, reps).ms);
      om.push((await ours(oldPath, newPath, reps)).ms);
    }
  }
  const row = { lines, edits, load: hog ? 'hog' : 'idle', ours: median(om), jsdiff: median(tm), oursBytes: o0.bytes, jsdiffBytes: t0.bytes };
  row.ratio = row.ours / row.jsdiff;
  row.sizeRatio = row.oursBytes / row.jsdiffBytes;
  row.goal = (lines < 12000 || row.ratio <= TIME_GOAL ? '' : 'time ') + (row.sizeRatio <= SIZE_GOAL ? '' : 'size');
  if (row.sizeRatio > SIZE_GOAL) sizeFail = true;
  rows.push(row);
  console.error(`${row.load}: ${lines} lines, ${edits} edits: ours ${row.ours.toFixed(2)} ms, jsdiff ${row.jsdiff.toFixed(2)} ms`);
}
} finally {
  busy?.kill();
}
}
child.stdin.end();

const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const out = [
  `internal/diff (Go, ${os.cpus().length} CPUs) against jsdiff ${jsdiffVersion} createTwoFilesPatch, context 3; median of ${rounds} rounds, sides alternated; idle, then beside a CPU hog`,
  '',
  '| load | lines | edits | ms ours | ms jsdiff | ratio | patch bytes ours / jsdiff | missed goal |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ...rows.map((r) => `| ${r.load} | ${r.lines} | ${r.edits} | ${fmt(r.ours)} | ${fmt(r.jsdiff)} | ${r.ratio.toFixed(3)} | ${r.oursBytes} / ${r.jsdiffBytes} (${r.sizeRatio.toFixed(3)}) | ${r.goal.trim()} |`),
].join('\n');
console.log(out);
if (args.out) {
  fs.mkdirSync(path.dirname(path.resolve(args.out)), { recursive: true });
  fs.writeFileSync(args.out, out + '\n');
  fs.writeFileSync(args.out.replace(/\.md$/, '') + '.json', JSON.stringify({ jsdiff: jsdiffVersion, rounds, rows }, null, 2) + '\n');
}
process.exitCode = sizeFail ? 1 : 0;
