// make bench-pi-tools (issue 36, item 4; issue 43): pi-fscache's find, grep
// and ls against the host pi's built-in tools (fd and rg from the
// distribution on PATH, as the differential test runs them), side by side
// in one run. The pi line is the test suites' (test/pi-line.mjs): pi 0.73.1
// on Node 20, or with PI_LINE=1 pi 1.6.0 on Node 22 with
// test/pi1-aliases.mjs imported first; make bench-pi-tools runs both, then
// --report puts them side by side.
//
// Per tree (Go's src, and --repo when given) the agent's shapes: find of a
// source glob with the default limit, grep of a common identifier and of a
// rare one with the default limit, ls of the root and of a subdirectory.
// Each shape is timed
//   - first call: a fresh Node process per call (pi and the package already
//     imported, as in a pi session that just started), the call alone timed;
//     built-in and override alternate, a process each;
//   - repeated: in this process after warm-up calls, the two alternating,
//     10 ms apart (--gap).
// Both idle and beside a CPU hog (a child node spinning, as `for(;;){}`).
// Before timing, a fresh process runs every shape once through the
// overrides and waits for grep's content index to be built and saved, as
// after an earlier session on the same tree (FS_GREP_INDEX_DIR or the
// user's cache directory).
//
// The override's own time is split into the fscache call and the JS around
// it (the `prof` argument of runFind/runGrep/runLs).
//
// Usage: node bench/tools.mjs --go-src DIR [--repo DIR] [--out build/out/bench]
//        [--rounds 20] [--first 3] [--gap 10] [--no-hog]
// Writes pi-tools-<line>.md and pi-tools-<line>.json to --out (line "0.73"
// or "1").
//        node bench/tools.mjs --report --out DIR A.json B.json ...
// Writes pi-tools.md to --out: the runs' rows side by side, a column pair
// per line.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setupBuiltinTools } from "../test/tools-harness.mjs";

const SELF = fileURLToPath(import.meta.url);
const START_CWD = process.cwd();
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const flag = (name) => args.includes(`--${name}`);
const LINE = process.env.PI_LINE === "1" ? "1" : "0.73";

// ---- the side-by-side report of earlier runs --------------------------------

if (flag("report")) {
  const out = opt("out", "build/out/bench");
  const runs = args.filter((a) => a.endsWith(".json")).map((f) => JSON.parse(readFileSync(f, "utf8")));
  const f2 = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : "-");
  const key = (r) => `${r.tree}\0${r.shape}\0${r.condition}`;
  const rows = new Map();
  for (const run of runs) for (const r of run.results) if (!rows.has(key(r))) rows.set(key(r), r);
  let md = `# make bench-pi-tools: pi's find, grep and ls, built-in (fd, rg) against pi-fscache, per pi line\n\n`;
  for (const run of runs) {
    md += `- pi ${run.piVersion} (${run.line}): ${run.date}; Node ${run.node}; load average at the end ${run.loadavg.map((x) => x.toFixed(2)).join(" ")}; ${run.rounds} repeated calls a side, ${run.firstRounds} first calls a side.\n`;
  }
  md += `\nms, medians: built-in / ours (ratio). Goals: repeated find and grep <= 0.1, ls <= 1; first calls <= 0.8 (ls <= 1).\n\n`;
  md += `| tree | shape | condition | ${runs.map((r) => `pi ${r.piVersion} first | pi ${r.piVersion} repeated | pi ${r.piVersion} goals`).join(" | ")} |\n`;
  md += `| --- | --- | --- | ${runs.map(() => "---: | ---: | ---").join(" | ")} |\n`;
  for (const [k, r0] of rows) {
    const cells = runs.map((run) => {
      const r = run.results.find((x) => key(x) === k);
      if (!r) return "- | - | -";
      const goals = `${r.firstMet ? "ok" : "MISSED"}, ${r.repMet ? "ok" : "MISSED"}`;
      return `${f2(r.firstBuiltin)} / ${f2(r.firstOurs)} (${f2(r.firstRatio)}) | ${f2(r.repBuiltin, 3)} / ${f2(r.repOurs, 3)} (${f2(r.repRatio, 3)}) | ${goals}`;
    });
    md += `| ${r0.tree} | ${r0.shape} | ${r0.condition} | ${cells.join(" | ")} |\n`;
  }
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, "pi-tools.md"), md);
  process.stdout.write(md);
  console.error(`bench-pi-tools: wrote ${path.join(out, "pi-tools.md")}`);
  process.exit(0);
}

// ---- one call in a fresh process -------------------------------------------

