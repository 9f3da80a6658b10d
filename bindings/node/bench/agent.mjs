// The coding agent's own calls, fscache against pi-natives 14.9.9 and 18.2.3
// (issue 26, item 5): each call shape exactly as oh-my-pi makes it, on Go's
// src, the generated 120k tree, a real repository (--repo) and, with --big,
// 18 copies of Go's src; each shape as the first call of a fresh process and
// repeated in one process; idle and beside one CPU hog.
//
//   node agent.mjs --ref14 <pi_natives.node> --ref18 <pi_natives.node>
//                  [--repo DIR] [--big] [--quick] [--trees DIR] [--out DIR]
//                  [--rounds N] [--iters N] [--warm N] [--no-hog]
//                  [--big-rounds N] [--big-iters N]   (the --big tree's; default 3 and 3)
//                  [--filter REGEX]   (on "tree shape", e.g. --filter 'Go src.*grep')
//                  [--repo-glob P] [--repo-literal S] [--repo-many S] [--repo-query Q]
//
// BENCH_BIG=1 in the environment is --big.
//
// Where the shapes come from. The options below are copied from the published
// agent, npm @oh-my-pi/pi-coding-agent@18.2.3 and @oh-my-pi/pi-tui@18.2.3
// (the release that depends on pi-natives 18.2.3, the second reference; npm
// has no 18.0.0 of the agent: its 18.x releases start at 18.1.16). Files and
// lines in those tarballs:
//   glob tool      coding-agent src/tools/glob.ts:493 (GlobTool.execute):
//                  glob({pattern, path, hidden: true (default), maxResults: 200
//                  (DEFAULT_LIMIT), sortByMtime: true, gitignore: true (default),
//                  recursive: false, signal: AbortSignal.any([caller's,
//                  AbortSignal.timeout(5000)]), timeoutMs: 5000
//                  (DEFAULT_GLOB_TIMEOUT_MS)}, onMatch); no cache.
//   discovery      coding-agent src/discovery/helpers.ts:597 (loadFilesFromDir,
//                  extensions ["ts","js"], recursive): glob({pattern:
//                  "**/*.{ts,js}", path, gitignore: true, hidden: false,
//                  fileType: FileType.File, recursive: true}); no cache.
//   grep tool      coding-agent src/tools/grep.ts:1248 (GrepTool.execute, one
//                  directory): grep({pattern, path, glob, ignoreCase, multiline,
//                  hidden: true, gitignore: true, maxCount: 2000
//                  (INTERNAL_TOTAL_CAP), contextBefore: 1, contextAfter: 3 (the
//                  grep.context* settings' defaults, config/settings-schema.ts),
//                  maxColumns: 512 (DEFAULT_MAX_COLUMN), mode: "content",
//                  maxCountPerFile: 21 (MULTI_FILE_PER_FILE_MATCHES + 1), signal,
//                  timeoutMs: 30000 (SEARCH_GREP_TIMEOUT_MS)}); no cache.
//   read tool, dir coding-agent src/workspace-tree.ts:61 (buildDirectoryTree, from
//                  tools/read.ts:2908 with READ_DIRECTORY_MAX_DEPTH = 2):
//                  listWorkspace({path, maxDepth: 2, hidden: true, gitignore: false}).
//   system prompt  coding-agent src/workspace-tree.ts:92 (buildWorkspaceTree, from
//                  system-prompt.ts / sdk.ts with a 5000 ms deadline):
//                  listWorkspace({path, maxDepth: 3, hidden: false, gitignore: true,
//                  collectAgentsMd: true, timeoutMs: 5000}).
//   @-mention      pi-tui src/autocomplete.ts:9 (buildAutocompleteFuzzyDiscoveryProfile,
//                  called per keystroke at :1120): fuzzyFind({query, path,
//                  maxResults: 100, hidden: true, gitignore: true, cache: true,
//                  signal}).
// The repository snapshot of can1357/oh-my-pi at hand was older (5.7.67), so
// the published tarballs were read instead.
//
// Measurement. One Node process per side and round, sides alternated (the
// order rotated each round), the addon loaded before any timing. In each
// process: "first" is the first call (the process's first, with the OS page
// cache warm from earlier processes: what an agent's first glob, grep or
// system prompt costs once it has started); then the first --warm calls
// (default 3, the first included) are untimed, and "repeated" is the median
// of the next --iters calls. fscache answers an uncached call of the same
// shape from a watched scan from the third call on (the second walks and
// starts the watch) and builds grep's content index in the background after
// two greps of a root, so three warm-up calls reach its steady state; before
// the timed calls its process waits (untimed, at most 30 s) until no index is
// being built, as an agent's seconds between calls would. The references have
// nothing to wait for. For the @-mention the calls are the keystrokes of one
// query (h, ht, htt, ...; the first call is the first keystroke, the timed
// calls continue the typing and start over at the end). A cell is the median
// over rounds; ratio = fscache / the faster reference (lower is better).
// Grep's persisted index (issue 35): each fscache process gets an index
// directory of its own (FS_GREP_INDEX_DIR), empty, so that "first" is a
// first grep with no persisted index (what an index an earlier process
// published would change is measured apart); for the grep shapes, the
// cell also runs, per round, one more fresh fscache process whose index
// directory holds the tree's published index ("first, persisted index":
// made once per tree by an untimed process that greps twice and waits
// for its build), in the rotation of the sides' processes.
// Every cell runs idle, then beside one CPU hog (a busy loop in another
// process, as compare.mjs and listworkspace.mjs do; off with --no-hog).
//
// Output: build/out/bench/agent.md (the table, also printed) and agent.json
// (every sample, each side's result sizes, fscache's served/walked counts).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, parseArgs } from './args.mjs';
import { genTree, goSrc } from './trees.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..', '..');
const AGENT = '@oh-my-pi/pi-coding-agent@18.2.3 / @oh-my-pi/pi-tui@18.2.3';
const FILE = 1; // FileType.File
const SIDES = ['fscache', '14.9.9', '18.2.3'];

