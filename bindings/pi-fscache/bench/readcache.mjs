// make bench-readcache: a scripted session over a real repository, read
// through pi's own read tool and through pi-fscache's read, side by side in
// one process on the same files at the same moments.
//
// For each of N text files of BENCH_REPO (copied to a temp dir, so edits
// never touch the repository): read it (full), read it again (unchanged),
// edit at most 10 lines with pi's edit tool, read it (diff), read a range of
// 40 lines, read that range again, then compact keeping the later half of
// the session and read it again. Each read is made by both tools, in
// alternating order; both sessions record the results as pi does.
//
// Reports the bytes each tool served per kind of read, the diff's share of
// the file's bytes after an edit, and each read's latency (p50, p90) with
// the latency the cache adds over pi's read, idle and beside a CPU hog.
// Then a long session (issue 44): the session filled to 1,000 entries, a
// compaction, and 100 rereads each after a context edit (pi 1.x's
// appendContextEdit, omitting or replacing an earlier read's result; pi
// 0.73 has none, so there the rereads follow plain entries): what the
// replay of pi's projection costs a reread.
// Then the savings of the line-level copy (issue 48): a session of random
// whole-file reads, ranges (offset and limit, offset alone, path:a-b),
// rereads and small edits over the same files, every read preceded by a
// request through the package's `context` handler (test/read-harness.mjs);
// for each read, whether the copy the model rebuilds from that request
// (test/oracle-lib.mjs, never details) already held every line pi's read
// shows, and whether the answer was a marker: the share of those rereads
// not answered by a marker (the goal: at most 1%), and the bytes.
// Usage: node readcache.mjs --repo DIR [--files 40] [--rounds 3] [--out build/out/bench] [--tmp DIR]
// (make bench-readcache runs it, with BENCH_REPO or Go's src.)
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { createEditToolDefinition, createReadToolDefinition, SessionManager } from "@mariozechner/pi-coding-agent";
import registerRead from "../src/read/index.js";
import { appendToolCall } from "../test/session-helpers.mjs";
import { Harness, piRead } from "../test/read-harness.mjs";
import { MARKER, copiesFrom, piArgs, scopeOf, shownLines } from "../test/oracle-lib.mjs";

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const repo = opt("repo", process.env.BENCH_REPO);
const nFiles = Number(opt("files", 40));
const rounds = Number(opt("rounds", 3));
const outDir = opt("out", "build/out/bench");
// Where the session's copy of the files (and its object store) goes. make
// bench-readcache puts it under build/out: on this machine /tmp creates
// files ~15 times slower than the rest of the disk (0.6 ms against 0.04),
// which the store's write of each new version pays.
const tmpBase = opt("tmp", tmpdir());
if (!repo) {
  console.error("bench-readcache: --repo DIR (or BENCH_REPO) is required: a real repository to read");
  process.exit(2);
}

// The files: text sources of 200 lines or more and under 100 KB, and a few
// larger ones, chosen by a stable order.
function pickFiles(root) {
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === "node_modules" || e.name === ".git" || e.name.startsWith(".")) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && /\.(js|ts|mjs|cjs|tsx|md|json|go|c|h|py)$/.test(e.name)) out.push(p);
    }
  };
  walk(root);
  out.sort();
  const small = [];
  const large = [];
  for (const p of out) {
    const size = statSync(p).size;
    if (size < 2000 || size > 400_000) continue;
    const text = readFileSync(p, "utf8");
    const lines = text.split("\n").length;
    if (lines < 200) continue;
    if (size < 100_000) small.push({ p, size, lines });
    else large.push({ p, size, lines });
  }
  const spread = (list, n) => Array.from({ length: Math.min(n, list.length) }, (_, i) => list[Math.floor((i * list.length) / Math.min(n, list.length))]);
  return [...spread(small, nFiles - Math.floor(nFiles / 8)), ...spread(large, Math.floor(nFiles / 8))];
}

function fakePi() {
  const tools = new Map();
  return {
    tools,
    registerTool: (t) => tools.set(t.name, t),
    registerCommand() {},
    registerFlag() {},
    getFlag: () => false,
    on() {},
    appendEntry() {},
  };
}

