// Randomized real omp sessions, judged by the oracle at every request the
// model receives (issue 49, Deliver 5): reads (whole, ranges, selectors,
// rereads), on-disk edits, the model's own edits through omp's edit tool
// (checked to land on the lines the model saw), supersede (omp's default
// settings, and isolated SDK settings where supersede stays on), shake and
// compaction (a small compaction.thresholdTokens with large reported usage),
// restart and resume from the session file.
//
// OMP_FSCACHE_STEPS (default 1500) steps in all; OMP_FSCACHE_SEED.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startSession } from "./hosts/harness.ts";
import { Oracle } from "./oracle.mjs";

const STEPS = Number(process.env.OMP_FSCACHE_STEPS ?? 1500);
const SEED = Number(process.env.OMP_FSCACHE_SEED ?? 49);

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

function fileLines(p: string): string[] {
  const t = fs.readFileSync(p, "utf8");
  const l = t.split("\n");
  if (l.at(-1) === "") l.pop();
  return l;
}

interface Variant {
  label: string;
  settings: "global" | Record<string, unknown>;
  restarts: boolean;
  bigUsage: boolean;
  /** Larger files (long lines): enough context for shake to find results to drop. */
  big?: boolean;
  /** Nothing rewrites a result (no supersede, shake or compaction): every read's answer must reach the model as the read decided it. */
  noRepairs?: boolean;
}

