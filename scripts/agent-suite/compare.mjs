#!/usr/bin/env node
// compare.mjs RESULTS [TESTS]: compares the two sides of an agent-suite run.
//
// RESULTS/<side>/<test file>.xml is bun's JUnit report of one test file,
// RESULTS/<side>/<test file>.status its outcome ("rc=N" or "timeout") and
// RESULTS/<side>/<test file>.log its output, for the sides "real" (the
// published pi-natives) and "overlay" (fscache's overlay over it). TESTS is
// the list of the selected test files, one path per line (what follows a
// tab is ignored: select.mjs --why); without it, the files are those with a
// result on either side.
//
// Every selected file counts on each side. A file failure is a file that
// was not run, timed out, wrote no report (bun writes none when the file
// fails to load or the process dies), wrote a report without tests, or
// exited non-zero with no failing test in its report (an error outside the
// tests): it counts as a failure of its side, and a file failure on one side
// only is a difference. Prints, per test file, each side's pass/fail/skip
// counts or its file failure, then every difference (whole files, then
// tests whose outcome differs), then the file failures of each side, then
// each side's totals.
//
// Exit status: 0 when both sides ran every file and every test's outcome is
// the same ("differences: 0"); 1 when there are differences (a test whose
// outcome differs, or a file failure on one side only, such as a file that
// fails to load with the overlay only); 3 when there are none but some files
// are file failures on both sides, so they were not compared; 2 on a usage
// error or when there is no test file to compare.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const SIDES = ["real", "overlay"];

const unescape = (s) =>
  s
    .replace(/&#10;/g, "\n")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
const attr = (tag, name) => {
  const m = tag.match(new RegExp(`\\s${name}="([^"]*)"`));
  return m ? unescape(m[1]) : undefined;
};

/** JUnit XML -> Map(full test name -> {status, message}), status pass|fail|skip|todo;
 *  null when the XML is not a complete report. */
export function parse(xml) {
  if (!/<testsuites\b/.test(xml) || !/<\/testsuites>\s*$/.test(xml)) return null;
  const tests = new Map();
  const stack = [];
  const re = /<testsuite\b[^>]*?(\/?)>|<\/testsuite>|<testcase\b[^>]*?\/>|<testcase\b[^>]*>([\s\S]*?)<\/testcase>/g;
  for (const m of xml.matchAll(re)) {
    const tag = m[0];
    if (tag.startsWith("</testsuite")) stack.pop();
    else if (tag.startsWith("<testsuite")) {
      if (!m[1]) stack.push(attr(tag, "name"));
    } else {
      const open = tag.slice(0, tag.indexOf(">") + 1);
      const body = m[2] || "";
      const name = [...stack.slice(1), attr(open, "name")].join(" > ");
      let status = "pass";
      let message = "";
      const f = body.match(/<(failure|error)\b[^>]*>/);
      if (f) {
        status = "fail";
        message = (attr(f[0], "message") || "").split("\n").find((l) => l.trim()) || "";
      } else if (/<skipped\b/.test(body)) status = /message="TODO"/.test(body) ? "todo" : "skip";
      let key = name;
      for (let i = 2; tests.has(key); i++) key = `${name} #${i}`;
      tests.set(key, { status, message });
    }
  }
  return tests;
}

const read = (p) => (fs.existsSync(p) ? fs.readFileSync(p, "utf8") : null);

/** The first error line of a test file's log, for a file failure. */
function firstError(log) {
  if (!log) return "";
  const line = log.split("\n").find((l) => /^\s*(error|TypeError|SyntaxError|ReferenceError|panic)\b.*:/.test(l));
  return line ? line.trim().slice(0, 200) : "";
}

/**
 * One side's result for one test file: {status, tests, kind, failure, error}.
 * tests: Map from parse() or null; kind and failure: null when the file ran
 * to a result, else the kind of file failure ("not run", "timed out", "no
 * report", "unreadable report", "no tests", "error outside the tests") and
 * its description; error: the first error line of the file's log.
 */
export function load(results, side, file) {
  const base = path.join(results, side, file);
  const status = read(base + ".status")?.trim() || "not run";
  const xml = read(base + ".xml");
  const tests = xml === null ? null : parse(xml);
  let kind = null;
  let failure = null;
  if (status === "not run") [kind, failure] = ["not run", "not run"];
  else if (status === "timeout") [kind, failure] = ["timed out", "timeout"];
  else if (xml === null) [kind, failure] = ["no report", `no report (${status})`];
  else if (tests === null) [kind, failure] = ["unreadable report", `unreadable report (${status})`];
  else if (tests.size === 0) [kind, failure] = ["no tests", `no tests in its report (${status})`];
  else if (status !== "rc=0" && ![...tests.values()].some((t) => t.status === "fail"))
    [kind, failure] = ["error outside the tests", `${status} with no failing test (an error outside the tests)`];
  const error = failure && kind !== "not run" ? firstError(read(base + ".log")) : "";
  return { status, tests, kind, failure, error };
}

/** The per-file summary shown in the table. */
export function describe(r) {
  if (r.failure && !r.tests?.size) return r.failure;
  const c = { pass: 0, fail: 0, skip: 0, todo: 0 };
  for (const t of r.tests.values()) c[t.status]++;
  let s = `${c.pass} pass ${c.fail} fail`;
  if (c.skip + c.todo) s += ` ${c.skip + c.todo} skip`;
  if (r.failure) s += ` (${r.status}, no failing test)`;
  else if (r.status !== "rc=0" && c.fail === 0) s += ` (${r.status})`;
  return s;
}

/** The test files under RESULTS/<side>/, for every side. */
export function discover(results) {
  const files = new Set();
  for (const side of SIDES) {
    const dir = path.join(results, side);
    if (!fs.existsSync(dir)) continue;
    (function walk(d) {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else {
          const m = path.relative(dir, p).match(/^(.*)\.(status|xml|log)$/);
          if (m) files.add(m[1].split(path.sep).join("/"));
        }
      }
    })(dir);
  }
  return [...files].sort();
}

