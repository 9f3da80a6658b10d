// Side-by-side benchmark of fscache and the reference (@oh-my-pi/pi-natives
// 14.9.9) through the same JS calls, plus fd and ripgrep as whole processes,
// a scaling series and resident memory per cached entry.
//
//   node compare.mjs --ref <pi_natives.node> [--base <other index.js>]
//                    [--rounds N] [--iters N] [--warm N] [--filter TEXT]
//                    [--trees DIR] [--out DIR] [--skip-scaling] [--skip-tools]
//                    [--repo DIR] [--no-hog]
//
// Every case runs in a fresh process per side (two native libraries in one
// process can exhaust the static TLS block), `--rounds` times, alternating
// which side goes first; a process makes `--warm` untimed calls (the first
// fills the cache for the cached cases; the others let both sides reach the
// steady state of a long-running agent, whose V8 heap has long stopped
// growing, instead of timing a new process's heap growth), then times
// `--iters` calls and reports their median. A table cell is the median over rounds; ratio = fscache /
// reference, lower is better. Every row but the scaling series is measured
// twice: idle, and beside one CPU hog (a busy loop in another process; off
// with --no-hog), and its goal holds only when both ratios meet it. The
// "repo:" rows run on --repo (a large JavaScript or TypeScript checkout)
// and are left out without it. `--base` adds a third side (say, fscache built
// from main) for before/after columns.
//
// Trees: $(go env GOROOT)/src, and generated trees (120k files, the scaling
// series 10k/50k/200k) made once under --trees (default build/out/bench-trees,
// gitignored) and reused. Results go to --out (default build/out/bench): a
// Markdown report (results.md), the raw numbers (results.json) and the
// chart of the ratios (ratios.svg); docs/performance.md embeds a copy of
// them.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median, parseArgs } from './args.mjs';
import { genTree, goSrc } from './trees.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..', '..');

/* ------------------------------------------------------------------ cases */

// Each case: tree (key of trees()), the call, and the goal for the ratio.
export const cases = {
  'glob **/*.go, uncached, Go src': { tree: 'gosrc', goal: 0.8, f: (m, r) => m.glob({ pattern: '**/*.go', path: r }) },
  'glob *.go, cached hit, Go src': { tree: 'gosrc', goal: 0.5, f: (m, r) => m.glob({ pattern: '*.go', path: r, cache: true }) },
  'glob find tool (hidden, sortByMtime, max 200), Go src': {
    tree: 'gosrc', goal: 0.8,
    f: (m, r) => m.glob({ pattern: '**/*', path: r, hidden: true, sortByMtime: true, maxResults: 200 }),
  },
  'fuzzyFind uncached, Go src': { tree: 'gosrc', goal: 0.8, f: (m, r) => m.fuzzyFind({ query: 'strconv', path: r }) },
  'fuzzyFind cached, Go src': { tree: 'gosrc', goal: 0.5, f: (m, r) => m.fuzzyFind({ query: 'httpserver', path: r, cache: true }) },
  'glob **/* uncached, 120k': { tree: 't120k', goal: 0.8, f: (m, r) => m.glob({ pattern: '**/*', path: r }) },
  'glob @-mention (hidden, cache, node_modules, max 5000), 120k': {
    tree: 't120k', goal: 0.5,
    f: (m, r) => m.glob({ pattern: '**/*', path: r, hidden: true, cache: true, includeNodeModules: true, maxResults: 5000 }),
  },
  'fuzzyFind cached, 120k': { tree: 't120k', goal: 0.5, f: (m, r) => m.fuzzyFind({ query: 'mod7file', path: r, cache: true }) },
  'grep literal, Go src': { tree: 'gosrc', goal: 0.8, f: (m, r) => m.grep({ pattern: 'func main', path: r }) },
  'grep regex with literal, Go src': { tree: 'gosrc', goal: 0.8, f: (m, r) => m.grep({ pattern: 'func \\w+Error\\(', path: r }) },
  'grep regex, no literal, Go src': { tree: 'gosrc', goal: 0.6, f: (m, r) => m.grep({ pattern: '\\w+_\\w+\\(', path: r }) },
  'grep ignoreCase literal, Go src': { tree: 'gosrc', goal: 0.8, f: (m, r) => m.grep({ pattern: 'FUNC MAIN', path: r, ignoreCase: true }) },
  'grep literal cached, Go src': { tree: 'gosrc', goal: 0.8, f: (m, r) => m.grep({ pattern: 'func main', path: r, cache: true }) },
  'grep count mode, Go src': { tree: 'gosrc', goal: 0.8, f: (m, r) => m.grep({ pattern: 'return nil', path: r, mode: 'count' }) },
  // A real repository (--repo, BENCH_REPO: a large JavaScript or TypeScript
  // checkout), with the calls an agent makes most; left out without one.
  'repo: glob **/* uncached': { tree: 'repo', goal: 0.8, f: (m, r) => m.glob({ pattern: '**/*', path: r }) },
  'repo: glob @-mention (hidden, cache, max 5000)': {
    tree: 'repo', goal: 0.5,
    f: (m, r) => m.glob({ pattern: '**/*', path: r, hidden: true, cache: true, maxResults: 5000 }),
  },
  'repo: fuzzyFind cached': { tree: 'repo', goal: 0.5, f: (m, r) => m.fuzzyFind({ query: 'parser', path: r, cache: true }) },
  'repo: grep literal cached': { tree: 'repo', goal: 0.8, f: (m, r) => m.grep({ pattern: 'function parse', path: r, cache: true }) },
  'repo: grep filesWithMatches cached': {
    tree: 'repo', goal: 0.8,
    f: (m, r) => m.grep({ pattern: 'useState', path: r, cache: true, mode: 'filesWithMatches' }),
  },
  'repo: grep a token found nowhere, cached': {
    tree: 'repo', goal: 0.8,
    f: (m, r) => m.grep({ pattern: 'zqxjvkwpt', path: r, cache: true }),
  },
  'repo: grep literal uncached': { tree: 'repo', goal: 0.8, f: (m, r) => m.grep({ pattern: 'function parse', path: r }) },
};

