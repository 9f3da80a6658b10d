// grep's persisted content index (issue 28, item 5): what building it costs,
// and what the agent's grep tool call costs with it, on Go's src, a real
// repository (babel) and 18 copies of Go's src (~2.8 GB, ~207k files),
// against pi-natives 14.9.9 and 18.2.3 and against fscache with no index
// (FS_GREP_INDEX=0) and with the heap-only index (FS_GREP_INDEX=memory).
//
//   node persisted.mjs --ref14 <pi_natives.node> --ref18 <pi_natives.node>
//        [--trees go,babel,big] [--quick] [--big-dir DIR] [--babel-dir DIR]
//        [--rounds N] [--iters N] [--warm N] [--rep-procs N] [--hog-rounds N]
//        [--no-hog] [--no-eager] [--no-build] [--no-merge] [--index-dir DIR] [--out DIR]
//
// --quick: Go's src only, 2 processes per side, 3 repeated calls, no hog, no
// eager build: a smoke run (< 1 min).
//
// The call is the agent's grep tool (agent.mjs, "grep tool": maxCount 2000,
// maxCountPerFile 21, contextBefore 1, contextAfter 3, maxColumns 512,
// hidden, gitignore, mode content, no cache), with two literals per tree:
// a rare one (the whole tree must be searched) and one that reaches
// maxCount 2000.
//
// Per tree:
//   1. Build. A fresh index directory per tree (FS_GREP_INDEX_DIR=<index
//      dir>/<tree>); one process greps twice and waits until no index is
//      building and one is published (the default policy: the second grep
//      of a root queues a background build); unless --no-eager, also one
//      process with FS_GREP_INDEX=eager (the first grep builds the index in
//      the call), in a directory removed afterwards. Reported: wall and CPU
//      (user+sys, the whole process, greps included) from the first grep to
//      the publication, the build's own time (grepIndex.lastBuildMs), the
//      .idx file's bytes per byte of indexed text (grepIndex.bytes), VmRSS
//      after loading the addon and after the build, VmHWM.
//   2. Queries, fresh processes, sides alternated (order rotated each
//      round): fscache with the published index, watching on ("fs") and off
//      (FS_SCAN_CACHE_WATCH=0, "fs w0"); fscache FS_GREP_INDEX=0 ("fs off");
//      FS_GREP_INDEX=memory ("fs mem", not on the big tree); pi-natives
//      14.9.9 and 18.2.3. "first": the process's first call (addon loaded
//      before the clock starts); its RSS growth = VmRSS after the call minus
//      VmRSS after loading the addon. In the first --rep-procs rounds the
//      process goes on: --warm calls in all (the first included) untimed,
//      fscache then waits (untimed, at most 120 s) until no index is
//      building, and "repeated" is the median of the next --iters calls.
//      For fs and fs w0 the first call must be served by the published
//      index (grepIndex.persisted.queries == 1): marked otherwise.
//   3. Beside one CPU hog (a busy loop in another process), the big tree's
//      first calls again (fs, fs w0 and the references).
//   4. Unless --no-merge, on the big (generated) tree only: the mtime of
//      every tenth file set to 3 hours ago, then a build as in 1, which
//      merges the published index (reading only those files), and a fresh
//      process's first call (watching off) answered from the merged index,
//      compared with FS_GREP_INDEX=0's answer.
// Every fscache call's answer (matches, totalMatches, filesWithMatches,
// limitReached) is hashed and compared with the answer of FS_GREP_INDEX=0;
// differing answers are listed with the command that reproduces them and
// saved under <out>/persisted-results/<hash>.json.
//
// Output: <out>/persisted.md (also printed) and persisted.json; <out> is
// build/out/bench unless --out.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, parseArgs } from './args.mjs';
import { goSrc } from './trees.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..', '..');
const SELF = fileURLToPath(import.meta.url);

