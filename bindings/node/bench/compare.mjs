// Side-by-side benchmark of fscache and the reference (@oh-my-pi/pi-natives)
// through the same JS calls, on one tree (default: $(go env GOROOT)/src).
//
//   node compare.mjs --ref <pi_natives.node> [--root DIR] [--rounds N]
//
// Each round runs every case once in a fresh process per implementation
// (two native libraries in one process can exhaust the static TLS block),
// alternating which side goes first; a process warms up, then times
// `--iters` calls and reports the median. The table gives the median over
// rounds and the ratio ours/reference (lower is better).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1]]);
  return acc;
}, []));

export const cases = {
  'glob *.go (fresh)': (m, root) => m.glob({ pattern: '*.go', path: root }),
  'glob *.go (cached)': (m, root) => m.glob({ pattern: '*.go', path: root, cache: true }),
  'glob sortByMtime 200': (m, root) => m.glob({ pattern: '**/*', path: root, sortByMtime: true, maxResults: 200, hidden: true }),
  'fuzzyFind (cached)': (m, root) => m.fuzzyFind({ query: 'httpserver', path: root, cache: true }),
  'fuzzyFind (fresh)': (m, root) => m.fuzzyFind({ query: 'strconv', path: root }),
  'grep literal': (m, root) => m.grep({ pattern: 'func main', path: root }),
  'grep regex with literal': (m, root) => m.grep({ pattern: 'func \\w+Error\\(', path: root }),
  'grep regex, no literal': (m, root) => m.grep({ pattern: '\\w+_\\w+\\(', path: root }),
  'grep ignoreCase literal': (m, root) => m.grep({ pattern: 'FUNC MAIN', path: root, ignoreCase: true }),
  'grep literal (cached)': (m, root) => m.grep({ pattern: 'func main', path: root, cache: true }),
  'grep count mode': (m, root) => m.grep({ pattern: 'return nil', path: root, mode: 'count' }),
};

async function child() {
  const [impl, modPath, root, name, iters] = process.argv.slice(3);
  const { createRequire } = await import('node:module');
  const m = impl === 'ref' ? createRequire(import.meta.url)(modPath) : await import(modPath);
  const f = cases[name];
  await f(m, root);
  const times = [];
  for (let i = 0; i < Number(iters); i++) {
    const t = process.hrtime.bigint();
    await f(m, root);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  process.stdout.write(String(times[times.length >> 1]));
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

async function main() {
  if (!args.ref) {
    console.error('usage: node compare.mjs --ref <pi_natives.linux-x64-modern.node> [--root DIR] [--rounds N] [--iters N]');
    process.exit(2);
  }
  const root = args.root ?? path.join(execFileSync('go', ['env', 'GOROOT']).toString().trim(), 'src');
  const rounds = Number(args.rounds ?? 3);
  const iters = Number(args.iters ?? 5);
  const ours = path.join(here, '..', 'index.js');
  const sides = { ours: ['ours', ours], ref: ['ref', path.resolve(args.ref)] };
  console.log(`tree: ${root}; ${rounds} rounds x ${iters} timed calls per process; ms, median`);
  console.log(`${'case'.padEnd(28)} ${'fscache'.padStart(9)} ${'reference'.padStart(10)} ${'ratio'.padStart(7)}`);
  for (const name of Object.keys(cases)) {
    if (args.filter && !name.includes(args.filter)) continue;
    const t = { ours: [], ref: [] };
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 ? ['ref', 'ours'] : ['ours', 'ref'];
      for (const side of order) {
        const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', ...sides[side], root, name, String(iters)]);
        t[side].push(Number(out.toString()));
      }
    }
    const a = median(t.ours), b = median(t.ref);
    console.log(`${name.padEnd(28)} ${a.toFixed(1).padStart(9)} ${b.toFixed(1).padStart(10)} ${(a / b).toFixed(2).padStart(7)}`);
  }
}

if (process.argv[2] === '--child') await child();
else await main();