/* ----------------------------------------------------------------- shapes */

// Each shape: the agent's call (m = the module, root, t = the tree's
// arguments, k = the call's index in its process), and what it returned.
const shapes = {
  'glob tool': {
    arg: (t) => `pattern ${JSON.stringify(t.glob)}`,
    call: async (m, root, t) => {
      const timeoutMs = 5000;
      const signal = AbortSignal.any([new AbortController().signal, AbortSignal.timeout(timeoutMs)]);
      const streamed = []; // what the tool shows while the walk runs
      const r = await m.glob({
        pattern: t.glob, path: root, hidden: true, maxResults: 200, sortByMtime: true,
        gitignore: true, recursive: false, signal, timeoutMs,
      }, (err, match) => {
        if (err || signal.aborted || !match?.path) return;
        streamed.push(match.path);
      });
      // (How many matches stream before the promise settles varies from run
      // to run; only the result's size is reported.)
      return `${r.matches.length} matches`;
    },
  },
  discovery: {
    arg: () => 'pattern "**/*.{ts,js}"',
    call: async (m, root) => {
      const r = await m.glob({ pattern: '**/*.{ts,js}', path: root, gitignore: true, hidden: false, fileType: FILE, recursive: true });
      return `${r.matches.length} files`;
    },
  },
  'grep tool, literal': {
    arg: (t) => `pattern ${JSON.stringify(t.literal)}`,
    call: (m, root, t) => agentGrep(m, root, t.literal),
  },
  'grep tool, many matches': {
    arg: (t) => `pattern ${JSON.stringify(t.many)}`,
    skip: (t) => !t.many,
    call: (m, root, t) => agentGrep(m, root, t.many),
  },
  'read tool on a dir': {
    arg: () => 'maxDepth 2',
    call: async (m, root) => {
      const r = await m.listWorkspace({ path: root, maxDepth: 2, hidden: true, gitignore: false });
      return `${r.entries.length} entries${r.truncated ? ', truncated' : ''}`;
    },
  },
  'system prompt': {
    arg: () => 'maxDepth 3, collectAgentsMd',
    call: async (m, root) => {
      const r = await m.listWorkspace({ path: root, maxDepth: 3, hidden: false, gitignore: true, collectAgentsMd: true, timeoutMs: 5000 });
      return `${r.entries.length} entries, ${r.agentsMdFiles.length} AGENTS.md${r.truncated ? ', truncated' : ''}`;
    },
  },
  '@-mention': {
    arg: (t) => `keystrokes of ${JSON.stringify(t.query)}`,
    call: async (m, root, t, k) => {
      const query = t.query.slice(0, (k % t.query.length) + 1);
      const r = await m.fuzzyFind({ query, path: root, maxResults: 100, hidden: true, gitignore: true, cache: true, signal: new AbortController().signal });
      return `${r.matches.length} matches for ${JSON.stringify(query)}`;
    },
  },
};