/** A list of test files: one path per line, what follows a tab ignored. */
export function readList(listFile) {
  const files = new Set();
  for (const line of fs.readFileSync(listFile, "utf8").split("\n")) {
    const f = line.split("\t")[0].trim();
    if (f) files.add(f);
  }
  return [...files];
}

/**
 * Compares the sides for the given files (default: every file with a
 * result). Returns {rows, diffs, failures, both, totals, ignored, exitCode}:
 * rows per file; diffs the differences (whole files, then tests); failures
 * per side the file failures; both the files that are file failures on both
 * sides; totals per side.
 */
export function compare(results, files) {
  const found = discover(results);
  const selected = files ? [...new Set(files)] : found;
  const set = new Set(selected);
  const ignored = found.filter((f) => !set.has(f));
  const rows = [];
  const fileDiffs = [];
  const testDiffs = [];
  const failures = Object.fromEntries(SIDES.map((s) => [s, []]));
  const both = [];
  const totals = Object.fromEntries(SIDES.map((s) => [s, { files: 0, pass: 0, fail: 0, skip: 0, fileFailures: 0, byKind: {} }]));
  for (const file of selected) {
    const r = Object.fromEntries(SIDES.map((s) => [s, load(results, s, file)]));
    let differs = false;
    for (const s of SIDES) {
      const t = totals[s];
      t.files++;
      for (const x of r[s].tests?.values() ?? []) {
        if (x.status === "pass") t.pass++;
        else if (x.status === "fail") t.fail++;
        else t.skip++;
      }
      if (r[s].failure) {
        t.fileFailures++;
        t.byKind[r[s].kind] = (t.byKind[r[s].kind] || 0) + 1;
        failures[s].push({ file, failure: r[s].failure, error: r[s].error });
      }
    }
    const failed = SIDES.filter((s) => r[s].failure);
    if (failed.length === 1) {
      differs = true;
      fileDiffs.push(`${file}: whole file: ${SIDES.map((s) => `${s} ${r[s].failure ? `file failure: ${r[s].failure}` : describe(r[s])}`).join(", ")}`);
    } else if (failed.length === SIDES.length) both.push(file);
    if (r.real.tests?.size && r.overlay.tests?.size) {
      const names = new Set([...r.real.tests.keys(), ...r.overlay.tests.keys()]);
      for (const name of names) {
        const a = r.real.tests.get(name);
        const b = r.overlay.tests.get(name);
        const sa = a ? a.status : "absent";
        const sb = b ? b.status : "absent";
        if (sa === sb) continue;
        differs = true;
        const msg = (sb === "fail" ? b.message : sa === "fail" ? a.message : "").slice(0, 300);
        testDiffs.push(`${file}: ${name}: real ${sa}, overlay ${sb}${msg ? `\n      ${msg}` : ""}`);
      }
    }
    rows.push({ file, real: describe(r.real), overlay: describe(r.overlay), differs, bothFailed: failed.length === SIDES.length });
  }
  const diffs = [...fileDiffs, ...testDiffs];
  const exitCode = selected.length === 0 ? 2 : diffs.length ? 1 : both.length ? 3 : 0;
  return { rows, diffs, fileDiffs: fileDiffs.length, testDiffs: testDiffs.length, failures, both, totals, ignored, exitCode };
}