// The scaling series: per size, a fresh scan and a cache hit.
const scalingSizes = [10_000, 50_000, 200_000];
for (const n of scalingSizes) {
  const k = `s${n / 1000}k`;
  cases[`scaling ${n / 1000}k: glob **/* uncached`] = { tree: k, scaling: true, f: (m, r) => m.glob({ pattern: '**/*', path: r }) };
  cases[`scaling ${n / 1000}k: glob *.ts cached`] = { tree: k, scaling: true, f: (m, r) => m.glob({ pattern: '*.ts', path: r, cache: true }) };
}

// Whole processes doing the same job as a glob or grep: the same command
// line shape for every side, timed from spawn to exit.
const toolCases = {
  'files *.go, Go src': {
    tree: 'gosrc',
    js: (r) => `m.glob({pattern:'**/*.go',path:${JSON.stringify(r)}})`,
    tools: { fd: ['fdfind', '-t', 'f', '-e', 'go', '.', '{root}'], 'rg --files': ['rg', '--files', '-g', '*.go', '{root}'] },
  },
  'files, 120k': {
    tree: 't120k',
    js: (r) => `m.glob({pattern:'**/*',path:${JSON.stringify(r)},fileType:1})`,
    tools: { fd: ['fdfind', '-t', 'f', '.', '{root}'], 'rg --files': ['rg', '--files', '{root}'] },
  },
  'grep "func main", Go src': {
    tree: 'gosrc',
    js: (r) => `m.grep({pattern:'func main',path:${JSON.stringify(r)}})`,
    tools: { rg: ['rg', '-n', 'func main', '{root}'] },
  },
};

/* ------------------------------------------------------------------ trees */

function trees(base, repoDir) {
  return {
    repo: () => repoDir,
    gosrc: () => goSrc(),
    t120k: () => genTree(path.join(base, 't120k'), 120_000),
    ...Object.fromEntries(scalingSizes.map((n) => [`s${n / 1000}k`, () => genTree(path.join(base, `s${n / 1000}k`), n)])),
  };
}