export async function runVariant(v: Variant, steps: number, seed: number, extensionPaths?: string[]) {
  const rand = rng(seed);
  const pick = <T,>(a: T[]) => a[Math.floor(rand() * a.length)];
  const cwd = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "omp-fscache-ws-")));
  const sessionDir = path.join(cwd, ".sessions");
  const files: string[] = [];
  const words = ["alpha", "beta", "gamma", "delta", "omega", "lorem", "ipsum", "read", "cache", "line"];
  const width = v.big ? 24 : 6;
  const mkProse = (n: number) => Array.from({ length: n }, () => Array.from({ length: 1 + Math.floor(rand() * width) }, () => pick(words)).join(" "));
  const mkCode = (n: number) => {
    const out: string[] = [];
    for (let i = 0; out.length < n; i++) out.push(`export function f${i}(x: number) {`, `  return x + ${i};`, "}");
    return out.slice(0, n);
  };
  for (let i = 0; i < (v.big ? 10 : 6); i++) {
    const f = `doc${i}.${i % 2 ? "md" : "txt"}`;
    fs.writeFileSync(path.join(cwd, f), mkProse(3 + Math.floor(rand() * (i === 5 || v.big ? 280 : 60))).join("\n") + "\n");
    files.push(f);
  }
  for (let i = 0; i < 2; i++) {
    const f = `code${i}.ts`;
    fs.writeFileSync(path.join(cwd, f), mkCode(i === 0 ? 30 : 150).join("\n") + "\n");
    files.push(f);
  }

  const truth = new Map<string, string[]>();
  const oracle = new Oracle(cwd, truth);
  const violations: string[] = [];
  const stats: Record<string, number> = { requests: 0, reads: 0, markers: 0, diffs: 0, edits: 0, editErrors: 0, diskEdits: 0, restarts: 0, maintenance: 0, summaries: 0, compactions: 0, compactErrors: 0 };
  // Reads whose answer the context handler replaced: what a request shows
  // for the call differs from what the read returned (test/fixtures/stored.js).
  // (Call ids restart in each variant: what an earlier one stored is dropped.)
  const stored: Map<string, string> = ((globalThis as any).__ompFscacheStored ??= new Map());
  stored.clear();
  const repaired = new Set<string>();
  let step = 0;
  let inPrompt = 0;
  let pendingEdit: { file: string; expect: string[]; id: string } | undefined;
  let ids = 0;
  const editErrorTexts: string[] = [];
  const seenNotices = { superseded: new Set<string>(), shaken: new Set<string>(), summaries: 0 };

  const handler = (context: any) => {
    const tools = (context.tools ?? []).map((t: any) => t.name);
    if (!tools.includes("read")) {
      stats.summaries++;
      return { content: ["## Summary\nThe session read files."] };
    }
    stats.requests++;
    for (const m of context.messages) {
      const t = m.role === "toolResult" ? (m.content?.[0]?.text ?? "") : "";
      if (t.startsWith("[Superseded")) seenNotices.superseded.add(m.toolCallId);
      if (t.startsWith("[shaken")) seenNotices.shaken.add(m.toolCallId);
      if (m.role === "compactionSummary" || m.role === "branchSummary") seenNotices.summaries++;
    }
    for (const m of context.messages) {
      if (m.role !== "toolResult" || m.toolName !== "read" || !Array.isArray(m.content)) continue;
      const was = stored.get(m.toolCallId);
      const now = m.content.filter((c: any) => c?.type === "text").map((c: any) => c.text).join("\n");
      if (was !== undefined && was !== now && !repaired.has(m.toolCallId)) {
        repaired.add(m.toolCallId);
        if (v.noRepairs) violations.push(`[${v.label} step ${step}] the read's answer for ${m.toolCallId} was replaced before the model saw it (the read decided without the copy the request carries): ${JSON.stringify(was.slice(0, 160))}`);
      }
    }
    const r = oracle.check(context.messages);
    stats.markers = Math.max(stats.markers, 0);
    for (const x of r.violations) violations.push(`[${v.label} step ${step}] ${x}`);
    if (pendingEdit) {
      const now = fileLines(path.join(cwd, pendingEdit.file));
      const last = [...context.messages].reverse().find((m: any) => m.role === "toolResult" && m.toolCallId === pendingEdit!.id);
      if (last?.isError) {
        stats.editErrors++;
        editErrorTexts.push(`${pendingEdit.file}: ${JSON.stringify(last.content?.[0]?.text ?? "").slice(0, 400)}`);
      }
      else if (now.length !== pendingEdit.expect.length || now.some((t, k) => t !== pendingEdit!.expect[k]))
        violations.push(`[${v.label} step ${step}] the model's edit of ${pendingEdit.file} did not land on the lines it saw: ${JSON.stringify(last?.content?.[0]?.text ?? "").slice(0, 300)}`);
      pendingEdit = undefined;
    }
    step++;
    inPrompt++;
    const usage = v.bigUsage && rand() < 0.15 ? { input: 150_000, totalTokens: 150_000 } : undefined;
    if (inPrompt > 8 || step > steps) {
      inPrompt = 0;
      return { content: ["done"], ...(usage ? { usage } : {}) };
    }
    const id = `c${++ids}`;
    const a = rand();
    const f = pick(files);
    const abs = path.join(cwd, f);
    if (a < 0.12) {
      // an on-disk edit the model does not see, then a read
      const l = fileLines(abs);
      const k = Math.floor(rand() * Math.max(1, l.length));
      const op = rand();
      if (op < 0.5 && l.length > 0) l[k] = `changed ${step} ${pick(words)}`;
      else if (op < 0.75) l.splice(k, 0, `inserted ${step}`);
      else if (l.length > 2) l.splice(k, 1);
      fs.writeFileSync(abs, l.join("\n") + "\n");
      stats.diskEdits++;
    } else if (a < 0.22 && !f.endsWith(".ts")) {
      // the model edits a line it holds, anchored on the TAG it last saw
      const held = r.copy.get(abs);
      const disk = fileLines(abs);
      const tag = r.tags.get(abs);
      const exact = held && tag && held.size === disk.length && disk.every((t, k) => held.get(k + 1) === t);
      if (exact && disk.length > 0) {
        const n = 1 + Math.floor(rand() * disk.length);
        const text = `edited ${step} ${pick(words)}`;
        const expect = disk.slice();
        expect[n - 1] = text;
        pendingEdit = { file: f, expect, id };
        stats.edits++;
        return { content: [{ type: "toolCall", id, name: "edit", arguments: { input: `*** Begin Patch\n[${f}#${tag}]\nPUT ${n}.=${n}:\n+${text}\n*** End Patch` } }], ...(usage ? { usage } : {}) };
      }
    }
    const lines = fileLines(abs);
    const n = Math.max(1, lines.length);
    const s = 1 + Math.floor(rand() * n);
    const form = rand();
    let p = f;
    if (form < 0.5) p = f;
    else if (form < 0.65) p = `${f}:${s}-${Math.min(n, s + Math.floor(rand() * 20))}`;
    else if (form < 0.72) p = `${f}:${s}`;
    else if (form < 0.8) p = `${f}:${s}+${1 + Math.floor(rand() * 10)}`;
    else if (form < 0.88) p = `${f}:-${1 + Math.floor(rand() * 15)}`;
    else if (form < 0.92) p = `${f}:raw`;
    else p = `./${f}`;
    truth.set(id, lines);
    stats.reads++;
    return { content: [{ type: "toolCall", id, name: "read", arguments: { path: p } }], ...(usage ? { usage } : {}) };
  };

  const watch = (st: any) => st.session.subscribe((e: any) => {
    if (typeof e?.type === "string" && e.type.endsWith("compaction_start")) stats.maintenance++;
    if (process.env.OMP_FSCACHE_DEBUG && typeof e?.type === "string" && e.type.includes("compaction")) console.error(JSON.stringify(e).slice(0, 400));
  });
  // stored.js only where it is checked, so the other variants run as users
  // do: with it loaded (a message_end handler), fewer markers survived
  // omp's supersede pass in seed 50 (87 against 127; the oracle still found
  // nothing; the cause is not known).
  const extraExtensionPaths = v.noRepairs ? [path.join(import.meta.dir, "fixtures/stored.js")] : undefined;
  let started = await startSession({ cwd, handler, settings: v.settings, sessionDir, extensionPaths, extraExtensionPaths });
  watch(started);
  let prompts = 0;
  const markersSeen = new Set<string>();
  const diffsSeen = new Set<string>();
  while (step <= steps) {
    await started.session.prompt(`step ${step}: go on`);
    prompts++;
    for (const c of started.mock.calls) {
      for (const m of c.context.messages) {
        if (m.role !== "toolResult" || !Array.isArray(m.content)) continue;
        const t = m.content[0]?.text ?? "";
        if (t.includes("\n[fscache: unchanged")) markersSeen.add(m.toolCallId);
        if (t.includes("\n[fscache: changed")) diffsSeen.add(m.toolCallId);
      }
    }
    if (v.big && prompts % 7 === 3) {
      try {
        await started.session.compact();
        stats.compactions++;
      } catch (err) {
        stats.compactErrors++;
        if (process.env.OMP_FSCACHE_DEBUG) console.error("compact:", err);
      }
    }
    if (v.restarts && prompts % 10 === 0) {
      const file = started.sessionManager.getSessionFile();
      await started.session.dispose?.();
      started = await startSession({ cwd, handler, settings: v.settings, sessionDir, sessionFile: file, extensionPaths, extraExtensionPaths });
      watch(started);
      stats.restarts++;
    }
  }
  await started.session.dispose?.();
  stats.markers = markersSeen.size;
  stats.diffs = diffsSeen.size;
  // measured only where stored.js is loaded
  if (v.noRepairs) stats.repairs = repaired.size;
  Object.assign(stats, { superseded: seenNotices.superseded.size, shaken: seenNotices.shaken.size, summaryMessages: seenNotices.summaries });
  fs.rmSync(cwd, { recursive: true, force: true });
  return { violations, stats, editErrorTexts };
}