async function loadTools() {
  const pi = await import("@mariozechner/pi-coding-agent");
  const { runFind, createFindOverride } = await import("../src/tools/find.js");
  const { runGrep, createGrepOverride } = await import("../src/tools/grep.js");
  const { runLs, createLsOverride } = await import("../src/tools/ls.js");
  // as pi's extension load does before any call (and with it the probe of
  // the host's tools, src/tools/host.js)
  for (const create of [createFindOverride, createGrepOverride, createLsOverride]) create(process.cwd());
  await (await import("../src/tools/host.js")).hostBehaviour();
  const builtin = {
    find: (root) => pi.createFindToolDefinition(root),
    grep: (root) => pi.createGrepToolDefinition(root),
    ls: (root) => pi.createLsToolDefinition(root),
  };
  const ours = { find: runFind, grep: runGrep, ls: runLs };
  return { builtin, ours };
}

async function callOnce(tools, impl, tool, root, params, prof) {
  if (impl === "builtin") {
    const def = tools.builtin[tool](root);
    return def.execute("bench", params, undefined, undefined, { cwd: root });
  }
  return tools.ours[tool](root, params, undefined, prof);
}

const textOf = (r) => r.content.map((c) => c.text).join("\n");

if (flag("child")) {
  const job = JSON.parse(opt("child"));
  const tools = await loadTools();
  process.chdir(job.root);
  if (job.warm) {
    // run every shape through the overrides, then wait for grep's index
    const { native } = await import("../src/native.js");
    for (const s of job.shapes) await callOnce(tools, "ours", s.tool, job.root, s.params);
    const t0 = performance.now();
    for (;;) {
      const g = native.cacheStats().grepIndex;
      if (g.roots > 0 && g.building === 0) break;
      if (performance.now() - t0 > 120000) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const s of job.shapes) await callOnce(tools, "ours", s.tool, job.root, s.params);
    const g = native.cacheStats().grepIndex;
    process.stdout.write(JSON.stringify({ indexRoots: g.roots, published: g.persisted.published, adopted: g.persisted.adopted, dir: g.persisted.dir }) + "\n");
    process.exit(0);
  }
  const prof = {};
  const t0 = performance.now();
  const r = await callOnce(tools, job.impl, job.tool, job.root, job.params, prof);
  const ms = performance.now() - t0;
  process.stdout.write(JSON.stringify({ ms, prof, lines: textOf(r).split("\n").length }) + "\n");
  process.exit(0);
}

// ---- the run ------------------------------------------------------------------

const goSrc = opt("go-src");
const repo = opt("repo", process.env.BENCH_REPO || undefined);
const outDir = opt("out", "build/out/bench");
const rounds = Number(opt("rounds", 20));
const firstRounds = Number(opt("first", 3));
// A pause after each repeated call, so that a call does not run beside the
// exit of the previous call's fd or rg (pi kills rg at the limit).
const gapMs = Number(opt("gap", 10));
if (!goSrc) {
  console.error("bench-pi-tools: --go-src DIR is required (Go's src: $(go env GOROOT)/src)");
  process.exit(2);
}
for (const d of [goSrc, repo].filter(Boolean)) {
  if (!existsSync(d) || !statSync(d).isDirectory()) {
    console.error(`bench-pi-tools: ${d} is not a directory`);
    process.exit(2);
  }
}

const env = setupBuiltinTools(); // PATH with fd and rg, PI_OFFLINE; children inherit it

function subdirOf(root, prefer) {
  for (const p of prefer) if (existsSync(path.join(root, p)) && statSync(path.join(root, p)).isDirectory()) return p;
  const dirs = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory() && !d.name.startsWith("."));
  dirs.sort((a, b) => (a.name < b.name ? -1 : 1));
  return dirs[0]?.name ?? ".";
}

const goSub = subdirOf(goSrc, ["runtime"]);
const trees = [
  {
    name: "go/src",
    root: goSrc,
    shapes: [
      { tool: "find", label: "find *.go", params: { pattern: "*.go" } },
      { tool: "grep", label: "grep err (common)", params: { pattern: "err" } },
      { tool: "grep", label: "grep NewReplacer (rare)", params: { pattern: "NewReplacer" } },
      { tool: "ls", label: "ls .", params: { path: "." } },
      { tool: "ls", label: `ls ${goSub}`, params: { path: goSub } },
    ],
  },
];
if (repo) {
  const sub = subdirOf(repo, ["packages", "src", "lib"]);
  trees.push({
    name: path.basename(repo),
    root: repo,
    shapes: [
      { tool: "find", label: "find **/*.ts", params: { pattern: opt("repo-find", "**/*.ts") } },
      { tool: "grep", label: `grep ${opt("repo-common", "path")} (common)`, params: { pattern: opt("repo-common", "path") } },
      { tool: "grep", label: `grep ${opt("repo-rare", "isStrictBindReservedWord")} (rare)`, params: { pattern: opt("repo-rare", "isStrictBindReservedWord") } },
      { tool: "ls", label: "ls .", params: { path: "." } },
      { tool: "ls", label: `ls ${sub}`, params: { path: sub } },
    ],
  });
}