const textBytes = (r) => r.content.reduce((n, c) => n + (c.type === "text" ? Buffer.byteLength(c.text) : 0), 0);

async function session(files, cwd, hog) {
  const pi = fakePi();
  registerRead(pi, { storeDir: join(cwd, ".pi", "readcache") });
  const ours = pi.tools.get("read");
  const base = createReadToolDefinition(cwd);
  const edit = createEditToolDefinition(cwd);
  const smOurs = SessionManager.inMemory(cwd);
  const smBase = SessionManager.inMemory(cwd);
  const rows = [];
  let flip = false;
  async function both(kind, f, args) {
    const run = async (tool, sm) => {
      // as pi runs it: the model's call appended, the tool run, its result appended
      const id = appendToolCall(sm, "read", args);
      const t0 = performance.now();
      const r = await tool.execute(id, args, undefined, undefined, { cwd, sessionManager: sm, ui: { notify() {} } });
      const ms = performance.now() - t0;
      sm.appendMessage({ role: "toolResult", toolCallId: id, toolName: "read", content: r.content, details: r.details, isError: false, timestamp: Date.now() });
      return { ms, bytes: textBytes(r), mode: r.details?.readcache?.mode ?? "baseline" };
    };
    flip = !flip;
    let a, b;
    if (flip) {
      a = await run(ours, smOurs);
      b = await run(base, smBase);
    } else {
      b = await run(base, smBase);
      a = await run(ours, smOurs);
    }
    rows.push({ kind, file: f.rel, size: f.size, lines: f.lines, hog, ours: a, pi: b });
    return a;
  }
  const user = (sm) => sm.appendMessage({ role: "user", content: [{ type: "text", text: "next" }], timestamp: Date.now() });
  for (const f of files) {
    user(smOurs);
    user(smBase);
    await both("first", f, { path: f.rel });
    await both("unchanged", f, { path: f.rel });
    // An edit of a few lines in the middle, through pi's edit tool.
    const text = readFileSync(join(cwd, f.rel), "utf8");
    const lines = text.split("\n");
    const at = Math.floor(lines.length / 2);
    let from = at;
    while (from < lines.length - 1 && lines[from].trim().length < 8) from++;
    const oldText = lines.slice(from, from + 3).join("\n");
    if (text.indexOf(oldText) === text.lastIndexOf(oldText) && oldText.trim()) {
      const newText = lines.slice(from, from + 3).map((l, i) => (i === 1 ? `${l} // edited` : l)).join("\n") + "\n// an added line";
      await edit.execute("e", { path: f.rel, edits: [{ oldText, newText }] }, undefined, undefined, { cwd });
      const d = await both("after-edit", f, { path: f.rel });
      d.fileBytes = Buffer.byteLength(readFileSync(join(cwd, f.rel)));
    }
    const start = Math.max(1, Math.floor(f.lines / 3));
    await both("range", f, { path: f.rel, offset: start, limit: 40 });
    await both("range-again", f, { path: f.rel, offset: start, limit: 40 });
  }
  // A compaction that keeps the later half of the session: the reads kept
  // stay trusted (seed 004), the earlier ones do not.
  for (const sm of [smOurs, smBase]) {
    const entries = sm.getBranch();
    const kept = entries[Math.floor(entries.length / 2)];
    sm.appendCompaction("summary of the earlier work", kept.id, 1000);
  }
  for (const f of files) await both("after-compaction", f, { path: f.rel });

  // The long session: 1,000 entries, a compaction, 100 context edits.
  let i = 0;
  while (smOurs.getEntries().length < 1000) {
    if (i % 4 === 0) {
      user(smOurs);
      user(smBase);
    }
    const f = files[i++ % files.length];
    await both("fill", f, { path: f.rel });
  }
  for (const sm of [smOurs, smBase]) {
    const entries = sm.getBranch();
    sm.appendCompaction("summary of the long session", entries[Math.floor(entries.length / 2)].id, 1000);
  }
  const canEdit = typeof smOurs.appendContextEdit === "function";
  for (let n = 0; n < 100; n++) {
    if (canEdit) {
      const targets = smOurs.buildContextEntries().filter((e) => e.type === "message" && e.message.role === "toolResult");
      const t = targets[(n * 7919) % targets.length];
      smOurs.appendContextEdit(t.id, n % 2 ? null : { content: "[old tool output cleared]" });
    } else user(smOurs);
    const f = files[n % files.length];
    await both("reread-long", f, { path: f.rel });
  }
  return rows;
}