async function agentGrep(m, root, pattern) {
  const r = await m.grep({
    pattern, path: root, glob: undefined, ignoreCase: false, multiline: false,
    hidden: true, gitignore: true, maxCount: 2000, contextBefore: 1, contextAfter: 3,
    maxColumns: 512, mode: 'content', maxCountPerFile: 21,
    signal: new AbortController().signal, timeoutMs: 30000,
  }, undefined);
  return `${r.matches.length} matches in ${r.filesWithMatches} files${r.limitReached ? ', maxCount reached' : ''}`;
}

/* ------------------------------------------------------------------ trees */

// 18 copies of Go's src (about 2.8 GB, 207k files), made once.
function bigTree(dir, src) {
  const done = path.join(dir, '.complete');
  if (fs.existsSync(done)) return dir;
  console.error(`making ${dir}: 18 copies of ${src} (minutes, ~3 GB)`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 18; i++) {
    const r = spawnSync('cp', ['-a', src, path.join(dir, `go${String(i).padStart(2, '0')}`)], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`cp -a ${src} failed`);
  }
  fs.writeFileSync(done, '');
  return dir;
}

/* ------------------------------------------------------------------ child */

async function child(cfg) {
  const { createRequire } = await import('node:module');
  const t0 = process.hrtime.bigint();
  const m = cfg.side === 'fscache' ? await import(cfg.mod) : createRequire(import.meta.url)(cfg.mod);
  const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const shape = shapes[cfg.shape];
  const one = async (k) => {
    const t = process.hrtime.bigint();
    let out;
    try {
      out = await shape.call(m, cfg.root, cfg.tree, k);
    } catch (e) {
      out = `error: ${String(e?.message ?? e).split('\n')[0]}`;
    }
    return [Number(process.hrtime.bigint() - t) / 1e6, out];
  };
  const [firstMs, firstOut] = await one(0);
  for (let k = 1; k < cfg.warm; k++) await one(k);
  let s0 = null;
  if (cfg.side === 'fscache') {
    // The process that publishes a tree's index waits up to 3 minutes for
    // its build (the 18 copies of Go's src take 20 s idle), the others 30 s.
    const polls = cfg.publish ? 1800 : 300;
    for (let i = 0; i < polls && m.cacheStats().grepIndex.building > 0; i++) await new Promise((r) => setTimeout(r, 100));
    s0 = m.cacheStats();
  }
  const times = [];
  let lastOut;
  for (let i = 0; i < cfg.iters; i++) {
    const [ms, out] = await one(cfg.warm + i);
    times.push(ms);
    lastOut = out;
  }
  const res = { loadMs, firstMs, firstOut, repMs: median(times), times, lastOut };
  if (cfg.publish) res.published = m.cacheStats().grepIndex.persisted.published;
  if (s0) {
    // What answered the timed calls: watched scans (uncached calls), the
    // scan cache (cache: true), grep's index, or walks.
    const s1 = m.cacheStats();
    const walks = (s) => Object.values(s.uncached.walks).reduce((a, b) => a + b, 0);
    res.served = {
      watched: s1.uncached.served - s0.uncached.served,
      walks: walks(s1) - walks(s0),
      hits: s1.hits - s0.hits,
      index: s1.grepIndex.queries - s0.grepIndex.queries,
    };
  }
  process.stdout.write(JSON.stringify(res));
}

/* ------------------------------------------------------------------- main */

