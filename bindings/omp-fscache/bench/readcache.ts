// make bench-readcache, the omp row: a scripted omp 18.2.3 session (the SDK,
// the mock provider, omp's default settings) over BENCH_REPO's text
// files under 100 KB: each of --files files read once, then --rereads
// rereads of unchanged files (a stable pseudo-random order), in two
// sessions side by side: with omp-fscache (installed by `omp plugin
// install`, as test/run.mjs does; the global settings) and with
// OMP_FSCACHE_READ=0 (omp's own read; isolated default settings, which the
// package's supersede override does not reach). Measured: the bytes of
// the read results the model receives (each result as it is returned, and
// the read results in the last request), and each read's latency from
// omp's tool_execution_start to tool_execution_end, p50/p90, with the
// latency the package adds (paired by read).
//
//   bun bench/readcache.ts --repo DIR [--files 40] [--rereads 200] [--out DIR] [--hog]
// (--hog: a CPU busy loop beside the sessions; the report is then
// readcache-omp-hog.md)
// (in the HOME test/run.mjs prepares; make bench-readcache runs it)

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startSession } from "../test/hosts/harness.ts";

const argv = process.argv.slice(2);
const opt = (n: string, d?: string) => {
  const i = argv.indexOf(`--${n}`);
  return i >= 0 ? argv[i + 1] : d;
};
const repo = opt("repo", process.env.BENCH_REPO);
const nFiles = Number(opt("files", "40"));
const nRereads = Number(opt("rereads", "200"));
const outDir = opt("out", "build/out/bench")!;
if (!repo) throw new Error("bench: --repo DIR (or BENCH_REPO)");

function pick(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name.startsWith(".") || e.name === "node_modules" || e.name === "testdata") continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && /\.(go|js|ts|md|c|h|py|txt)$/.test(e.name)) {
        const s = fs.statSync(p).size;
        if (s > 2000 && s < 100_000) out.push(p);
      }
    }
  };
  walk(root);
  // a stable spread over the tree
  const step = Math.max(1, Math.floor(out.length / nFiles));
  return out.filter((_, i) => i % step === 0).slice(0, nFiles);
}

const files = pick(path.resolve(repo));
let seed = 7;
const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
const order = [...files.map((f) => f), ...Array.from({ length: nRereads }, () => files[Math.floor(rand() * files.length)])];

// One session: its state, and step() to run the next prompt (up to
// perPrompt reads). The two sessions (omp's read alone, and with the
// package) run side by side, a prompt of one then a prompt of the other,
// so both see the same load.
async function open(withPackage: boolean) {
  // The package reads OMP_FSCACHE_READ when a session loads it.
  if (withPackage) delete process.env.OMP_FSCACHE_READ;
  else process.env.OMP_FSCACHE_READ = "0";
  const tmpBase = opt("tmp", os.tmpdir())!;
  fs.mkdirSync(tmpBase, { recursive: true });
  const cwd = fs.realpathSync(fs.mkdtempSync(path.join(tmpBase, "omp-fscache-bench-")));
  const rel = files.map((f) => path.relative(path.resolve(repo!), f));
  for (const r of rel) {
    fs.mkdirSync(path.dirname(path.join(cwd, r)), { recursive: true });
    fs.copyFileSync(path.join(path.resolve(repo!), r), path.join(cwd, r));
  }
  const relOf = new Map(files.map((f, i) => [f, rel[i]]));
  let k = 0;
  let lastContext: any;
  const bytes = new Map<string, number>();
  const kinds = new Map<string, string>();
  const perPrompt = 20;
  let inPrompt = 0;
  // From a read's tool_execution_end to the provider's call with the next
  // request: omp's turn and the context handlers (the package judges there).
  const ends = new Map<string, number>();
  const gaps = new Map<string, number>();
  const handler = (context: any) => {
    lastContext = context;
    // what the model receives: the result as the request carries it
    const last = context.messages.at(-1);
    if (last?.role === "toolResult" && ends.has(last.toolCallId)) gaps.set(last.toolCallId, performance.now() - ends.get(last.toolCallId)!);
    if (last?.role === "toolResult") {
      bytes.set(last.toolCallId, Buffer.byteLength(last.content?.[0]?.text ?? ""));
      const d = last.details?.fscache;
      kinds.set(last.toolCallId, d ? `${d.kind}${d.name !== d.file ? " (view)" : ""}` : "omp");
    }
    if (inPrompt++ >= perPrompt || k >= order.length) {
      inPrompt = 0;
      return { content: ["ok"] };
    }
    const f = order[k++];
    return { content: [{ type: "toolCall", id: `b${k}`, name: "read", arguments: { path: relOf.get(f) } }] };
  };
  // omp's read alone runs on isolated default settings: the package turns
  // supersede off in the global layer, which would reach it in this process.
  const { session } = await startSession({ cwd, handler, settings: withPackage ? "global" : {} });
  const starts = new Map<string, number>();
  const durations = new Map<string, number>();
  session.subscribe((e: any) => {
    if (e.type === "tool_execution_start") starts.set(e.toolCallId, performance.now());
    if (e.type === "tool_execution_end") {
      ends.set(e.toolCallId, performance.now());
      durations.set(e.toolCallId, performance.now() - (starts.get(e.toolCallId) ?? performance.now()));
    }
  });
  const run = { durations, gaps, bytes, lastBytes: 0, kinds, reads: 0 };
  return {
    run,
    done: () => k >= order.length,
    step: () => session.prompt("read on"),
    async close() {
      await session.prompt("done");
      for (const m of lastContext.messages) if (m.role === "toolResult") run.lastBytes += Buffer.byteLength(m.content?.[0]?.text ?? "");
      run.reads = k;
      await session.dispose?.();
      fs.rmSync(cwd, { recursive: true, force: true });
    },
  };
}

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};

