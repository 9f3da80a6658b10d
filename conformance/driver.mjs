#!/usr/bin/env node
// Differential conformance driver: builds the fixtures once, runs every case through two
// implementations (each side in its own process per env group), compares the complete results
// and prints both sides of every difference. The last line is `conformance: N/M ...`.
//
//   node conformance/driver.mjs [--left SPEC] [--right SPEC] [--filter REGEX] [--id ID]... [--list]
//                                [--keep] [--out DIR] [--jobs N] [--brief]
//                                [--only-fn FN] [--right-env K=V]... [--expect-index]
//   SPEC = ref:/path/to/pi_natives.linux-x64-modern.node | ours:/path/to/bindings/node/index.js
//
// Defaults: left = the cached reference (conformance/.cache/...), right = our package.
// Exit status: 0 when every difference is an allowed known difference, 1 otherwise, 2 on a
// harness error.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { buildShared } from "./lib/fixtures.mjs";
import { allCases } from "./lib/cases/index.mjs";
import { allCases18 } from "./lib/cases18/index.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(HERE);
const REF_DEFAULT = path.join(HERE, ".cache", "pi-natives-14.9.9", "pi_natives.linux-x64-modern.node");
const OURS_DEFAULT = path.join(ROOT, "bindings", "node", "index.js");

function parseArgs(argv) {
  const o = { left: `ref:${REF_DEFAULT}`, right: `ours:${OURS_DEFAULT}`, filter: null, list: false, keep: false, out: path.join(HERE, "out"), jobs: Math.max(1, Math.min(4, os.cpus().length)), maxPrint: 6000, maxFull: 60, compat: path.join(ROOT, "docs", "compat.md") };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === "--left") o.left = next();
    else if (a === "--right") o.right = next();
    else if (a === "--filter") o.filter = new RegExp(next());
    else if (a === "--exclude") o.exclude = new RegExp(next()); // drop the cases whose id matches
    else if (a === "--id") (o.ids ??= new Set()).add(next());
    else if (a === "--list") o.list = true;
    else if (a === "--keep") o.keep = true;
    else if (a === "--brief") o.brief = true;
    else if (a === "--out") o.out = path.resolve(next());
    else if (a === "--jobs") o.jobs = Number(next());
    else if (a === "--max-print") o.maxPrint = Number(next());
    else if (a === "--max-full") o.maxFull = Number(next());
    else if (a === "--compat") o.compat = path.resolve(next());
    else if (a === "--suite") o.suite = next(); // "14" (default) or "18": the cases of pi-natives 18.2's additions
    else if (a === "--only-fn") o.onlyFn = next(); // keep the cases that call this function
    else if (a === "--right-env") (o.rightEnv ??= []).push(next()); // K=V for the right side's runners only
    else if (a === "--expect-index") o.expectIndex = true; // the right side's greps must be served by grep's index
    else throw new Error(`unknown argument ${a}`);
  }
  const abs = (spec) => {
    const i = spec.indexOf(":");
    if (i < 0) throw new Error(`implementation spec must be ref:FILE or ours:FILE, got ${spec}`);
    return spec.slice(0, i + 1) + path.resolve(spec.slice(i + 1));
  };
  o.left = abs(o.left);
  o.right = abs(o.right);
  return o;
}

function goroot() {
  try {
    return execFileSync("go", ["env", "GOROOT"], { encoding: "utf8" }).trim();
  } catch {
    return process.env.GOROOT || "/usr/local/go";
  }
}

const KNOWN_PREFIXES = ["Path not found:", "Search path must be a directory", "Invalid glob pattern:", "Regex error:", "Aborted: Timeout", "Aborted: Signal"];

/** The comparable form of one step result: errors are reduced to their prefix. */
function comparable(r) {
  if (!r) return r;
  const out = { ...r };
  if (r.error) {
    out.error = { prefix: r.error.prefix, isError: r.error.isError, sync: r.error.sync };
    if (!KNOWN_PREFIXES.includes(r.error.prefix) && r.error.prefix.startsWith("HARNESS")) out.error.message = r.error.message;
  }
  return out;
}