const plural = (n, one, many = one + "s") => `${n} ${n === 1 ? one : many}`;

/** The report compare() describes, as text. */
export function format(c) {
  const out = [];
  const width = Math.max(10, ...c.rows.map((r) => r.file.length));
  out.push(`${"test file".padEnd(width)}  ${"real".padEnd(28)}  overlay`);
  for (const r of c.rows) {
    const mark = r.differs ? "   <-- differs" : r.bothFailed ? "   <-- file failure on both sides" : "";
    out.push(`${r.file.padEnd(width)}  ${r.real.padEnd(28)}  ${r.overlay}${mark}`);
  }
  out.push("");
  const n = c.rows.length;
  if (c.diffs.length === 0 && c.both.length === 0) out.push("differences: 0");
  else {
    let line = c.diffs.length
      ? `differences: ${c.diffs.length} (${plural(c.fileDiffs, "whole file")}, ${plural(c.testDiffs, "test")})`
      : "differences: none found, but the comparison is incomplete";
    if (c.both.length) line += `; ${c.both.length} of ${n} test files are file failures on both sides, not compared`;
    out.push(line);
  }
  for (const d of c.diffs) out.push(`  ${d}`);
  for (const s of SIDES) {
    if (!c.failures[s].length) continue;
    out.push("");
    out.push(`file failures, ${s}: ${c.failures[s].length} (each counts as a failure of this side)`);
    for (const f of c.failures[s]) out.push(`  ${f.file}: ${f.failure}${f.error ? `\n      ${f.error}` : ""}`);
  }
  if (c.ignored.length) {
    out.push("");
    out.push(`ignored: results of ${plural(c.ignored.length, "file")} not in the list of tests: ${c.ignored.join(", ")}`);
  }
  out.push("");
  for (const s of SIDES) {
    const t = c.totals[s];
    const kinds = Object.entries(t.byKind).map(([k, v]) => `${v} ${k}`).join(", ");
    out.push(
      `${(s + ":").padEnd(8)} ${plural(t.files, "test file")}, ${plural(t.fileFailures, "file failure")}${kinds ? ` (${kinds})` : ""};` +
        ` tests: ${t.pass} passed, ${t.fail} failed, ${t.skip} skipped`,
    );
  }
  return out.join("\n") + "\n";
}

/** The command line; returns the exit status. */
export function main(argv, stdout = process.stdout, stderr = process.stderr) {
  if (argv.length < 1 || argv.length > 2 || argv[0].startsWith("-")) {
    stderr.write("usage: compare.mjs RESULTS [TESTS]\n");
    return 2;
  }
  const results = path.resolve(argv[0]);
  if (!fs.existsSync(results)) {
    stderr.write(`compare.mjs: no directory ${results}\n`);
    return 2;
  }
  const c = compare(results, argv[1] ? readList(argv[1]) : undefined);
  if (c.rows.length === 0) {
    stderr.write(`compare.mjs: no test file to compare in ${results}${argv[1] ? ` (list ${argv[1]} is empty)` : ""}\n`);
    return 2;
  }
  stdout.write(format(c));
  return c.exitCode;
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