/* ------------------------------------------------------------------ child */

async function load(impl, modPath) {
  const { createRequire } = await import('node:module');
  return impl === 'ref' ? createRequire(import.meta.url)(modPath) : await import(modPath);
}

async function child() {
  const [kind, impl, modPath, root, name, iters, warm] = process.argv.slice(3);
  const m = await load(impl, modPath);
  if (kind === 'mem') return memChild(m, root);
  const f = cases[name].f;
  for (let i = 0; i < Math.max(1, Number(warm)); i++) await f(m, root);
  const times = [];
  const c0 = process.cpuUsage();
  for (let i = 0; i < Number(iters); i++) {
    const t = process.hrtime.bigint();
    await f(m, root);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  // CPU time of the whole process (every thread) per call: the work done,
  // whatever the machine's load made the wall clock wait.
  const c = process.cpuUsage(c0);
  process.stdout.write(JSON.stringify({ wall: median(times), cpu: (c.user + c.system) / 1000 / Number(iters) }));
}

// Resident bytes held by the cache: RSS after filling the cache with the
// scans of four keys of the tree, minus RSS before, after dropping the
// results and collecting garbage, divided by the entries cached.
async function memChild(m, root) {
  const gc = () => { for (let i = 0; i < 3; i++) globalThis.gc(); };
  const keys = [
    { pattern: '**/*', path: root, cache: true },
    { pattern: '**/*', path: root, cache: true, hidden: true },
    { pattern: '**/*', path: root, cache: true, includeNodeModules: true },
    { pattern: '**/*', path: root, cache: true, sortByMtime: true },
  ];
  // Warm the code paths on a tiny tree so the first real call is not
  // charged with loading.
  const tiny = fs.mkdtempSync(path.join(os.tmpdir(), 'fscache-mem-'));
  fs.writeFileSync(path.join(tiny, 'a.ts'), '');
  for (const k of keys) await m.glob({ ...k, path: tiny });
  gc();
  await new Promise((r) => setTimeout(r, 50));
  const before = process.memoryUsage().rss;
  let entries = 0;
  for (const k of keys) {
    let r = await m.glob(k);
    entries += r.totalMatches;
    r = null;
  }
  gc();
  await new Promise((r) => setTimeout(r, 50));
  const after = process.memoryUsage().rss;
  fs.rmSync(tiny, { recursive: true, force: true });
  process.stdout.write(JSON.stringify({ bytes: after - before, entries }));
}

/* ------------------------------------------------------------------- main */



function runChild(side, kind, root, name, iters, extraEnv = {}, warm = 1) {
  const out = execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', kind, ...side, root, name, String(iters), String(warm)], {
    env: { ...process.env, FS_SCAN_CACHE_TTL_MS: '600000', ...extraEnv },
    maxBuffer: 1 << 26,
  });
  return out.toString();
}

function timeProcess(argv) {
  const t = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'ignore'] });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.error) throw r.error;
  return ms;
}

function have(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
}