function runSide(spec, casesFile, outFile, ctx, env, budgetMs) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(HERE, "runner.mjs"), "--impl", spec, "--cases", casesFile, "--out", outFile, "--fixtures", ctx.fixtures, "--scratch", ctx.scratch, "--goroot", ctx.goroot], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill("SIGKILL");
    }, budgetMs);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      const results = new Map();
      if (fs.existsSync(outFile))
        for (const line of fs.readFileSync(outFile, "utf8").split("\n"))
          if (line.trim()) {
            const rec = JSON.parse(line);
            results.set(rec.id, rec);
          }
      resolve({ code, signal, killed, stderr, stdout, results });
    });
  });
}

function truncate(s, n) {
  return s.length <= n ? s : s.slice(0, n) + `\n... (${s.length - n} more characters; see the out/ directory)`;
}

/** A short human description of where two JSON values first differ. */
function firstDifference(a, b, where = "") {
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length) return `${where}[${i}]: only right has ${JSON.stringify(b[i])} (lengths ${a.length} vs ${b.length})`;
      if (i >= b.length) return `${where}[${i}]: only left has ${JSON.stringify(a[i])} (lengths ${a.length} vs ${b.length})`;
      const d = firstDifference(a[i], b[i], `${where}[${i}]`);
      if (d) return d;
    }
  }
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      if (!(k in a)) return `${where}.${k}: only right has it (${JSON.stringify(b[k])})`;
      if (!(k in b)) return `${where}.${k}: only left has it (${JSON.stringify(a[k])})`;
      const d = firstDifference(a[k], b[k], `${where}.${k}`);
      if (d) return d;
    }
  }
  return `${where || "(top)"}: left ${truncate(JSON.stringify(a), 300)} vs right ${truncate(JSON.stringify(b), 300)}`;
}

// loadAllowlist reads known-differences.json: the entries for the suite
// run ("14" or "18"; an entry with `suite` applies to that suite only).
function loadAllowlist(compatPath, suite) {
  const file = path.join(HERE, "known-differences.json");
  const list = (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : []).filter((e) => !e.suite || e.suite === suite);
  const doc = fs.existsSync(compatPath) ? fs.readFileSync(compatPath, "utf8") : "";
  return list.map((e) => {
    const key = e.id ?? e.pattern;
    return { ...e, key, documented: Boolean(key) && doc.includes(key), re: e.pattern ? new RegExp(e.pattern) : null };
  });
}

// wholeMs returns results (one per call or invalidate step of case c) as
// pi-natives 14.9.9 would give them if its mtimes were the milliseconds
// with their fraction: every glob mtime floored to whole milliseconds, and
// the matches of a sortByMtime glob in a canonical order within each run
// of equal (floored) mtimes; onMatch deliveries (a multiset) floored too.
function wholeMs(c, results) {
  const steps = (c.steps ?? [{ op: "call", ...c.call }]).filter((s) => s.op === "call" || s.op === "invalidate");
  const floor = (m) => (m && typeof m === "object" && typeof m.mtime === "number" ? { ...m, mtime: Math.floor(m.mtime) } : m);
  const byJSON = (a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0);
  return results.map((r, i) => {
    const s = steps[i];
    if (!r || s?.fn !== "glob") return r;
    const out = { ...r };
    if (Array.isArray(r.onMatch)) out.onMatch = r.onMatch.map(floor).sort(byJSON);
    if (Array.isArray(r.ok?.matches)) {
      const ms = r.ok.matches.map(floor);
      if (s.options?.sortByMtime) ms.sort((a, b) => (b.mtime ?? 0) - (a.mtime ?? 0) || byJSON(a, b));
      out.ok = { ...r.ok, matches: ms };
    }
    return out;
  });
}