// --hog: a busy loop beside the sessions for the whole run.
const hog = argv.includes("--hog") ? Bun.spawn([process.execPath, "-e", "for(;;){}"], { stdout: "ignore", stderr: "ignore" }) : undefined;
const a = await open(false);
const b = await open(true);
try {
  while (!a.done() || !b.done()) {
    if (!a.done()) await a.step();
    if (!b.done()) await b.step();
  }
  await a.close();
  await b.close();
} finally {
  hog?.kill();
}
const own = a.run;
const pkg = b.run;
// The package's run times every read; omp's own run may not emit
// tool_execution events for some (counted below): latency pairs only where
// both runs timed the read.
const ids = [...pkg.bytes.keys()];
const tally = (xs: string[]) => {
  const t: Record<string, number> = {};
  for (const id of xs) t[pkg.kinds.get(id) ?? "?"] = (t[pkg.kinds.get(id) ?? "?"] ?? 0) + 1;
  return Object.entries(t).map(([k, n]) => `${k} ${n}`).join(", ");
};
const first = ids.slice(0, files.length);
const rereads = ids.slice(files.length);
const sum = (m: Map<string, number>, xs: string[]) => xs.reduce((a, id) => a + (m.get(id) ?? 0), 0);
const added = (xs: string[]) => xs.filter((id) => pkg.durations.has(id)).map((id) => pkg.durations.get(id)! - own.durations.get(id)!);
const fmt = (x: number) => x.toFixed(2);
const rows = [
  `| reads | omp's read: bytes | omp-fscache: bytes | share | omp p50 / p90 ms | omp-fscache p50 / p90 ms | added p50 / p90 ms |`,
  `| --- | ---: | ---: | ---: | ---: | ---: | ---: |`,
];
for (const [label, xs] of [
  [`first reads (${first.length} files)`, first],
  [`rereads of unchanged files (${rereads.length})`, rereads],
] as const) {
  const a = sum(own.bytes, xs);
  const b = sum(pkg.bytes, xs);
  const both = xs.filter((id) => own.durations.has(id));
  const od = both.map((id) => own.durations.get(id)!);
  const pd = xs.filter((id) => pkg.durations.has(id)).map((id) => pkg.durations.get(id)!);
  const ad = added(both);
  rows.push(`| ${label} | ${a} | ${b} | ${(b / a).toFixed(3)} | ${fmt(q(od, 0.5))} / ${fmt(q(od, 0.9))} | ${fmt(q(pd, 0.5))} / ${fmt(q(pd, 0.9))} | ${fmt(q(ad, 0.5))} / ${fmt(q(ad, 0.9))} |`);
}
const gapPairs = ids.filter((id) => own.gaps.has(id) && pkg.gaps.has(id));
const gapAdded = gapPairs.map((id) => pkg.gaps.get(id)! - own.gaps.get(id)!);
const gapRow = `Before each request (a read's tool_execution_end to the provider's call, ${gapPairs.length} pairs: omp's turn and the context handlers, where the package judges the request): omp's read ${fmt(q(gapPairs.map((id) => own.gaps.get(id)!), 0.5))} ms at p50, omp-fscache ${fmt(q(gapPairs.map((id) => pkg.gaps.get(id)!), 0.5))} ms, added ${fmt(q(gapAdded, 0.5))} / ${fmt(q(gapAdded, 0.9))} ms at p50 / p90.`;
const pairs = ids.filter((id) => own.durations.has(id) && pkg.durations.has(id)).length;
const report = [
  `# omp-fscache: ${files.length} files of ${repo} (2-100 KB), ${rereads.length} rereads of unchanged files${hog ? ", a CPU hog beside" : ""}`,
  "",
  `omp 18.2.3 on Bun ${Bun.version}, omp-fscache on the default global settings, omp's read alone with OMP_FSCACHE_READ=0 on isolated default settings. Bytes: each read result as the next request carries it. Both sessions run side by side in one process (a prompt of 20 reads of one, then of the other). Latency: omp's tool_execution_start to tool_execution_end, paired by read where both runs timed it (${pairs} pairs).`,
  "",
  ...rows,
  "",
  gapRow,
  "",
  `omp-fscache's answers: first reads: ${tally(first)}; rereads: ${tally(rereads)}. Reads made: ${own.reads} and ${pkg.reads}, timed: ${own.durations.size} and ${pkg.durations.size}.`,
  "",
  `Read results in the last request: omp's read ${own.lastBytes} bytes (after its supersede pass), omp-fscache ${pkg.lastBytes} bytes (supersede off).`,
  "",
].join("\n");
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, `readcache-omp${hog ? "-hog" : ""}.md`), report);
console.log(report);