/** Copies the picked files into cwd (edits never touch the repository): [{rel, size, lines}]. */
function copyFiles(picked, cwd) {
  return picked.map(({ p, size, lines }) => {
    const rel = relative(repo, p);
    mkdirSync(dirname(join(cwd, rel)), { recursive: true });
    copyFileSync(p, join(cwd, rel));
    return { rel, size, lines };
  });
}

// The savings of the line-level copy (issue 48), on the same files.
async function savings(files, cwd, steps = 600) {
  let seed = 4811;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x80000000;
  };
  const int = (n) => Math.floor(rnd() * n);
  const h = new Harness(cwd);
  const st = { reads: 0, held: 0, markers: 0, missed: 0, piBytes: 0, ourBytes: 0 };
  const lines = new Map(files.map((f) => [f.rel, readFileSync(join(cwd, f.rel), "utf8").split("\n").length]));
  for (let i = 0; i < steps; i++) {
    const f = files[int(Math.min(files.length, 8))];
    if (rnd() < 0.08) {
      // a small edit: one line changed
      const text = readFileSync(join(cwd, f.rel), "utf8").split("\n");
      const at = int(text.length - 1);
      text[at] = `${text[at]} // edited ${i}`;
      writeFileSync(join(cwd, f.rel), text.join("\n"));
      continue;
    }
    const n = lines.get(f.rel);
    const k = rnd();
    const start = 1 + int(n);
    const args = k < 0.4 ? { path: f.rel } : k < 0.7 ? { path: f.rel, offset: start, limit: 1 + int(80) } : k < 0.85 ? { path: f.rel, offset: start } : { path: `${f.rel}:${start}-${Math.min(n, start + int(60))}` };
    const msgs = await h.request();
    const own = await piRead(cwd, piArgs(args)).catch(() => undefined);
    if (!own) continue;
    const copy = copiesFrom(msgs, msgs.length).get(scopeOf(args).file);
    const shown = shownLines(own.text, scopeOf(args).start);
    const held = copy !== undefined && [...shown].every(([ln, t]) => copy.get(ln) === t);
    const r = await h.read(args);
    if (r.isError) continue;
    st.reads++;
    st.piBytes += Buffer.byteLength(own.text);
    st.ourBytes += Buffer.byteLength(r.text);
    const marker = MARKER.test(r.text);
    if (marker) st.markers++;
    if (held) {
      st.held++;
      if (!marker) st.missed++;
    }
  }
  return st;
}

const pct = (xs, p) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : "-");