// The sides: how each child process is started.
const SIDES = {
  fs: { env: {}, mod: 'fscache', label: 'fs (index, watch)' },
  'fs w0': { env: { FS_SCAN_CACHE_WATCH: '0' }, mod: 'fscache', label: 'fs (index, no watch)' },
  'fs off': { env: { FS_GREP_INDEX: '0' }, mod: 'fscache', label: 'fs FS_GREP_INDEX=0' },
  'fs mem': { env: { FS_GREP_INDEX: 'memory' }, mod: 'fscache', label: 'fs FS_GREP_INDEX=memory' },
  '14.9.9': { env: {}, mod: 'ref14', label: 'pi-natives 14.9.9' },
  '18.2.3': { env: {}, mod: 'ref18', label: 'pi-natives 18.2.3' },
};
const REFS = ['14.9.9', '18.2.3'];
const ENV_CLEARED = ['FS_GREP_INDEX', 'FS_SCAN_CACHE_WATCH', 'FS_GREP_INDEX_DIR'];

/* ------------------------------------------------------------------- call */

// The agent's grep tool call (agent.mjs, agentGrep; coding-agent
// src/tools/grep.ts:1248), returning the whole result.
function agentGrep(m, root, pattern) {
  return m.grep({
    pattern, path: root, glob: undefined, ignoreCase: false, multiline: false,
    hidden: true, gitignore: true, maxCount: 2000, contextBefore: 1, contextAfter: 3,
    maxColumns: 512, mode: 'content', maxCountPerFile: 21,
    signal: new AbortController().signal, timeoutMs: 30000,
  }, undefined);
}

// The answer's identity: what must not change with the index.
function answerOf(r) {
  return JSON.stringify({ matches: r.matches, totalMatches: r.totalMatches, filesWithMatches: r.filesWithMatches, limitReached: r.limitReached ?? false });
}
const hashOf = (s) => crypto.createHash('sha1').update(s).digest('hex').slice(0, 16);
const summary = (r) => `${r.matches.length} matches in ${r.filesWithMatches} files${r.limitReached ? ', maxCount reached' : ''}`;

/* ------------------------------------------------------------------ child */

function status() {
  const s = fs.readFileSync('/proc/self/status', 'utf8');
  const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s)?.[1] ?? NaN);
  return { rss: kb('VmRSS'), hwm: kb('VmHWM'), anon: kb('RssAnon'), file: kb('RssFile') };
}
const cpuMs = (c) => (c.user + c.system) / 1000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function child(cfg) {
  const { createRequire } = await import('node:module');
  const isFs = cfg.mod.endsWith('index.js');
  const m = isFs ? await import(cfg.mod) : createRequire(import.meta.url)(cfg.mod);
  const gstats = () => (isFs ? m.cacheStats().grepIndex : null);
  const dumps = new Map();
  const one = async () => {
    const c0 = process.cpuUsage();
    const t = process.hrtime.bigint();
    let r;
    try {
      r = await agentGrep(m, cfg.root, cfg.pattern);
    } catch (e) {
      return { ms: Number(process.hrtime.bigint() - t) / 1e6, cpu: cpuMs(process.cpuUsage(c0)), hash: 'error', out: `error: ${String(e?.message ?? e).split('\n')[0]}` };
    }
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    const cpu = cpuMs(process.cpuUsage(c0));
    const a = answerOf(r);
    const hash = hashOf(a);
    if (cfg.dumpDir && !dumps.has(hash)) dumps.set(hash, a);
    return { ms, cpu, hash, out: summary(r), filesSearched: r.filesSearched };
  };
  const waitIdle = async (limitMs, published) => {
    const t = Date.now();
    for (;;) {
      const s = gstats();
      if (s.building === 0 && (!published || s.persisted.published >= 1 || s.buildFailures > 0)) break;
      if (Date.now() - t > limitMs) break;
      await sleep(20);
    }
    return Date.now() - t;
  };
  const res = {};
  const st0 = status();
  res.rssLoad = st0;
  if (cfg.mode === 'build') {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    res.calls = [await one()];
    if (!cfg.eager) res.calls.push(await one());
    res.waitedMs = await waitIdle(30 * 60_000, true);
    res.wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
    res.cpuMs = cpuMs(process.cpuUsage(c0));
    res.rssAfter = status();
    res.stats = gstats();
    res.after = await one(); // served by the index just built
    res.rssEnd = status();
  } else {
    const first = await one();
    res.first = first;
    res.rssFirst = status();
    res.statsFirst = gstats();
    if (cfg.repeat) {
      const warm = [];
      for (let k = 1; k < cfg.warm; k++) warm.push(await one());
      res.warm = warm;
      if (isFs) res.waitedMs = await waitIdle(120_000, false);
      const s0 = gstats();
      const reps = [];
      for (let i = 0; i < cfg.iters; i++) reps.push(await one());
      res.reps = reps;
      res.repMs = median(reps.map((x) => x.ms));
      res.rssRep = status();
      const s1 = gstats();
      if (s1) {
        res.statsRep = s1;
        res.repServed = { index: s1.queries - s0.queries, persisted: s1.persisted.queries - s0.persisted.queries };
      }
    }
  }
  if (cfg.dumpDir) {
    fs.mkdirSync(cfg.dumpDir, { recursive: true });
    for (const [h, a] of dumps) {
      const f = path.join(cfg.dumpDir, `${h}.json`);
      if (!fs.existsSync(f)) fs.writeFileSync(f, a);
    }
  }
  process.stdout.write(JSON.stringify(res));
}