if (import.meta.main) {
  const variants: Variant[] = [
    { label: "default settings, restarts", settings: "global", restarts: true, bigUsage: false, noRepairs: true },
    { label: "isolated settings (supersede on), small thresholdTokens", settings: { "compaction.thresholdTokens": 4000, "compaction.methodOrder": ["shake", "snapcompact"] }, restarts: false, bigUsage: true },
    {
      label: "isolated settings, supersede off, shake and snapcompact",
      settings: { "compaction.supersedeReads": false, "compaction.thresholdTokens": 30000, "compaction.methodOrder": ["shake", "snapcompact", "soft"], "compaction.keepRecentTokens": 3000 },
      restarts: true,
      bigUsage: true,
      big: true,
    },
  ];
  let failed = false;
  const t0 = Date.now();
  // Sessions of at most 250 steps (a session's cost per step grows with
  // its length), each variant in turn, until STEPS.
  const per = 250;
  const runs = Math.max(variants.length, Math.ceil(STEPS / per));
  const total = { markers: 0, diffs: 0 };
  for (let i = 0; i < runs; i++) {
    const v = variants[i % variants.length];
    const steps = Math.ceil(STEPS / runs);
    const { violations, stats, editErrorTexts } = await runVariant(v, steps, SEED + i);
    console.log(`${v.label} (seed ${SEED + i}): ${JSON.stringify(stats)}; violations ${violations.length}`);
    for (const x of editErrorTexts.slice(0, 5)) console.log(`  edit error: ${x}`);
    for (const x of violations.slice(0, 20)) console.log(`  ${x}`);
    if (violations.length > 0) failed = true;
    total.markers += stats.markers;
    total.diffs += stats.diffs;
    if (stats.editErrors > 0) {
      console.log(`  FAIL: ${stats.editErrors} of the model's edits failed`);
      failed = true;
    }
  }
  if (total.markers === 0 || total.diffs === 0) {
    console.log(`  FAIL: no ${total.markers === 0 ? "marker" : "diff"} was served: the test exercised nothing`);
    failed = true;
  }
  console.log(`session-oracle: ${STEPS} steps in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  process.exit(failed ? 1 : 0);
}
