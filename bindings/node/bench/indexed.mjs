// Repeated greps of one root as an agent makes them, fscache (its content
// index built, as after two greps and a pause) against pi-natives 14.9.9
// (cache: true, its fastest mode) and 18.2.3 (no cache option), side by
// side: one process per side and round, sides alternated, median of the
// timed calls. Issue 19's goal: a literal grep at most 10 ms and at most 0.1
// of both references.
//
//   node indexed.mjs --ref14 <pi_natives.node> --ref18 <pi_natives.node>
//                    [--repo DIR] [--trees DIR] [--rounds N] [--iters N] [--out DIR]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, parseArgs } from './args.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

// Literal patterns (the index's case) and one without a literal (not
// served: the same path with and without the index).
const greps = {
  literal: { pattern: 'ErrUnexpectedEOF' },
  'literal phrase': { pattern: 'unexpected end of JSON input' },
  'regex with a literal': { pattern: 'func \\w+Marshal\\w*\\(' },
  ignoreCase: { pattern: 'errunexpectedeof', ignoreCase: true },
  'a token found nowhere': { pattern: 'zqxjvkwptq' },
  filesWithMatches: { pattern: 'ErrUnexpectedEOF', mode: 'filesWithMatches' },
  'no literal': { pattern: '\\w+_\\w+\\(' },
};

async function child([side, mod, root, name, iters]) {
  const { createRequire } = await import('node:module');
  const m = side === 'fscache' ? await import(mod) : createRequire(import.meta.url)(mod);
  const o = { ...greps[name], path: root, ...(side === '14.9.9' ? { cache: true } : {}) };
  if (side === 'fscache') {
    // Two greps, then a pause: the index is built in the background.
    await m.grep(o);
    await m.grep(o);
    for (let i = 0; i < 600 && m.cacheStats().grepIndex.roots < 1; i++) await new Promise((r) => setTimeout(r, 100));
  } else {
    await m.grep(o);
  }
  await m.grep(o);
  const times = [];
  for (let i = 0; i < Number(iters); i++) {
    const t = process.hrtime.bigint();
    await m.grep(o);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const st = side === 'fscache' ? m.cacheStats().grepIndex : null;
  process.stdout.write(JSON.stringify({ ms: median(times), indexed: st ? st.roots : null }));
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const rounds = Number(a.rounds ?? 3);
  const iters = Number(a.iters ?? 11);
  if (!a.ref14 || !a.ref18) throw new Error('--ref14 and --ref18 are required');
  const sides = {
    fscache: path.join(here, '..', 'index.js'),
    '14.9.9': path.resolve(a.ref14),
    '18.2.3': path.resolve(a.ref18),
  };
  const goroot = spawnSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).stdout.trim();
  const trees = [['Go src', path.join(goroot, 'src')]];
  const t120k = path.resolve(a.trees ?? 'build/out/bench-trees', 't120k');
  if (fs.existsSync(t120k)) trees.push(['120k tree', t120k]);
  if (a.repo) trees.push([`repo ${path.basename(path.resolve(a.repo))}`, path.resolve(a.repo)]);
  const names = Object.keys(sides);
  const lines = [
    `Repeated greps, measured ${new Date().toISOString()} on ${os.cpus().length} x ${os.cpus()[0].model}; ${rounds} rounds x ${iters} timed calls per process, medians; fscache with its index built, 14.9.9 with cache: true, 18.2.3 as is. ms as fscache / 14.9.9 / 18.2.3; ratio = fscache / reference.`,
    '',
    '| tree | grep | ms | ratio 14.9.9 / 18.2.3 | goal (literal: <= 10 ms and <= 0.1 of both) |',
    '|---|---|---|---|---|',
  ];
  for (const [tname, root] of trees) {
    for (const name of Object.keys(greps)) {
      const per = Object.fromEntries(names.map((n) => [n, []]));
      let indexed = true;
      for (let r = 0; r < rounds; r++) {
        for (let k = 0; k < names.length; k++) {
          const s = names[(k + r) % names.length];
          const out = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', s, sides[s], root, name, String(iters)],
            { encoding: 'utf8', env: { ...process.env, FS_SCAN_CACHE_TTL_MS: '600000' } });
          if (out.status !== 0) throw new Error(`${s}: ${out.stderr}`);
          const res = JSON.parse(out.stdout);
          per[s].push(res.ms);
          if (s === 'fscache' && res.indexed < 1) indexed = false;
        }
      }
      const m = Object.fromEntries(names.map((n) => [n, median(per[n])]));
      const r14 = m.fscache / m['14.9.9'], r18 = m.fscache / m['18.2.3'];
      const goal = name === 'no literal' ? '-' : m.fscache <= 10 && r14 <= 0.1 && r18 <= 0.1 ? 'met' : 'missed';
      const f = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
      const line = `| ${tname} | ${name}${indexed ? '' : ' (not indexed)'} | ${f(m.fscache)} / ${f(m['14.9.9'])} / ${f(m['18.2.3'])} | ${r14.toFixed(3)} / ${r18.toFixed(3)} | ${goal} |`;
      console.log(line);
      lines.push(line);
    }
  }
  const out = path.resolve(a.out ?? 'build/out/bench');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'indexed.md'), lines.join('\n') + '\n');
  console.log(`wrote ${path.join(out, 'indexed.md')}`);
}

if (process.argv[2] === '--child') await child(process.argv.slice(3));
else await main();