/* ------------------------------------------------------------------- main */

function childEnv(side, indexDir) {
  const env = { ...process.env };
  for (const k of ENV_CLEARED) delete env[k];
  Object.assign(env, SIDES[side]?.env ?? {});
  if (indexDir) env.FS_GREP_INDEX_DIR = indexDir;
  return env;
}

// The command line that reproduces a child (for the report).
function reproOf(cfg, env) {
  const vars = ['FSCACHE_NODE_ADDON', ...ENV_CLEARED].filter((k) => env[k] !== undefined).map((k) => `${k}=${env[k]}`);
  return `${vars.join(' ')} node ${path.relative(process.cwd(), SELF)} --child '${JSON.stringify({ ...cfg, dumpDir: undefined })}'`;
}

function runChild(cfg, env) {
  const r = spawnSync(process.execPath, [SELF, '--child', JSON.stringify(cfg)],
    { encoding: 'utf8', env, maxBuffer: 1 << 26, timeout: 40 * 60_000 });
  if (r.status !== 0) {
    return { crashed: `exit ${r.status} signal ${r.signal}: ${(r.stderr || String(r.error || '')).slice(-2000)}`, repro: reproOf(cfg, env) };
  }
  const out = JSON.parse(r.stdout);
  out.repro = reproOf(cfg, env);
  return out;
}

function hog() {
  return spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
}
async function stop(h) {
  h.kill();
  await new Promise((r) => (h.exitCode !== null || h.signalCode !== null ? r() : h.once('exit', r)));
}