// allowedBy returns the entry that allows case c's difference. An entry
// with `fields` allows only a difference in those fields of the results'
// `ok` objects (both sides must agree once they are left out), with `when`
// only in the `ok` objects that hold every key of `when` with its value on
// both sides, and with `withOption` only in a case whose calls set that
// option. An entry with `wholeMs` allows only the difference that glob's
// whole-millisecond mtimes make (the left side's, pi-natives 14.9.9's): both
// sides must agree once wholeMs has made the right side's mtimes whole and
// put both sides' ties in one order (a limit that cuts a different set is
// not allowed).
function allowedBy(allow, c, la, ra) {
  return allow.find((e) => {
    if (!(e.id ? e.id === c.id : e.re.test(c.id))) return false;
    if (e.withOption && !(c.steps ?? [{ op: "call", ...c.call }]).some((s) => s.options && e.withOption in s.options)) return false;
    if (e.wholeMs) return Array.isArray(la) && Array.isArray(ra) && JSON.stringify(wholeMs(c, la)) === JSON.stringify(wholeMs(c, ra));
    if (!e.fields) return true;
    const applies = (ok) => !e.when || Object.entries(e.when).every(([k, w]) => ok[k] === w);
    const drop = (rs) => JSON.stringify(rs, (k, v) => (v && typeof v === "object" && !Array.isArray(v) && "ok" in v && v.ok && typeof v.ok === "object" && applies(v.ok)
      ? { ...v, ok: Object.fromEntries(Object.entries(v.ok).filter(([f]) => !e.fields.includes(f))) } : v));
    return drop(la) === drop(ra);
  });
}