// This process's Node options for the children (on pi 1.x, `--import
// ./test/pi1-aliases.mjs`), a relative module made absolute: the children
// run in the tree's directory.
const childExecArgv = process.execArgv.map((a, i, all) => {
  const rel = (x) => (/^\.\.?\//.test(x) ? pathToFileURL(path.resolve(START_CWD, x)).href : x);
  if (all[i - 1] === "--import") return rel(a);
  if (a.startsWith("--import=")) return `--import=${rel(a.slice("--import=".length))}`;
  return a;
});

function child(job) {
  const r = spawnSync(process.execPath, [...childExecArgv, SELF, "--child", JSON.stringify(job)], { encoding: "utf8", env: process.env, timeout: 300000 });
  if (r.status !== 0) throw new Error(`bench-pi-tools child failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};

// A CPU hog: `for(;;){}`, bounded to 15 minutes in case this process dies
// without killing it.
function startHog() {
  const h = spawn(process.execPath, ["-e", "const end = Date.now() + 15 * 60e3; for (;;) { if (Date.now() > end) break; }"], { stdio: "ignore" });
  const kill = () => h.kill("SIGKILL");
  process.once("exit", kill);
  h.once("exit", () => process.off("exit", kill));
  return h;
}

const tools = await loadTools();
const { native } = await import("../src/native.js");
const results = [];

// Every shape through the overrides, then wait until grep's index of the
// root is built (a watching process builds it in the background, and until
// then greps walk): the steady state of a session that has been running.
async function settle(tree) {
  for (let pass = 0; pass < 2; pass++) {
    for (const s of tree.shapes) await callOnce(tools, "ours", s.tool, tree.root, s.params);
    await new Promise((r) => setTimeout(r, 500));
    const t0 = performance.now();
    while (native.cacheStats().grepIndex.building > 0 && performance.now() - t0 < 120000) {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

// What grep's indexes did over the repeated calls of a row: whether a
// live index served them (queries), fell back, or was being rebuilt.
function indexDelta(a, b) {
  const fallbacks = {};
  for (const [k, v] of Object.entries(b.fallbacks)) if (v !== (a.fallbacks[k] ?? 0)) fallbacks[k] = v - (a.fallbacks[k] ?? 0);
  return {
    roots: b.roots,
    building: b.building,
    builds: b.builds - a.builds,
    queries: b.queries - a.queries,
    diskQueries: (b.persisted?.queries ?? 0) - (a.persisted?.queries ?? 0),
    candidates: b.candidates - a.candidates,
    reindexed: b.reindexed - a.reindexed,
    fallbacks,
  };
}

for (const tree of trees) {
  console.error(`bench-pi-tools: ${tree.name}: warming (index built and saved)`);
  const warm = child({ warm: true, root: tree.root, shapes: tree.shapes });
  console.error(`  ${JSON.stringify(warm)}`);
  await settle(tree);
  for (const condition of flag("no-hog") ? ["idle"] : ["idle", "hog"]) {
    const hog = condition === "hog" ? startHog() : null;
    try {
      if (hog) await new Promise((r) => setTimeout(r, 300));
      process.chdir(tree.root);
      for (const shape of tree.shapes) {
        const row = { tree: tree.name, root: tree.root, condition, tool: shape.tool, shape: shape.label, params: shape.params };
        // first calls, a fresh process each, alternating which goes first
        const first = { builtin: [], ours: [] };
        const firstProf = [];
        for (let i = 0; i < firstRounds; i++) {
          const order = i % 2 ? ["ours", "builtin"] : ["builtin", "ours"];
          for (const impl of order) {
            const r = child({ impl, tool: shape.tool, root: tree.root, params: shape.params });
            first[impl].push(r.ms);
            if (impl === "ours") firstProf.push(r.prof);
          }
        }
        // repeated: same process, warm-up then alternating
        const rep = { builtin: [], ours: [] };
        const prof = { native: [], post: [] };
        const indexBefore = native.cacheStats().grepIndex;
        const lines = {};
        for (const impl of ["builtin", "ours"]) {
          for (let i = 0; i < 3; i++) {
            const r = await callOnce(tools, impl, shape.tool, tree.root, shape.params);
            lines[impl] = textOf(r).split("\n").length;
          }
        }
        for (let i = 0; i < rounds; i++) {
          const order = i % 2 ? ["ours", "builtin"] : ["builtin", "ours"];
          for (const impl of order) {
            const p = {};
            const t0 = performance.now();
            await callOnce(tools, impl, shape.tool, tree.root, shape.params, p);
            rep[impl].push(performance.now() - t0);
            await new Promise((r) => setTimeout(r, gapMs));
            if (impl === "ours") {
              prof.native.push(p.native ?? 0);
              prof.post.push(p.post ?? 0);
            }
          }
        }
        Object.assign(row, {
          firstBuiltin: median(first.builtin),
          firstOurs: median(first.ours),
          firstRatio: median(first.ours) / median(first.builtin),
          firstOursNative: median(firstProf.map((p) => p.native ?? 0)),
          repBuiltin: median(rep.builtin),
          repOurs: median(rep.ours),
          repOursP90: pct(rep.ours, 0.9),
          repBuiltinP90: pct(rep.builtin, 0.9),
          repRatio: median(rep.ours) / median(rep.builtin),
          repOursNative: median(prof.native),
          repOursPost: median(prof.post),
          lines,
          samples: { first: first, repeated: rep },
          index: indexDelta(indexBefore, native.cacheStats().grepIndex),
        });
        const goal = shape.tool === "ls" ? 1 : 0.1;
        row.repGoal = goal;
        row.repMet = row.repRatio <= goal;
        row.firstMet = shape.tool === "ls" ? row.firstRatio <= 1 : row.firstRatio <= 0.8;
        results.push(row);
        console.error(
          `  ${condition.padEnd(4)} ${shape.label.padEnd(34)} first ${row.firstBuiltin.toFixed(2)} / ${row.firstOurs.toFixed(2)} ms (${row.firstRatio.toFixed(2)})` +
            `  repeated ${row.repBuiltin.toFixed(3)} / ${row.repOurs.toFixed(3)} ms (${row.repRatio.toFixed(3)}; fscache ${row.repOursNative.toFixed(3)}, JS ${row.repOursPost.toFixed(3)})` +
            (shape.tool === "grep" ? `  index ${JSON.stringify(row.index)}` : ""),
        );
      }
    } finally {
      if (hog) hog.kill("SIGKILL");
    }
  }
}

// ---- report -----------------------------------------------------------------------

const f = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : "-");
const load = os.loadavg().map((x) => x.toFixed(2)).join(" ");
const { PI_VERSION } = await import("../test/pi-line.mjs");
let md = `# make bench-pi-tools: pi ${PI_VERSION}'s find, grep and ls, built-in (fd, rg) against pi-fscache\n\n`;
md += `${new Date().toISOString()}; ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}); load average at the end ${load}; `;
md += `Node ${process.version}; fd ${spawnSync(env.fd, ["--version"], { encoding: "utf8" }).stdout.trim()}; ${spawnSync(env.rg, ["--version"], { encoding: "utf8" }).stdout.split("\n")[0]}.\n`;
md += `First call: median of ${firstRounds} fresh processes per side (the call alone; grep's index saved by an earlier process). `;
md += `Repeated: median of ${rounds} calls per side in one process, alternating, ${gapMs} ms apart, after 3 warm-up calls. Times in ms; ratio = override / built-in. `;
md += `Goals: repeated find and grep <= 0.1, ls <= 1; first calls <= 0.8 (ls <= 1). "fscache" and "JS" split the override's repeated time into the engine call and the JavaScript around it.\n\n`;
md += `| tree | shape | condition | first built-in | first ours | ratio | repeated built-in | repeated ours | ratio | ours: fscache | ours: JS | goals |\n`;
md += `| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n`;
for (const r of results) {
  const goals = `${r.firstMet ? "first ok" : "first MISSED"}, ${r.repMet ? "repeated ok" : "repeated MISSED"}`;
  md += `| ${r.tree} | ${r.shape} | ${r.condition} | ${f(r.firstBuiltin)} | ${f(r.firstOurs)} | ${f(r.firstRatio)} | ${f(r.repBuiltin, 3)} | ${f(r.repOurs, 3)} | ${f(r.repRatio, 3)} | ${f(r.repOursNative, 3)} | ${f(r.repOursPost, 3)} | ${goals} |\n`;
}
mkdirSync(outDir, { recursive: true });
writeFileSync(path.join(outDir, `pi-tools-${LINE}.md`), md);
const runInfo = { line: LINE, piVersion: PI_VERSION, node: process.version, date: new Date().toISOString(), loadavg: os.loadavg(), rounds, firstRounds };
writeFileSync(path.join(outDir, `pi-tools-${LINE}.json`), JSON.stringify({ ...runInfo, results }, null, 2) + "\n");
process.stdout.write(md);
console.error(`bench-pi-tools: wrote ${path.join(outDir, `pi-tools-${LINE}.md`)} and pi-tools-${LINE}.json`);
