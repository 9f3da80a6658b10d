// make bench-readcache, the omp row: a scripted omp 18.2.3 session (the SDK,
// the mock provider, omp's default settings) over BENCH_REPO's text
// files under 100 KB: each of --files files read once, then --rereads
// rereads of unchanged files (a stable pseudo-random order), in three
// sessions side by side, a prompt of each in turn: omp's own read
// (OMP_FSCACHE_READ=0) on isolated default settings (the bytes' baseline:
// the package's supersede override does not reach it), omp's own read on
// the global settings (supersede off, as the package's session has it: the
// latency's baseline), and omp-fscache (installed by `omp plugin install`,
// as test/run.mjs does). Measured: the bytes of
// the read results the model receives (each result as it is returned, and
// the read results in the last request), and each read's latency from
// omp's tool_execution_start to tool_execution_end, p50/p90, with the
// latency the package adds (paired by read).
//
//   bun bench/readcache.ts --repo DIR [--files 40] [--rereads 200] [--out DIR] [--window N] [--hog | --settle]
// (--window: the scripted model's context window in tokens, default
// 200,000: there omp's own sessions' last request holds 249 of the 505
// messages and the package's all of them; at 1,000,000 every session's
// holds all)
// (--hog: a CPU busy loop beside the sessions; the report is then
// readcache-omp-hog.md. --settle: a full garbage collection at every
// request of every session (Bun.gc(true) in the scripted model, outside
// every read's window), so a read's time is its own work and not the
// collection of what came before it, most of it omp's copy of the messages
// for a context handler; the report is then readcache-omp-settled.md)
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
async function open(withPackage: boolean, isolated = false, idle = false) {
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
    // --settle: after the gap is taken
    if (settle) Bun.gc(true);
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
  // isolated: omp's default settings untouched (the package turns supersede
  // off in the global layer, which reaches every global session here).
  const { session } = await startSession({
    cwd,
    handler,
    settings: isolated ? {} : "global",
    ...(window ? { contextWindow: window } : {}),
    ...(idle ? { extraExtensionPaths: [path.join(import.meta.dir, "idle-handlers.js")] } : {}),
  });
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

const settle = argv.includes("--settle");
const window = Number(opt("window", "0"));
// --hog: a busy loop beside the sessions for the whole run.
const hog = argv.includes("--hog") ? Bun.spawn([process.execPath, "-e", "for(;;){}"], { stdout: "ignore", stderr: "ignore" }) : undefined;
// Four sessions, a prompt of each in turn: omp's read on isolated default
// settings (the bytes omp sends by default); omp's read on the global
// settings the package's session has (supersede off: the latency pairs);
// the same with idle context and tool_result handlers (what omp itself
// spends on an extension's handlers); and omp-fscache.
const sessions = [await open(false, true), await open(false), await open(false, false, true), await open(true)];
try {
  while (sessions.some((x) => !x.done())) for (const x of sessions) if (!x.done()) await x.step();
  for (const x of sessions) await x.close();
} finally {
  hog?.kill();
}
const [def, own, idle, pkg] = sessions.map((x) => x.run);
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
const fmt = (x: number) => x.toFixed(2);
const p5090 = (xs: number[]) => `${fmt(q(xs, 0.5))} / ${fmt(q(xs, 0.9))}`;
// paired differences pkg - base over ids both timed
const diff = (m: "durations" | "gaps", base: typeof own, xs: string[]) =>
  xs.filter((id) => base[m].has(id) && pkg[m].has(id)).map((id) => pkg[m].get(id)! - base[m].get(id)!);
const rows = [
  `| reads | omp's read: bytes | omp-fscache: bytes | share | omp p50 / p90 ms | omp + idle handlers | omp-fscache p50 / p90 ms | added over omp | added over omp + idle handlers |`,
  `| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`,
];
for (const [label, xs] of [
  [`first reads (${first.length} files)`, first],
  [`rereads of unchanged files (${rereads.length})`, rereads],
] as const) {
  const a = sum(def.bytes, xs);
  const b = sum(pkg.bytes, xs);
  const of = (r: typeof own) => xs.filter((id) => r.durations.has(id)).map((id) => r.durations.get(id)!);
  rows.push(
    `| ${label} | ${a} | ${b} | ${(b / a).toFixed(3)} | ${p5090(of(own))} | ${p5090(of(idle))} | ${p5090(of(pkg))} | ${p5090(diff("durations", own, xs))} | ${p5090(diff("durations", idle, xs))} |`,
  );
}
const gapsOf = (r: typeof own) => ids.filter((id) => r.gaps.has(id)).map((id) => r.gaps.get(id)!);
const gapRow =
  `Before each request (a read's tool_execution_end to the provider's call: omp's turn and the context handlers), p50 / p90 ms: ` +
  `omp ${p5090(gapsOf(own))}, omp + idle handlers ${p5090(gapsOf(idle))}, omp-fscache ${p5090(gapsOf(pkg))}; ` +
  `added over omp ${p5090(diff("gaps", own, ids))}, over omp + idle handlers ${p5090(diff("gaps", idle, ids))}.`;
const pairs = ids.filter((id) => own.durations.has(id) && pkg.durations.has(id)).length;
const report = [
  `# omp-fscache: ${files.length} files of ${repo} (2-100 KB), ${rereads.length} rereads of unchanged files${hog ? ", a CPU hog beside" : ""}${settle ? ", a full garbage collection at each request (--settle)" : ""}`,
  "",
  `omp 18.2.3 on Bun ${Bun.version}. Four sessions side by side in one process (a prompt of 20 reads of each in turn): omp's read alone (OMP_FSCACHE_READ=0) on isolated default settings, the bytes' baseline; omp's read alone on the global settings, where the package has turned supersede off, the latency's baseline; the same with an extension whose context and tool_result handlers change nothing (bench/idle-handlers.js: omp clones every outgoing message for a context handler); omp-fscache on the global settings. Bytes: each read result as the next request carries it. Latency: omp's tool_execution_start to tool_execution_end; "added" is paired by read (${pairs} pairs with omp alone).`,
  "",
  ...rows,
  "",
  gapRow,
  "",
  `omp-fscache's answers: first reads: ${tally(first)}; rereads: ${tally(rereads)}. Reads made: ${def.reads}, ${own.reads}, ${idle.reads} and ${pkg.reads}; timed: ${own.durations.size}, ${idle.durations.size} and ${pkg.durations.size}.`,
  "",
  `Read results in the last request: omp's read ${def.lastBytes} bytes on its default settings, ${own.lastBytes} on the global settings (supersede off); omp-fscache ${pkg.lastBytes} bytes.`,
  "",
].join("\n");
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, `readcache-omp${hog ? "-hog" : settle ? "-settled" : ""}.md`), report);
console.log(report);