const fmt = (x) => (x === undefined || Number.isNaN(x) ? '-' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!args.ref) {
    console.error('usage: node compare.mjs --ref <pi_natives.linux-x64-modern.node> [--base <index.js>] [--rounds N] [--iters N] [--warm N] [--filter TEXT]');
    process.exit(2);
  }
  const rounds = Number(args.rounds ?? 5);
  const iters = Number(args.iters ?? 15);
  const warm = Number(args.warm ?? 5);
  const outDir = path.resolve(args.out ?? path.join(repo, 'build', 'out', 'bench'));
  const treeDir = path.resolve(args.trees ?? path.join(repo, 'build', 'out', 'bench-trees'));
  fs.mkdirSync(outDir, { recursive: true });
  const sides = { fscache: ['ours', path.join(here, '..', 'index.js')], reference: ['ref', path.resolve(args.ref)] };
  // The base loads its own addon (index.cjs honours FSCACHE_NODE_ADDON).
  if (args.base) sides.before = ['ours', path.resolve(args.base)];
  const sideEnv = (s) => (s === 'before' ? { FSCACHE_NODE_ADDON: path.resolve(path.dirname(path.resolve(args.base)), '..', '..', 'build', 'out', 'fscache.node') } : {});
  const names = Object.keys(sides);
  const repoDir = args.repo ? path.resolve(args.repo) : null;
  const treeOf = trees(treeDir, repoDir);
  // The contention column: the same rounds with one CPU hog (a busy loop
  // in another process) beside them.
  const loads = args['no-hog'] ? ['idle'] : ['idle', 'hog'];
  const rootCache = {};
  const root = (k) => (rootCache[k] ??= treeOf[k]());

  const started = new Date();
  const load = os.loadavg().map((x) => x.toFixed(1)).join(' ');
  const head = `${started.toISOString()}; ${os.cpus().length} x ${os.cpus()[0].model}; load average at start ${load}; ` +
    `${rounds} rounds x ${iters} timed calls per process after ${warm} untimed; ms, medians; ratio = fscache / reference`;
  console.log(head);

  const results = { when: started.toISOString(), machine: `${os.cpus().length} x ${os.cpus()[0].model}`, load, rounds, iters, warm, rows: [], tools: [], memory: null };
  const cols = names.map((n) => n.padStart(10)).join(' ');
  console.log(`${'case'.padEnd(62)} ${cols} ${'ratio'.padStart(6)} goal`);
  for (const [name, c] of Object.entries(cases)) {
    if (args.filter && !name.includes(args.filter)) continue;
    if (c.scaling && args['skip-scaling']) continue;
    if (c.tree === 'repo' && !repoDir) continue;
    const r = root(c.tree);
    const measure = () => {
      const t = Object.fromEntries(names.map((n) => [n, []]));
      const cpu = Object.fromEntries(names.map((n) => [n, []]));
      for (let i = 0; i < rounds; i++) {
        const order = i % 2 ? [...names].reverse() : names;
        for (const s of order) {
          const x = JSON.parse(runChild(sides[s], 'time', r, name, iters, sideEnv(s), warm));
          t[s].push(x.wall);
          cpu[s].push(x.cpu);
        }
      }
      return [Object.fromEntries(names.map((n) => [n, median(t[n])])), Object.fromEntries(names.map((n) => [n, median(cpu[n])]))];
    };
    const [med, cpuMed] = measure();
    const ratio = med.fscache / med.reference;
    const row = { name, scaling: !!c.scaling, goal: c.goal ?? null, ...med, ratio, ok: c.goal ? ratio <= c.goal : null, cpu: cpuMed, cpuRatio: cpuMed.fscache / cpuMed.reference };
    if (med.before !== undefined) {
      row.beforeRatio = med.before / med.reference;
      row.cpuBeforeRatio = cpuMed.before / cpuMed.reference;
    }
    if (loads.includes('hog') && !c.scaling) {
      const hog = spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
      try {
        const [hm] = measure();
        row.hog = { ...hm, ratio: hm.fscache / hm.reference };
        if (hm.before !== undefined) row.hog.beforeRatio = hm.before / hm.reference;
        if (c.goal) row.ok = row.ok && row.hog.ratio <= c.goal;
      } finally {
        hog.kill();
        await new Promise((r) => (hog.exitCode !== null || hog.signalCode !== null ? r() : hog.once('exit', r)));
      }
    }
    results.rows.push(row);
    console.log(`${name.padEnd(62)} ${names.map((n) => fmt(med[n]).padStart(10)).join(' ')} ${ratio.toFixed(2).padStart(6)} ${row.hog ? `hog ${row.hog.ratio.toFixed(2)} ` : ''}${c.goal ? (row.ok ? '<= ' : 'MISS ') + c.goal : ''}  cpu ms/call ${names.map((n) => `${n} ${fmt(cpuMed[n])}`).join(' ')} ratio ${row.cpuRatio.toFixed(2)}`);
  }

  if (!args['skip-tools'] && !args.filter) {
    console.log('\nwhole processes (spawn to exit), ms, medians');
    const m = (side) => `const m=${side[0] === 'ref' ? `require(${JSON.stringify(side[1])})` : `await import(${JSON.stringify(side[1])})`};`;
    for (const [name, tc] of Object.entries(toolCases)) {
      const r = root(tc.tree);
      const cmds = {};
      for (const s of ['fscache', 'reference']) {
        cmds[`node + ${s}`] = [process.execPath, '--input-type=module', '-e', `import {createRequire} from 'node:module';const require=createRequire(import.meta.url);${m(sides[s])}await ${tc.js(r)};`];
      }
      for (const [tool, argv] of Object.entries(tc.tools)) {
        if (have(argv[0])) cmds[tool] = argv.map((a) => (a === '{root}' ? r : a));
      }
      const t = Object.fromEntries(Object.keys(cmds).map((k) => [k, []]));
      const keys = Object.keys(cmds);
      for (const k of keys) timeProcess(cmds[k]); // warm the page cache
      for (let i = 0; i < rounds * 2; i++) {
        for (const k of i % 2 ? [...keys].reverse() : keys) t[k].push(timeProcess(cmds[k]));
      }
      const med = Object.fromEntries(keys.map((k) => [k, median(t[k])]));
      results.tools.push({ name, ...med });
      console.log(`${name.padEnd(28)} ${keys.map((k) => `${k} ${fmt(med[k])}`).join('  ')}`);
    }
  }

  if (!args['skip-memory'] && !args.filter) {
    const r = root('s200k');
    const mem = {};
    for (const s of ['fscache', 'reference']) {
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push(JSON.parse(runChild(sides[s], 'mem', r, '-', 0)));
      const bytes = median(runs.map((x) => x.bytes));
      mem[s] = { bytes, entries: runs[0].entries, perEntry: bytes / runs[0].entries };
    }
    results.memory = mem;
    console.log(`\nresident bytes per cached entry (200k tree, 4 cached scans, ${mem.fscache.entries} entries): ` +
      `fscache ${mem.fscache.perEntry.toFixed(0)}, reference ${mem.reference.perEntry.toFixed(0)}`);
  }

  fs.writeFileSync(path.join(outDir, 'results.json'), JSON.stringify(results, null, 2));
  fs.writeFileSync(path.join(outDir, 'results.md'), markdown(results, names));
  fs.writeFileSync(path.join(outDir, 'ratios.svg'), svg(results));
  console.log(`\nwrote ${path.relative(process.cwd(), outDir)}/{results.md,results.json,ratios.svg}`);
}