const fmt = (x) => (x === undefined || x === null || !Number.isFinite(x) ? 'n/a' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const mb = (kb) => (Number.isFinite(kb) ? (kb / 1024).toFixed(0) : 'n/a');
const idxFiles = (dir) => {
  const d = path.join(dir, 'grep-v2'); // internal/idxstore's versionDir
  if (!fs.existsSync(d)) return [];
  return fs.readdirSync(d).filter((f) => f.endsWith('.idx')).map((f) => fs.statSync(path.join(d, f)).size);
};

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const quick = !!a.quick;
  if (!a.ref14 || !a.ref18) throw new Error('--ref14 and --ref18 are required');
  const rounds = Number(a.rounds ?? (quick ? 2 : 5));
  const iters = Number(a.iters ?? (quick ? 3 : 10));
  const warm = Math.max(2, Number(a.warm ?? 3));
  const repProcs = Number(a['rep-procs'] ?? 1);
  const hogRounds = Number(a['hog-rounds'] ?? 3);
  const eager = !quick && !a['no-eager'];
  const mods = {
    fscache: path.join(here, '..', 'index.js'),
    ref14: path.resolve(a.ref14),
    ref18: path.resolve(a.ref18),
  };
  const outDir = path.resolve(a.out ?? path.join(repo, 'build', 'out', 'bench'));
  const idxRoot = path.resolve(a['index-dir'] ?? path.join(outDir, 'persisted-index'));
  const dumpDir = path.join(outDir, 'persisted-results');
  const bigDir = path.resolve(a['big-dir'] ?? process.env.BENCH_BIG_DIR ?? path.join(repo, 'build', 'out', 'bench-trees', 'go-src-x18'));
  const babelDir = path.resolve(a['babel-dir'] ?? path.join(repo, 'build', 'out', 'repos', 'babel'));
  const known = {
    go: { name: 'Go src', root: () => goSrc(), rare: 'ErrShortWrite', many: 'err != nil' },
    babel: { name: 'babel', root: () => babelDir, rare: 'buildCodeFrameError', many: 'import ' },
    big: { name: 'Go src x18', root: () => bigDir, rare: 'ErrShortWrite', many: 'err != nil', big: true },
  };
  const treeKeys = String(a.trees ?? (quick ? 'go' : 'go,babel,big')).split(',').map((s) => s.trim()).filter(Boolean);
  const trees = [];
  for (const k of treeKeys) {
    const t = known[k];
    if (!t) throw new Error(`--trees: unknown tree ${k} (go, babel, big)`);
    const root = t.root();
    if (!fs.existsSync(root)) {
      console.error(`${t.name}: ${root} does not exist (big: make it with \`make bench-agent BENCH_BIG=1\` or pass --big-dir; babel: --babel-dir); left out`);
      continue;
    }
    trees.push({ key: k, ...t, root });
  }

  const started = new Date();
  const machine = `${os.cpus().length} x ${os.cpus()[0].model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`;
  const loadAt = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
  const loads = []; // load average before each phase
  const note = (what) => {
    const l = loadAt();
    loads.push(`${what}: ${l}`);
    console.error(`[${new Date().toISOString()}] ${what} (load ${l})`);
  };
  console.error(`persisted grep index bench; ${started.toISOString()}; ${machine}; ${rounds} rounds, ${iters} repeated calls after ${warm} untimed`);
  const builds = [];
  const cells = [];
  const problems = [];
  const wants = {}; // tree + pattern: FS_GREP_INDEX=0's answer

  for (const t of trees) {
    const dir = path.join(idxRoot, t.key);
    const env = (side, d = dir) => childEnv(side, d);
    /* ---- 1. build */
    if (!a['no-build'] || idxFiles(dir).length === 0) {
      const policies = eager ? ['eager', 'default'] : ['default'];
      for (const pol of policies) {
        const d = pol === 'eager' ? `${dir}-eager` : dir;
        fs.rmSync(d, { recursive: true, force: true });
        fs.mkdirSync(d, { recursive: true, mode: 0o700 });
        note(`${t.name}: build (${pol})`);
        const e = env('fs', d);
        if (pol === 'eager') e.FS_GREP_INDEX = 'eager';
        const cfg = { mode: 'build', mod: mods.fscache, root: t.root, pattern: t.rare, eager: pol === 'eager', dumpDir };
        const r = runChild(cfg, e);
        const sizes = idxFiles(d);
        const b = { tree: t.name, policy: pol, ...r, idxBytes: sizes.reduce((x, y) => x + y, 0), idxCount: sizes.length };
        builds.push(b);
        if (r.crashed) problems.push(`- ${t.name}, build (${pol}): crashed: ${r.crashed}\n  reproduce: \`${r.repro}\``);
        else if (r.stats.persisted.published < 1) problems.push(`- ${t.name}, build (${pol}): nothing published (buildFailures ${r.stats.buildFailures}, fallbacks ${JSON.stringify(r.stats.fallbacks)}, lastError ${JSON.stringify(r.stats.persisted.lastError)})\n  reproduce: \`${r.repro}\``);
        console.error(`  ${pol}: wall ${fmt(r.wallMs)} ms, cpu ${fmt(r.cpuMs)} ms, lastBuild ${fmt(r.stats?.lastBuildMs)} ms, idx ${sizes.join('+')} B for ${r.stats?.bytes} B of text`);
        if (pol === 'eager') fs.rmSync(d, { recursive: true, force: true });
      }
    }
    /* ---- 2. queries; 3. beside a hog */
    const sides = Object.keys(SIDES).filter((s) => s !== 'fs mem' || !t.big || a['mem-big']);
    const phases = [{ load: 'idle', sides, rounds, repeat: true }];
    if (t.big && !quick && !a['no-hog']) phases.push({ load: '1 hog', sides: ['fs', 'fs w0', ...REFS], rounds: hogRounds, repeat: false });
    for (const ph of phases) {
      for (const [pk, pattern] of [['rare', t.rare], ['many', t.many]]) {
        note(`${t.name}: ${JSON.stringify(pattern)}, ${ph.load}`);
        const h = ph.load === 'idle' ? null : hog();
        const samples = Object.fromEntries(ph.sides.map((s) => [s, []]));
        try {
          for (let r = 0; r < ph.rounds; r++) {
            for (let k = 0; k < ph.sides.length; k++) {
              const side = ph.sides[(k + r) % ph.sides.length];
              const cfg = { mode: 'query', mod: mods[SIDES[side].mod], root: t.root, pattern, repeat: ph.repeat && r < repProcs, warm, iters, dumpDir: SIDES[side].mod === 'fscache' ? dumpDir : undefined };
              const res = runChild(cfg, env(side));
              res.round = r;
              samples[side].push(res);
            }
          }
        } finally {
          if (h) await stop(h);
        }
        const cell = { tree: t.name, key: t.key, pattern, pk, load: ph.load, samples, first: {}, repeated: {}, rssFirst: {}, rssRep: {}, out: {}, served: {} };
        for (const s of ph.sides) {
          const ok = samples[s].filter((x) => !x.crashed);
          for (const x of samples[s].filter((y) => y.crashed)) problems.push(`- ${t.name}, ${JSON.stringify(pattern)}, ${s}, round ${x.round}: crashed: ${x.crashed}\n  reproduce: \`${x.repro}\``);
          cell.first[s] = ok.length ? median(ok.map((x) => x.first.ms)) : NaN;
          const reps = ok.filter((x) => x.reps).flatMap((x) => x.reps.map((y) => y.ms));
          cell.repeated[s] = reps.length ? median(reps) : NaN;
          cell.rssFirst[s] = ok.length ? median(ok.map((x) => x.rssFirst.rss - x.rssLoad.rss)) : NaN;
          cell.rssFirstAnon = cell.rssFirstAnon ?? {};
          cell.rssFirstAnon[s] = ok.length ? median(ok.map((x) => x.rssFirst.anon - x.rssLoad.anon)) : NaN;
          const rr = ok.filter((x) => x.rssRep);
          cell.rssRep[s] = rr.length ? median(rr.map((x) => x.rssRep.rss - x.rssLoad.rss)) : NaN;
          cell.out[s] = ok[0]?.first.out;
          if (SIDES[s].mod === 'fscache' && s !== 'fs off') {
            // Was the first call served by the published index?
            const used = ok.map((x) => x.statsFirst?.persisted?.queries ?? 0);
            cell.served[s] = { firstByPersisted: used.filter((q) => q === 1).length, procs: ok.length, rep: ok.find((x) => x.repServed)?.repServed, waitedMs: ok.find((x) => x.waitedMs !== undefined)?.waitedMs };
            if ((s === 'fs' || s === 'fs w0') && used.some((q) => q !== 1)) {
              const x = ok.find((y) => (y.statsFirst?.persisted?.queries ?? 0) !== 1);
              problems.push(`- ${t.name}, ${JSON.stringify(pattern)}, ${s}, ${ph.load}: first call not served by the published index in ${used.filter((q) => q !== 1).length} of ${ok.length} processes (persisted ${JSON.stringify(x.statsFirst?.persisted)}, fallbacks ${JSON.stringify(x.statsFirst?.fallbacks)})\n  reproduce: \`${x.repro}\``);
            }
          }
        }
        // Answers: every fscache call against FS_GREP_INDEX=0's.
        const base = samples['fs off']?.filter((x) => !x.crashed).map((x) => x.first.hash) ?? [];
        const want = base[0] ?? wants[`${t.key} ${pattern}`];
        if (want) wants[`${t.key} ${pattern}`] ??= want;
        if (new Set(base).size > 1) problems.push(`- ${t.name}, ${JSON.stringify(pattern)}, ${ph.load}: FS_GREP_INDEX=0 itself answered differently in different processes: ${[...new Set(base)].join(', ')}`);
        cell.want = want;
        cell.mismatches = [];
        if (want) {
          for (const s of ph.sides) {
            if (SIDES[s].mod !== 'fscache') continue;
            for (const x of samples[s].filter((y) => !y.crashed)) {
              const calls = [['first', x.first], ...(x.warm ?? []).map((c, i) => [`warm ${i + 1}`, c]), ...(x.reps ?? []).map((c, i) => [`repeated ${i + 1}`, c])];
              for (const [which, c] of calls) {
                if (c.hash !== want) cell.mismatches.push({ side: s, round: x.round, which, got: c.hash, out: c.out, repro: x.repro });
              }
            }
          }
          for (const mm of cell.mismatches) {
            problems.push(`- ${t.name}, ${JSON.stringify(pattern)}, ${ph.load}, ${mm.side} (round ${mm.round}, ${mm.which} call): answer ${mm.got} (${mm.out}) differs from FS_GREP_INDEX=0's ${want} (${cell.out['fs off'] ?? ''}); both answers under ${path.relative(process.cwd(), dumpDir)}/<hash>.json\n  reproduce: \`${mm.repro}\``);
          }
        }
        cells.push(cell);
        console.error(`  first:    ${ph.sides.map((s) => `${s} ${fmt(cell.first[s])}`).join(' | ')} ms`);
        if (ph.repeat) console.error(`  repeated: ${ph.sides.map((s) => `${s} ${fmt(cell.repeated[s])}`).join(' | ')} ms`);
        console.error(`  answers:  ${ph.sides.map((s) => `${s}: ${cell.out[s]}`).join('; ')}${cell.mismatches.length ? `; ${cell.mismatches.length} MISMATCHES` : ''}`);
      }
    }
    /* ---- 4. rebuild after a tenth of the files changed (the generated tree only: their mtimes are set) */
    if (t.big && !quick && !a['no-merge']) {
      const files = [];
      const walkDir = (d) => {
        for (const e of fs.readdirSync(d, { withFileTypes: true })) {
          const p = path.join(d, e.name);
          if (e.isDirectory()) walkDir(p);
          else if (e.isFile()) files.push(p);
        }
      };
      walkDir(t.root);
      files.sort();
      // Not racy (3 hours ago), and a new mtime at every run.
      const when = new Date(Date.now() - 3 * 3600e3);
      let changed = 0;
      for (let i = 0; i < files.length; i += 10, changed++) fs.utimesSync(files[i], when, when);
      note(`${t.name}: merged rebuild (${changed} of ${files.length} files changed)`);
      const r = runChild({ mode: 'build', mod: mods.fscache, root: t.root, pattern: t.rare, dumpDir }, env('fs'));
      const sizes = idxFiles(dir);
      builds.push({ tree: t.name, policy: 'merge', changed, total: files.length, ...r, idxBytes: sizes.reduce((x, y) => x + y, 0), idxCount: sizes.length });
      if (r.crashed) problems.push(`- ${t.name}, merged rebuild: crashed: ${r.crashed}\n  reproduce: \`${r.repro}\``);
      else if (r.stats.persisted.merged < 1) problems.push(`- ${t.name}, merged rebuild: no merged index published (persisted ${JSON.stringify(r.stats.persisted)})\n  reproduce: \`${r.repro}\``);
      console.error(`  merged: wall ${fmt(r.wallMs)} ms, cpu ${fmt(r.cpuMs)} ms, lastBuild ${fmt(r.stats?.lastBuildMs)} ms`);
      // The next process answers from it, as FS_GREP_INDEX=0 does.
      const q = runChild({ mode: 'query', mod: mods.fscache, root: t.root, pattern: t.rare, dumpDir }, env('fs w0'));
      const want = wants[`${t.key} ${t.rare}`];
      if (q.crashed) problems.push(`- ${t.name}, after the merged rebuild: crashed: ${q.crashed}\n  reproduce: \`${q.repro}\``);
      else if (q.statsFirst?.persisted?.queries !== 1 || q.statsFirst.persisted.untrusted !== 0 || (want && q.first.hash !== want)) {
        problems.push(`- ${t.name}, after the merged rebuild: ${q.first.out} (${q.first.hash}, want ${want}), persisted ${JSON.stringify(q.statsFirst?.persisted)}\n  reproduce: \`${q.repro}\``);
      }
      console.error(`  after the merge, fs w0 first call: ${fmt(q.first?.ms)} ms, ${q.first?.out}`);
    }
  }
  note('end');

  /* ---- report */
  const faster = (c, kind) => {
    const r = REFS.map((s) => c[kind][s]).filter(Number.isFinite);
    return r.length ? Math.min(...r) : NaN;
  };
  const L = [
    '# grep\'s persisted index: build, first call of a fresh process, repeated calls',
    '',
    `Measured ${started.toISOString()} on ${machine}. Load average (1, 5, 15 min) before each phase: ${loads.join('; ')}. ` +
      `The agent's grep tool call (agent.mjs). "first": first call of a fresh process (addon loaded, page cache warm), median of ${rounds} processes per side, sides alternated; ` +
      `"repeated": in ${repProcs} process${repProcs === 1 ? '' : 'es'} per side, after ${warm} untimed calls (the first included; fscache then waits, untimed, until no index is building), median of ${iters} calls. ` +
      `RSS growth: VmRSS after the first call minus VmRSS after loading the addon (MB; median; in parentheses the anonymous part). ` +
      'ratio: fscache / the faster reference.',
    '',
    '## Build of the persisted index',
    '',
    '| tree | policy | wall s | CPU s (user+sys) | build (lastBuildMs) s | files | text MB | .idx MB | .idx / text | RSS after load → after build MB (peak) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const b of builds) {
    if (b.crashed) { L.push(`| ${b.tree} | ${b.policy} | crashed | | | | | | | |`); continue; }
    const s = b.stats;
    const pol = { eager: 'FS_GREP_INDEX=eager, 1 grep', merge: `rebuild merged from the published index, ${b.changed} of ${b.total} files changed` }[b.policy] ?? 'default: 2 greps, background build';
    L.push(`| ${b.tree} | ${pol} | ${(b.wallMs / 1000).toFixed(2)} | ${(b.cpuMs / 1000).toFixed(2)} | ${(s.lastBuildMs / 1000).toFixed(2)} | ${s.files} | ${(s.bytes / 1e6).toFixed(0)} | ${(b.idxBytes / 1e6).toFixed(1)} | ${(s.bytes > 0 ? (b.idxBytes / s.bytes).toFixed(3) : "n/a")} | ${mb(b.rssLoad.rss)} → ${mb(b.rssAfter.rss)} (${mb(b.rssAfter.hwm)}) |`);
  }
  const cols = Object.keys(SIDES);
  L.push('', '## Calls (ms)', '',
    `| tree | pattern | call | load | ${cols.map((s) => SIDES[s].label).join(' | ')} | fs / ref | fs w0 / ref | fs / fs mem | answer (FS_GREP_INDEX=0) |`,
    `|---|---|---|---|${cols.map(() => '---:').join('|')}|---:|---:|---:|---|`);
  const ratio = (x, y) => (Number.isFinite(x) && Number.isFinite(y) && y > 0 ? (x / y).toFixed(3) : 'n/a');
  for (const c of cells) {
    for (const kind of ['first', 'repeated']) {
      if (kind === 'repeated' && c.load !== 'idle') continue;
      const ref = faster(c, kind);
      L.push(`| ${c.tree} | ${JSON.stringify(c.pattern)} | ${kind} | ${c.load} | ${cols.map((s) => fmt(c[kind][s])).join(' | ')} | **${ratio(c[kind].fs, ref)}** | **${ratio(c[kind]['fs w0'], ref)}** | ${ratio(c[kind].fs, c[kind]['fs mem'])} | ${c.out['fs off'] ?? c.out.fs} |`);
    }
  }
  L.push('', '## RSS growth of the querying process (MB)', '',
    '| tree | pattern | load | ' + cols.map((s) => `${SIDES[s].label} first`).join(' | ') + ' | fs after repeated | fs w0 after repeated |',
    '|---|---|---|' + cols.map(() => '---:').join('|') + '|---:|---:|');
  for (const c of cells) {
    L.push(`| ${c.tree} | ${JSON.stringify(c.pattern)} | ${c.load} | ${cols.map((s) => (Number.isFinite(c.rssFirst[s]) ? `${mb(c.rssFirst[s])} (${mb(c.rssFirstAnon[s])})` : 'n/a')).join(' | ')} | ${mb(c.rssRep.fs)} | ${mb(c.rssRep['fs w0'])} |`);
  }
  L.push('', '## Which index served fscache', '');
  for (const c of cells) {
    const parts = Object.entries(c.served).map(([s, v]) => `${s}: ` + (s === 'fs mem' ? '' : `first call by the published index in ${v.firstByPersisted}/${v.procs} processes`) +
      (v.rep ? `, repeated calls: ${v.rep.index} indexed (${v.rep.persisted} by the published index)` : '') + (v.waitedMs !== undefined ? `, waited ${v.waitedMs} ms for a build` : ''));
    L.push(`- ${c.tree}, ${JSON.stringify(c.pattern)}, ${c.load}: ${parts.join('; ')}`);
  }
  // The goals of issue 28 item 5.
  const goals = [];
  for (const c of cells.filter((x) => x.key === 'big')) {
    const tag = `${c.tree}, ${JSON.stringify(c.pattern)}, ${c.load}`;
    const ref = faster(c, 'first');
    const met = (b) => (b ? 'met' : '**not met**');
    goals.push(`- ${tag}: first call with the published index ${fmt(c.first.fs)} ms = ${ratio(c.first.fs, ref)} of the faster reference (goal ≤ 0.25): ${met(c.first.fs <= 0.25 * ref)}; ` +
      `watching off ${fmt(c.first['fs w0'])} ms = ${ratio(c.first['fs w0'], ref)} (goal ≤ 0.5): ${met(c.first['fs w0'] <= 0.5 * ref)}`);
    if (c.load === 'idle') {
      const rref = faster(c, 'repeated');
      goals.push(`- ${tag}: repeated ${fmt(c.repeated.fs)} ms, ${ratio(c.repeated.fs, rref)} of the faster reference (goal ≤ 20 ms and ≤ 0.02): ${met(c.repeated.fs <= 20 && c.repeated.fs <= 0.02 * rref)}; ` +
        `watching off ${fmt(c.repeated['fs w0'])} ms, ${ratio(c.repeated['fs w0'], rref)}: ${met(c.repeated['fs w0'] <= 20 && c.repeated['fs w0'] <= 0.02 * rref)}`);
      const g = Math.max(c.rssFirst.fs, c.rssFirst['fs w0']);
      goals.push(`- ${tag}: RSS growth of the first call ${mb(c.rssFirst.fs)} MB (watch), ${mb(c.rssFirst['fs w0'])} MB (no watch); after the repeated calls ${mb(c.rssRep.fs)} / ${mb(c.rssRep['fs w0'])} MB (goal ≤ 150 MB): ${met(g <= 150 * 1024 && !(c.rssRep.fs > 150 * 1024))}`);
    }
  }
  for (const c of cells.filter((x) => x.key !== 'big' && x.load === 'idle')) {
    goals.push(`- ${c.tree}, ${JSON.stringify(c.pattern)}: against FS_GREP_INDEX=memory (today's policy) first ${fmt(c.first.fs)} vs ${fmt(c.first['fs mem'])} ms (${ratio(c.first.fs, c.first['fs mem'])}), repeated ${fmt(c.repeated.fs)} vs ${fmt(c.repeated['fs mem'])} ms (${ratio(c.repeated.fs, c.repeated['fs mem'])})`);
  }
  if (goals.length) L.push('', '## Goals (issue 28, item 5)', '', ...goals);
  L.push('', '## Problems', '', ...(problems.length ? problems : ['None: every fscache answer equals FS_GREP_INDEX=0\'s, no crash, every first call of fs and fs w0 served by the published index.']));
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'persisted.md'), L.join('\n') + '\n');
  fs.writeFileSync(path.join(outDir, 'persisted.json'), JSON.stringify({ when: started.toISOString(), machine, loads, rounds, iters, warm, repProcs, builds, cells, problems }, null, 1) + '\n');
  console.log(`${L.join('\n')}\n\nwrote ${path.join(outDir, 'persisted.md')} and persisted.json`);
}

if (process.argv[2] === '--child') await child(JSON.parse(process.argv[3]));
else await main();