// runChild runs one measuring process. An fscache process gets the index
// directory cfg.indexDir, or a fresh empty one (removed after).
function runChild(cfg) {
  let env = process.env;
  let tmp = null;
  if (cfg.side === 'fscache') {
    const dir = cfg.indexDir ?? (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-idx-')));
    env = { ...process.env, FS_GREP_INDEX_DIR: dir };
  }
  let r;
  try {
    r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', JSON.stringify(cfg)],
      { encoding: 'utf8', maxBuffer: 1 << 26, timeout: 15 * 60_000, env });
  } finally {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }
  if (r.status !== 0) throw new Error(`${cfg.side} ${cfg.shape}: ${r.stderr || r.error || r.signal}`);
  return JSON.parse(r.stdout);
}

function hog() {
  return spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
}

async function stop(h) {
  h.kill();
  await new Promise((r) => (h.exitCode !== null || h.signalCode !== null ? r() : h.once('exit', r)));
}

const fmt = (x) => (x === undefined || x === null || Number.isNaN(x) ? 'n/a' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

function servedNote(s, iters) {
  if (!s) return '';
  const parts = [];
  if (s.watched) parts.push(`${s.watched} watched scan`);
  if (s.hits) parts.push(`${s.hits} cache hit`);
  if (s.index) parts.push(`${s.index} index`);
  if (s.walks) parts.push(`${s.walks} walk`);
  return parts.length ? ` (fscache, ${iters} calls: ${parts.join(', ')})` : '';
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const quick = !!a.quick;
  const rounds = Number(a.rounds ?? (quick ? 1 : 5));
  const iters = Number(a.iters ?? (quick ? 2 : 7));
  const warm = Math.max(1, Number(a.warm ?? 3));
  const big = !!a.big || process.env.BENCH_BIG === '1';
  if (!a.ref14 || !a.ref18) throw new Error('--ref14 and --ref18 are required');
  const mods = {
    fscache: path.join(here, '..', 'index.js'),
    '14.9.9': path.resolve(a.ref14),
    '18.2.3': path.resolve(a.ref18),
  };
  const treeDir = path.resolve(a.trees ?? path.join(repo, 'build', 'out', 'bench-trees'));
  const go = goSrc();
  // Per tree: the glob tool's pattern, a literal identifier found in some
  // files, a pattern with more than 2000 matches (maxCount reached), the
  // query typed after "@".
  const goArgs = { glob: '**/*.go', literal: 'ErrUnexpectedEOF', many: 'err != nil', query: 'httputil' };
  const trees = [['Go src', () => go, goArgs]];
  if (!quick) {
    // Its files are empty: greps there cost the walk and the opens, and
    // nothing can reach maxCount.
    trees.push(['120k tree', () => genTree(path.join(treeDir, 't120k'), 120_000),
      { glob: '**/*.ts', literal: 'mod7file12', many: null, query: 'mod7file12' }]);
  }
  if (a.repo) {
    trees.push([`repo ${path.basename(path.resolve(a.repo))}`, () => path.resolve(a.repo), {
      glob: a['repo-glob'] ?? '**/*.ts',
      literal: a['repo-literal'] ?? 'buildCodeFrameError',
      many: a['repo-many'] ?? 'import ',
      query: a['repo-query'] ?? 'traverse',
    }]);
  } else console.error('no --repo (BENCH_REPO): the real repository rows are left out');
  // A call there takes seconds: fewer processes and calls than elsewhere.
  const bigRuns = { rounds: Number(a['big-rounds'] ?? Math.min(rounds, 3)), iters: Number(a['big-iters'] ?? Math.min(iters, 3)) };
  if (big) trees.push(['Go src x18', () => bigTree(path.join(treeDir, 'go-src-x18'), go), goArgs, bigRuns]);
  else console.error('no --big (BENCH_BIG=1): the 18 x Go src rows are left out');
  const loads = a['no-hog'] ? ['idle'] : ['idle', '1 hog'];
  const filter = a.filter ? new RegExp(a.filter) : null;

  const started = new Date();
  const machine = `${os.cpus().length} x ${os.cpus()[0].model}`;
  const loadAvg = os.loadavg().map((x) => x.toFixed(1)).join(' ');
  console.log(`agent call shapes (${AGENT}); ${started.toISOString()}; ${machine}; load average ${loadAvg}; ` +
    `${rounds} rounds; first call + ${warm - 1} more untimed, then median of ${iters}`);
  const cells = [];
  const idxBase = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-published-'));
  for (const [tname, mk, targs, runs = { rounds, iters }] of trees) {
    const root = mk();
    // The tree's published index, made once (untimed) when a grep cell
    // asks for it: a process greps twice and waits for its build.
    let published = null;
    const publishedDir = () => {
      if (!published) {
        published = fs.mkdtempSync(path.join(idxBase, 'tree-'));
        const p = runChild({ side: 'fscache', mod: mods.fscache, root, tree: targs, shape: 'grep tool, literal', warm: 3, iters: 1, indexDir: published, publish: true });
        if (!p.published) console.error(`${tname}: the index was not published: its "first, persisted index" rows measure no index`);
      }
      return published;
    };
    for (const [sname, shape] of Object.entries(shapes)) {
      if (shape.skip?.(targs)) continue;
      if (filter && !filter.test(`${tname} ${sname}`)) continue;
      for (const load of loads) {
        const h = load === 'idle' ? null : hog();
        const samples = Object.fromEntries(SIDES.map((s) => [s, []]));
        const isGrep = sname.startsWith('grep');
        const withIndex = [];
        try {
          const idxDir = isGrep ? publishedDir() : null;
          // The process with the published index takes its turn in the
          // rotation like the sides (it ran last in every round, always
          // right after one of them: on x18 its median there was 35.8
          // ms, against 29.2 in fresh processes alternated with no
          // other beside, where the process without an index took 31.6
          // and 28.1).
          const order = idxDir ? [...SIDES, 'indexed'] : SIDES;
          for (let r = 0; r < runs.rounds; r++) {
            for (let k = 0; k < order.length; k++) {
              const side = order[(k + r) % order.length];
              if (side === 'indexed') {
                withIndex.push(runChild({ side: 'fscache', mod: mods.fscache, root, tree: targs, shape: sname, warm: 1, iters: 0, indexDir: idxDir }));
              } else {
                samples[side].push(runChild({ side, mod: mods[side], root, tree: targs, shape: sname, warm, iters: runs.iters }));
              }
            }
          }
        } finally {
          if (h) await stop(h);
        }
        const cell = { tree: tname, root, shape: sname, arg: shape.arg(targs), load, ...runs, samples, first: {}, repeated: {} };
        cell.importFirst = {};
        cell.imported = {};
        for (const s of SIDES) {
          cell.first[s] = median(samples[s].map((x) => x.firstMs));
          cell.repeated[s] = median(samples[s].map((x) => x.repMs));
          cell.imported[s] = median(samples[s].map((x) => x.loadMs));
          cell.importFirst[s] = median(samples[s].map((x) => x.loadMs + x.firstMs));
        }
        if (withIndex.length) {
          cell.withIndex = withIndex;
          cell.firstIndexed = { ...cell.first, fscache: median(withIndex.map((x) => x.firstMs)) };
        }
        const fs0 = samples.fscache[0];
        cell.firstOut = Object.fromEntries(SIDES.map((s) => [s, samples[s][0].firstOut]));
        cell.lastOut = Object.fromEntries(SIDES.map((s) => [s, samples[s][0].lastOut]));
        cell.served = fs0.served;
        cells.push(cell);
        const line = (kind) => `${tname} | ${sname} | ${kind} | ${load} | ${SIDES.map((s) => fmt(cell[kind][s])).join(' / ')} ms`;
        console.log(line('first'));
        if (cell.firstIndexed) console.log(line('firstIndexed'));
        console.log(line('repeated'));
      }
    }
  }

  // The table: rows tree x shape x (first, repeated) x load.
  const ratio = (c, kind) => {
    const refs = ['14.9.9', '18.2.3'].map((s) => c[kind][s]).filter((x) => Number.isFinite(x));
    return refs.length ? c[kind].fscache / Math.min(...refs) : NaN;
  };
  const L = [
    `# The agent's calls: fscache against pi-natives 14.9.9 and 18.2.3`,
    '',
    `Call shapes copied from ${AGENT} (see bindings/node/bench/agent.mjs). ` +
      `Measured ${started.toISOString()} on ${machine}, load average ${loadAvg} at start. ` +
      `${rounds} process${rounds === 1 ? '' : 'es'} per side and cell, sides alternated. ` +
      `"first": the first call of a fresh process (addon loaded, page cache warm), median over processes. ` +
      `"repeated": in the same process, after ${warm} untimed calls (the first included), the median of ${iters} calls, median over processes; ` +
      `fscache answers uncached calls from a watched scan from the third call on, and its greps from the content index once built ` +
      `(its process waits, untimed, until no index is building). ratio = fscache / the faster reference (lower is better). ` +
      `"first, persisted index" (grep shapes): fscache's first call in a fresh process whose index directory holds the tree's published index, beside the references' first calls; ` +
      `fscache's other processes start with an empty index directory. "1 hog": beside one busy-loop process.` +
      (big ? ` On Go src x18 (18 copies of Go's src): ${bigRuns.rounds} processes per side and cell, median of ${bigRuns.iters} repeated calls.` : ''),
    '',
    '| tree | shape | call | load | fscache ms | 14.9.9 ms | 18.2.3 ms | ratio | result |',
    '|---|---|---|---|---:|---:|---:|---:|---|',
  ];
  const kindName = { first: 'first', firstIndexed: 'first, persisted index', repeated: 'repeated' };
  for (const c of cells) {
    for (const kind of ['first', 'firstIndexed', 'repeated']) {
      if (!c[kind]) continue;
      const out = kind === 'repeated' ? c.lastOut.fscache + servedNote(c.served, c.iters)
        : kind === 'first' ? c.firstOut.fscache : c.withIndex[0].firstOut;
      L.push(`| ${c.tree} | ${c.shape} (${c.arg}) | ${kindName[kind]} | ${c.load} | ${fmt(c[kind].fscache)} | ${fmt(c[kind]['14.9.9'])} | ${fmt(c[kind]['18.2.3'])} | **${ratio(c, kind).toFixed(2)}** | ${out} |`);
    }
  }
  // Import, then the first call: what a process pays from loading the addon
  // to its first answer. A first call made right after the import also
  // waits for what the import started and did not finish (fscache: the Go
  // runtime's start, on its own thread), which an agent, whose first call
  // comes long after its import, never does; this sum shows both sides
  // whole.
  L.push('', '## Import, then the first call (idle)', '',
    'The addon imported (fscache: `index.js`, its loader and the library; the references: `require` of the `.node`), then the first call at once; ' +
      'median over the processes of the cell of import + first call. ratio = fscache / the faster reference.', '',
    '| tree | shape | fscache import ms | 18.2.3 import ms | fscache ms | 14.9.9 ms | 18.2.3 ms | ratio |',
    '|---|---|---:|---:|---:|---:|---:|---:|');
  for (const c of cells) {
    if (c.load !== 'idle' || !c.importFirst) continue;
    L.push(`| ${c.tree} | ${c.shape} (${c.arg}) | ${fmt(c.imported.fscache)} | ${fmt(c.imported['18.2.3'])} | ${fmt(c.importFirst.fscache)} | ${fmt(c.importFirst['14.9.9'])} | ${fmt(c.importFirst['18.2.3'])} | **${ratio(c, 'importFirst').toFixed(2)}** |`);
  }
  // Results that differ between the sides (sizes only; the conformance suite
  // checks the answers), so a shape a reference rejects is not read as fast.
  const diffs = [];
  for (const c of cells) {
    if (c.load !== 'idle') continue;
    const outs = SIDES.map((s) => c.firstOut[s]);
    if (new Set(outs).size > 1) diffs.push(`- ${c.tree}, ${c.shape}, first call: ${SIDES.map((s, i) => `${s}: ${outs[i]}`).join('; ')}`);
  }
  if (diffs.length) L.push('', 'Result sizes that differ between the sides:', '', ...diffs);
  const outDir = path.resolve(a.out ?? path.join(repo, 'build', 'out', 'bench'));
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'agent.md'), L.join('\n') + '\n');
  fs.writeFileSync(path.join(outDir, 'agent.json'), JSON.stringify({
    when: started.toISOString(), machine, loadAvg, agent: AGENT, rounds, iters, warm, cells,
  }, null, 1) + '\n');
  fs.rmSync(idxBase, { recursive: true, force: true });
  console.log(`\n${L.join('\n')}\n\nwrote ${path.join(outDir, 'agent.md')} and agent.json`);
}

if (process.argv[2] === '--child') await child(JSON.parse(process.argv[3]));
else await main();