async function pool(items, n, fn) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i], i);
      }
    }),
  );
  return results;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const t0 = Date.now();
  let cases = o.suite === "18" ? allCases18() : allCases();
  const ids = new Set();
  for (const c of cases) {
    if (ids.has(c.id)) throw new Error(`duplicate case id ${c.id}`);
    ids.add(c.id);
  }
  if (o.filter) cases = cases.filter((c) => o.filter.test(c.id));
  if (o.exclude) cases = cases.filter((c) => !o.exclude.test(c.id));
  if (o.ids) cases = cases.filter((c) => o.ids.has(c.id));
  if (o.onlyFn) cases = cases.filter((c) => (c.steps ?? [{ op: "call", ...c.call }]).some((s) => s.op === "call" && s.fn === o.onlyFn));
  if (o.list) {
    for (const c of cases) console.log(c.id);
    const byArea = {};
    for (const c of cases) byArea[c.id.split("/")[0]] = (byArea[c.id.split("/")[0]] ?? 0) + 1;
    console.log(JSON.stringify(byArea));
    console.log(`cases: ${cases.length}`);
    return 0;
  }
  for (const spec of [o.left, o.right]) {
    const file = spec.slice(spec.indexOf(":") + 1);
    if (!fs.existsSync(file)) {
      console.error(`conformance: implementation not found: ${spec}`);
      console.log(`conformance: 0/${cases.length} (harness error: missing ${file})`);
      return 2;
    }
  }

  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "fscache-conf-")));
  const ctx = { fixtures: path.join(base, "fx"), goroot: goroot(), base };
  const home = path.join(base, "home");
  fs.mkdirSync(home, { recursive: true });
  buildShared(ctx.fixtures);
  fs.rmSync(o.out, { recursive: true, force: true });
  fs.mkdirSync(o.out, { recursive: true });

  // Group cases by environment (policy is read once per process) and isolation class.
  const groups = new Map();
  for (const c of cases) {
    const key = JSON.stringify({ env: c.env ?? {}, proc: c.proc ?? "main" });
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(c);
  }
  const baseEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(FS_SCAN_|GIT_)/.test(k)) baseEnv[k] = v;
  Object.assign(baseEnv, { HOME: home, XDG_CONFIG_HOME: home, TZ: "UTC", LC_ALL: "C.UTF-8" });
  // The reference's cache is served by TTL; fscache's watched cache is a
  // documented difference (docs/compat.md) tested by fscache's own suites.
  // The reference ignores this variable.
  baseEnv.FS_SCAN_CACHE_WATCH = "0";

  const sub = (v) => String(v).split("@@F@@").join(ctx.fixtures).split("@@G@@").join(ctx.goroot);
  const tasks = [];
  let gi = 0;
  for (const [key, list] of groups) {
    const g = gi++;
    const { env } = JSON.parse(key);
    const casesFile = path.join(base, `group-${g}.json`);
    fs.writeFileSync(casesFile, JSON.stringify(list));
    const genv = { ...baseEnv };
    for (const [k, v] of Object.entries(env)) genv[k] = sub(v);
    const budget = 60000 + list.reduce((s, c) => s + (c.budgetMs ?? 2000), 0);
    for (const side of ["left", "right"]) {
      const senv = { ...genv };
      if (side === "right") {
        for (const kv of o.rightEnv ?? []) senv[kv.slice(0, kv.indexOf("="))] = kv.slice(kv.indexOf("=") + 1);
        if (o.expectIndex) senv.FSCACHE_CONF_INDEX_STATS = "1";
      }
      tasks.push({ g, side, list, casesFile, genv: senv, budget, key });
    }
  }
  // Longest groups first so the pool stays busy.
  tasks.sort((a, b) => b.budget - a.budget);
  const sideRes = { left: new Map(), right: new Map() };
  const harnessProblems = [];
  const indexStats = [];
  await pool(tasks, o.jobs, async (t) => {
    const scratch = path.join(base, `scratch-${t.side}-${t.g}`);
    fs.mkdirSync(scratch, { recursive: true });
    const spec = t.side === "left" ? o.left : o.right;
    const r = await runSide(spec, t.casesFile, path.join(base, `out-${t.side}-${t.g}.jsonl`), { ...ctx, scratch }, t.genv, t.budget);
    if (r.code !== 0 || r.killed)
      harnessProblems.push(`${t.side} runner for group ${t.key} (${t.list.length} cases) ${r.killed ? "was killed after " + t.budget + " ms" : "exited with " + (r.code ?? r.signal)}; stderr:\n${truncate(r.stderr, 2000)}`);
    for (const [id, rec] of r.results) sideRes[t.side].set(id, rec);
    const statsFile = path.join(base, `out-${t.side}-${t.g}.jsonl.stats.json`);
    if (t.side === "right" && fs.existsSync(statsFile)) indexStats.push(JSON.parse(fs.readFileSync(statsFile, "utf8")));
  });
  // --expect-index: grep's content index must have served the right side's greps.
  let indexNote = null;
  if (o.expectIndex) {
    const sum = { queries: 0, skipped: 0, builds: 0, fallbacks: {} };
    for (const s of indexStats) {
      if (!s) continue;
      sum.queries += s.queries;
      sum.skipped += s.skipped;
      sum.builds += s.builds;
      for (const [k, v] of Object.entries(s.fallbacks ?? {})) sum.fallbacks[k] = (sum.fallbacks[k] ?? 0) + v;
    }
    indexNote = `index: ${sum.queries} greps served by grep's index (${sum.builds} builds, ${sum.skipped} files ruled out), fallbacks ${JSON.stringify(sum.fallbacks)}`;
    if (sum.queries === 0) harnessProblems.push(`--expect-index: no grep was served by the index (${indexNote})`);
  }

  const allow = loadAllowlist(o.compat, o.suite ?? "14");
  let agree = 0;
  const allowed = [];
  const failures = [];
  const undocumented = [];
  const dump = { left: {}, right: {} };
  for (const c of cases) {
    const L = sideRes.left.get(c.id);
    const R = sideRes.right.get(c.id);
    dump.left[c.id] = L?.results ?? null;
    dump.right[c.id] = R?.results ?? null;
    const la = L ? L.results.map(comparable) : { missing: "no result (runner crashed or was killed)" };
    const ra = R ? R.results.map(comparable) : { missing: "no result (runner crashed or was killed)" };
    if (JSON.stringify(la) === JSON.stringify(ra)) {
      agree++;
      continue;
    }
    const entry = allowedBy(allow, c, la, ra);
    const diff = { c, L, R, la, ra, where: firstDifference(la, ra) };
    if (entry && entry.documented) allowed.push({ ...diff, entry });
    else {
      if (entry) undocumented.push(entry);
      failures.push(diff);
    }
  }
  fs.writeFileSync(path.join(o.out, "left.json"), JSON.stringify({ spec: o.left, results: dump.left }, null, 1));
  fs.writeFileSync(path.join(o.out, "right.json"), JSON.stringify({ spec: o.right, results: dump.right }, null, 1));

  // One block per failing case (both sides in full, capped at --max-print characters each).
  const blocks = failures.map((f) =>
    [
      `\n=== DIFFERENCE ${f.c.id}`,
      `case: ${JSON.stringify({ env: f.c.env, fresh: f.c.fresh, cwd: f.c.cwd, call: f.c.call, steps: f.c.steps })}`,
      `first difference: ${f.where}`,
      `--- left (${o.left}):\n${truncate(JSON.stringify(f.L?.results ?? f.la, null, 1), o.maxPrint)}`,
      `--- right (${o.right}):\n${truncate(JSON.stringify(f.R?.results ?? f.ra, null, 1), o.maxPrint)}`,
    ].join("\n"),
  );
  const briefLines = failures.map((f) => `DIFFERENCE ${f.c.id}: ${f.where}`);
  const notes = [];
  for (const a of allowed) notes.push(`allowed known difference: ${a.c.id} (${a.entry.reason}; see ${a.entry.doc ?? "docs/compat.md"})`);
  for (const u of undocumented) notes.push(`NOTE: known-differences.json entry ${u.key} is not mentioned in ${o.compat}; not allowed`);
  for (const h of harnessProblems) notes.push(`HARNESS: ${h}`);
  fs.writeFileSync(path.join(o.out, "report.txt"), [...blocks, "", ...briefLines, ...notes].join("\n") + "\n");
  // Console: full blocks for the first --max-full differences, one line for the rest.
  const shown = o.brief ? 0 : Math.min(o.maxFull, blocks.length);
  const consoleLines = [...blocks.slice(0, shown)];
  if (shown < failures.length)
    consoleLines.push(`\n${failures.length - shown} difference(s)${shown ? " more" : ""}, one line each (full details in ${path.join(o.out, "report.txt")}):`, ...briefLines.slice(shown));
  consoleLines.push(...notes);
  if (consoleLines.length) console.log(consoleLines.join("\n"));

  const byArea = {};
  for (const c of cases) {
    const a = c.id.split("/")[0];
    byArea[a] ??= { total: 0, failed: 0, allowed: 0 };
    byArea[a].total++;
  }
  for (const f of failures) byArea[f.c.id.split("/")[0]].failed++;
  for (const f of allowed) byArea[f.c.id.split("/")[0]].allowed++;
  console.log(`\nper area (agree/total): ${Object.entries(byArea).map(([a, v]) => `${a} ${v.total - v.failed - v.allowed}/${v.total}${v.allowed ? ` (+${v.allowed} allowed)` : ""}`).join(", ")}`);
  if (indexNote) console.log(indexNote);
  console.log(`left: ${o.left}\nright: ${o.right}\nresults: ${o.out}\ntime: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (!o.keep) fs.rmSync(base, { recursive: true, force: true });
  else console.log(`kept temp dir: ${base}`);
  console.log(`conformance: ${agree}/${cases.length} agree, ${allowed.length} allowed known difference(s), ${failures.length} failing`);
  return failures.length || harnessProblems.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e?.stack ?? e);
    console.log("conformance: 0/0 (harness error)");
    process.exit(2);
  },
);