/* --------------------------------------------------------------- reports */

function markdown(res, names) {
  const L = [];
  L.push(`Measured ${res.when} on ${res.machine}, load average ${res.load} at start; ${res.rounds} rounds x ${res.iters} timed calls per process after ${res.warm ?? 1} untimed, medians.`, '');
  const main = res.rows.filter((r) => !r.scaling);
  const hasBefore = names.includes('before');
  const hasHog = main.some((r) => r.hog);
  L.push(`| case | reference ms | ${hasBefore ? 'fscache before ms | ratio before | ' : ''}fscache ms | ratio | ${hasHog ? `1 hog: reference / ${hasBefore ? 'before / ' : ''}fscache ms | 1 hog: ratio | ` : ''}goal${hasHog ? ' (idle and 1 hog)' : ''} | CPU ms/call ref / ${hasBefore ? 'before / ' : ''}fscache | CPU ratio ${hasBefore ? 'before -> ' : ''}now |`);
  L.push(`|---|---|${hasBefore ? '---|---|' : ''}---|---|${hasHog ? '---|---|' : ''}---|---|---|`);
  for (const r of main) {
    const cpuCells = `${fmt(r.cpu.reference)} / ${hasBefore ? `${fmt(r.cpu.before)} / ` : ''}${fmt(r.cpu.fscache)} | ${hasBefore ? `${r.cpuBeforeRatio.toFixed(2)} -> ` : ''}${r.cpuRatio.toFixed(2)}`;
    const hogCells = !hasHog ? '' : r.hog
      ? `${fmt(r.hog.reference)} / ${hasBefore ? `${fmt(r.hog.before)} / ` : ''}${fmt(r.hog.fscache)} | **${r.hog.ratio.toFixed(2)}** | `
      : '- | - | ';
    L.push(`| ${r.name} | ${fmt(r.reference)} | ${hasBefore ? `${fmt(r.before)} | ${r.beforeRatio.toFixed(2)} | ` : ''}${fmt(r.fscache)} | **${r.ratio.toFixed(2)}** | ${hogCells}${r.goal ? `<= ${r.goal} ${r.ok ? 'met' : 'missed'}` : ''} | ${cpuCells} |`);
  }
  const sc = res.rows.filter((r) => r.scaling);
  if (sc.length) {
    L.push('', '| scaling | reference ms | fscache ms | ratio | CPU ms/call ref / fscache | CPU ratio |', '|---|---|---|---|---|---|');
    for (const r of sc) L.push(`| ${r.name.replace('scaling ', '')} | ${fmt(r.reference)} | ${fmt(r.fscache)} | ${r.ratio.toFixed(2)} | ${fmt(r.cpu.reference)} / ${fmt(r.cpu.fscache)} | ${r.cpuRatio.toFixed(2)} |`);
  }
  if (res.tools.length) {
    L.push('', '| whole process | ' + ['node + fscache', 'node + reference', 'fd', 'rg --files', 'rg'].join(' | ') + ' |', '|---|---|---|---|---|---|');
    for (const t of res.tools) L.push(`| ${t.name} | ${['node + fscache', 'node + reference', 'fd', 'rg --files', 'rg'].map((k) => fmt(t[k])).join(' | ')} |`);
  }
  if (res.memory) {
    const m = res.memory;
    L.push('', `Resident bytes per cached entry (200k tree, 4 cached scans, ${m.fscache.entries} entries): fscache ${m.fscache.perEntry.toFixed(0)}, reference ${m.reference.perEntry.toFixed(0)}.`);
  }
  return L.join('\n') + '\n';
}

