// listWorkspace side by side: fscache against pi-natives 14.9.9 and 18.2.3
// (the two references), at depths 3 and 6, with and without
// collectAgentsMd, on Go's src, the 120k tree of compare.mjs and a real
// repository, idle and beside one CPU hog (a busy loop in another process).
//
//   node listworkspace.mjs --ref14 <pi_natives.node> --ref18 <pi_natives.node>
//                          [--repo DIR] [--trees DIR] [--rounds N] [--iters N]
//                          [--warm N] [--out DIR] [--no-hog]
//
// Each cell: one process per side and round (sides alternated, the order
// rotated each round), --warm untimed calls, then the median of --iters
// timed ones; the table gives the median over rounds. ratio = fscache /
// reference (lower is better); the goal is at most 0.8 of both.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median, parseArgs } from './args.mjs';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const GOAL = 0.8;



/* ------------------------------------------------------------------ child */

async function child([modPath, isRef, root, depth, agents, iters, warm]) {
  const { createRequire } = await import('node:module');
  const m = isRef === '1' ? createRequire(import.meta.url)(modPath) : await import(modPath);
  const o = { path: root, maxDepth: Number(depth), collectAgentsMd: agents === '1' };
  let r;
  for (let i = 0; i < Number(warm); i++) r = await m.listWorkspace(o);
  const times = [];
  for (let i = 0; i < Number(iters); i++) {
    const t = process.hrtime.bigint();
    r = await m.listWorkspace(o);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  process.stdout.write(JSON.stringify({ ms: median(times), entries: r.entries.length, agents: r.agentsMdFiles.length }));
}

/* ------------------------------------------------------------------- main */

function run(side, root, depth, agents, a) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', side.mod, side.ref ? '1' : '0',
    root, String(depth), agents ? '1' : '0', String(a.iters), String(a.warm)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${side.name}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function hog() {
  // A CPU-bound process on one core, for the contention column.
  return spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  a.rounds = Number(a.rounds ?? 5);
  a.iters = Number(a.iters ?? 9);
  a.warm = Number(a.warm ?? 2);
  if (!a.ref14 || !a.ref18) throw new Error('--ref14 and --ref18 are required');
  const sides = [
    { name: 'fscache', mod: path.join(here, '..', 'index.js'), ref: false },
    { name: '14.9.9', mod: path.resolve(a.ref14), ref: true },
    { name: '18.2.3', mod: path.resolve(a.ref18), ref: true },
  ];
  const goroot = spawnSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).stdout.trim();
  const trees = [['Go src', path.join(goroot, 'src')]];
  const t120k = path.resolve(a.trees ?? 'build/out/bench-trees', 't120k');
  if (fs.existsSync(t120k)) trees.push(['120k tree', t120k]);
  else console.error(`no ${t120k}: run make bench once to make it`);
  if (a.repo) trees.push([`repo ${path.basename(path.resolve(a.repo))}`, path.resolve(a.repo)]);
  else console.error('no --repo (BENCH_REPO): the real repository rows are left out');
  const loads = a['no-hog'] ? ['idle'] : ['idle', '1 hog'];
  const rows = [];
  for (const [tname, root] of trees) {
    for (const depth of [3, 6]) {
      for (const agents of [false, true]) {
        const row = { tree: tname, depth, agents };
        for (const load of loads) {
          const h = load === 'idle' ? null : hog();
          const per = Object.fromEntries(sides.map((s) => [s.name, []]));
          let shape;
          for (let r = 0; r < a.rounds; r++) {
            for (let k = 0; k < sides.length; k++) {
              const s = sides[(k + r) % sides.length];
              const res = run(s, root, depth, agents, a);
              per[s.name].push(res.ms);
              if (s.name === 'fscache') shape = `${res.entries} entries, ${res.agents} AGENTS.md`;
            }
          }
          if (h) {
            h.kill();
            await new Promise((r) => (h.exitCode !== null || h.signalCode !== null ? r() : h.once('exit', r)));
          }
          const m = Object.fromEntries(sides.map((s) => [s.name, median(per[s.name])]));
          row[load] = { ...m, r14: m.fscache / m['14.9.9'], r18: m.fscache / m['18.2.3'] };
          row.shape = shape;
        }
        rows.push(row);
        const cells = loads.map((l) => `${l}: ${row[l].fscache.toFixed(1)} / ${row[l]['14.9.9'].toFixed(1)} / ${row[l]['18.2.3'].toFixed(1)} ms (${row[l].r14.toFixed(2)}, ${row[l].r18.toFixed(2)})`);
        console.log(`${tname}, depth ${depth}${agents ? ', collectAgentsMd' : ''}: ${cells.join('; ')}  [${row.shape}]`);
      }
    }
  }
  const fmt = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
  const lines = [
    `listWorkspace, measured ${new Date().toISOString()} on ${os.cpus().length} x ${os.cpus()[0].model}; ${a.rounds} rounds x ${a.iters} timed calls per process after ${a.warm} untimed, medians. ms as fscache / 14.9.9 / 18.2.3; ratio = fscache / reference, goal <= ${GOAL} of both.`,
    '',
    `| tree | depth | collectAgentsMd | ${loads.map((l) => `${l} ms | ${l} ratio 14.9.9 / 18.2.3`).join(' | ')} | goal |`,
    `|---|---|---|${loads.map(() => '---|---|').join('')}---|`,
  ];
  for (const r of rows) {
    const met = loads.every((l) => r[l].r14 <= GOAL && r[l].r18 <= GOAL);
    lines.push(`| ${r.tree} | ${r.depth} | ${r.agents ? 'yes' : 'no'} | ${loads.map((l) => `${fmt(r[l].fscache)} / ${fmt(r[l]['14.9.9'])} / ${fmt(r[l]['18.2.3'])} | **${r[l].r14.toFixed(2)} / ${r[l].r18.toFixed(2)}**`).join(' | ')} | ${met ? 'met' : 'missed'} |`);
  }
  const out = path.resolve(a.out ?? 'build/out/bench');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'listworkspace.md'), lines.join('\n') + '\n');
  console.log(`\n${lines.join('\n')}\n\nwrote ${path.join(out, 'listworkspace.md')}`);
}

if (process.argv[2] === '--child') await child(process.argv.slice(3));
else await main();