async function main() {
  const picked = pickFiles(repo);
  if (picked.length === 0) throw new Error(`no text files of 200+ lines in ${repo}`);
  const all = [];
  let saved;
  {
    mkdirSync(tmpBase, { recursive: true });
    const cwd = mkdtempSync(join(tmpBase, "fscache-bench-savings-"));
    try {
      saved = await savings(copyFiles(picked, cwd), cwd);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }
  for (const hog of [false, true]) {
    let child;
    if (hog) child = spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" });
    try {
      for (let r = 0; r < rounds; r++) {
        mkdirSync(tmpBase, { recursive: true });
        const cwd = mkdtempSync(join(tmpBase, "fscache-bench-readcache-"));
        try {
          all.push(...(await session(copyFiles(picked, cwd), cwd, hog)));
        } finally {
          rmSync(cwd, { recursive: true, force: true });
        }
      }
    } finally {
      child?.kill();
    }
  }
  const kinds = ["first", "unchanged", "after-edit", "range", "range-again", "after-compaction", "reread-long"];
  const md = [];
  const line = typeof SessionManager.inMemory("/").appendContextEdit === "function" ? "pi 1.x" : "pi 0.73";
  md.push(`# bench-readcache (${line}, Node ${process.versions.node}): ${picked.length} files of ${repo}, ${rounds} rounds, idle and beside a CPU hog`, "");
  md.push(`reread-long: a reread after 1,000 entries, a compaction and ${line === "pi 1.x" ? "a context edit before each of the 100 rereads" : "no context edits (pi 0.73 has none)"}.`, "");
  md.push("Bytes served (idle rounds; text content), pi's read against pi-fscache's read:", "");
  md.push("| read | calls | pi bytes | pi-fscache bytes | ratio | modes |", "| --- | ---: | ---: | ---: | ---: | --- |");
  for (const k of kinds) {
    const rs = all.filter((r) => r.kind === k && !r.hog);
    const pb = rs.reduce((n, r) => n + r.pi.bytes, 0);
    const ob = rs.reduce((n, r) => n + r.ours.bytes, 0);
    const modes = {};
    for (const r of rs) modes[r.ours.mode] = (modes[r.ours.mode] ?? 0) + 1;
    md.push(`| ${k} | ${rs.length} | ${pb} | ${ob} | ${fmt(ob / pb, 3)} | ${Object.entries(modes).map(([m, n]) => `${m} ${n}`).join(", ")} |`);
  }
  const edits = all.filter((r) => r.kind === "after-edit" && !r.hog && r.lines >= 200);
  const shares = edits.map((r) => r.ours.bytes / (r.ours.fileBytes ?? r.size));
  const unchangedLines = all.filter((r) => r.kind === "unchanged").every((r) => r.ours.mode === "unchanged");
  md.push("");
  md.push(`After an edit of at most 10 lines (files of 200+ lines, ${edits.length} rereads): the reread costs ${fmt(pct(shares, 50), 4)} of the file's bytes at p50, ${fmt(Math.max(...shares), 4)} at most.`);
  md.push(`Every unchanged reread answered with one marker line: ${unchangedLines}.`, "");
  md.push("Latency per read, ms (files under 100 KB): pi's read, pi-fscache's read, and what the cache adds (p50 of the per-call differences):", "");
  md.push("| read | load | calls | pi p50 | pi p90 | ours p50 | ours p90 | added p50 |", "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  const summary = {};
  for (const hog of [false, true]) {
    for (const k of kinds) {
      const rs = all.filter((r) => r.kind === k && r.hog === hog && r.size < 100_000);
      const added = rs.map((r) => r.ours.ms - r.pi.ms);
      const row = { calls: rs.length, pi50: pct(rs.map((r) => r.pi.ms), 50), pi90: pct(rs.map((r) => r.pi.ms), 90), ours50: pct(rs.map((r) => r.ours.ms), 50), ours90: pct(rs.map((r) => r.ours.ms), 90), added50: pct(added, 50) };
      summary[`${hog ? "hog" : "idle"}:${k}`] = row;
      md.push(`| ${k} | ${hog ? "hog" : "idle"} | ${row.calls} | ${fmt(row.pi50, 3)} | ${fmt(row.pi90, 3)} | ${fmt(row.ours50, 3)} | ${fmt(row.ours90, 3)} | ${fmt(row.added50, 3)} |`);
    }
  }
  md.push("");
  md.push(`Savings of the line-level copy (issue 48): ${saved.reads} random reads of ${Math.min(picked.length, 8)} files (whole, ranges, offsets, path:a-b, 8% small edits), each after a request through the context handler. Rereads whose request already held every line pi's read shows: ${saved.held}; answered by a marker: ${saved.held - saved.missed}; not: ${saved.missed} (${fmt((100 * saved.missed) / Math.max(1, saved.held), 2)}%, the goal at most 1%). Bytes: pi ${saved.piBytes}, pi-fscache ${saved.ourBytes} (${fmt(saved.ourBytes / saved.piBytes, 3)}).`);
  mkdirSync(outDir, { recursive: true });
  const suffix = process.env.BENCH_SUFFIX ?? "";
  writeFileSync(join(outDir, `readcache${suffix}.md`), md.join("\n") + "\n");
  writeFileSync(join(outDir, `readcache${suffix}.json`), JSON.stringify({ repo, line, files: picked.length, rounds, summary, savings: saved, editShares: shares, rows: all }, null, 1));
  console.log(md.join("\n"));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