// A horizontal bar per case: the ratio, with the goal as a tick; bars
// within their goal are green.
function svg(res) {
  const rows = res.rows.filter((r) => !r.scaling);
  const W = 760, left = 380, barH = 16, gap = 6, top = 34;
  const maxR = Math.max(1.5, ...rows.map((r) => Math.max(r.ratio, r.beforeRatio ?? 0))) * 1.05;
  const x = (v) => left + (v / maxR) * (W - left - 20);
  const H = top + rows.length * (barH + gap) + 30;
  const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const o = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="11">`,
    `<text x="8" y="16" font-size="13" font-weight="bold">fscache / pi-natives 14.9.9 (lower is better; tick: goal${rows.some((r) => r.beforeRatio !== undefined) ? '; grey: before' : ''})</text>`];
  for (const v of [0.5, 1]) o.push(`<line x1="${x(v)}" y1="${top - 6}" x2="${x(v)}" y2="${H - 24}" stroke="#999" stroke-dasharray="3,3"/><text x="${x(v) - 8}" y="${H - 10}">${v}</text>`);
  rows.forEach((r, i) => {
    const y = top + i * (barH + gap);
    o.push(`<text x="${left - 6}" y="${y + 12}" text-anchor="end">${esc(r.name)}</text>`);
    if (r.beforeRatio !== undefined) o.push(`<rect x="${left}" y="${y}" width="${x(r.beforeRatio) - left}" height="${barH / 3}" fill="#bbb"/>`);
    o.push(`<rect x="${left}" y="${y + (r.beforeRatio !== undefined ? barH / 3 : 0)}" width="${x(r.ratio) - left}" height="${r.beforeRatio !== undefined ? (barH * 2) / 3 : barH}" fill="${r.goal && !r.ok ? '#d9534f' : '#5cb85c'}"/>`);
    o.push(`<text x="${x(r.ratio) + 4}" y="${y + 12}">${r.ratio.toFixed(2)}</text>`);
    if (r.goal) o.push(`<line x1="${x(r.goal)}" y1="${y - 2}" x2="${x(r.goal)}" y2="${y + barH + 2}" stroke="#000" stroke-width="2"/>`);
  });
  o.push('</svg>');
  return o.join('\n') + '\n';
}

if (process.argv[2] === '--child') await child();
else await main();
