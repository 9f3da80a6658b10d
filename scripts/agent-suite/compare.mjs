#!/usr/bin/env node
// compare.mjs RESULTS: compares the two sides of an agent-suite run.
//
// RESULTS/<side>/<test file>.xml is bun's JUnit report of one test file and
// RESULTS/<side>/<test file>.status its outcome ("rc=N" or "timeout"), for
// the sides "real" (the published pi-natives) and "overlay" (fscache's
// overlay over it). Prints, per test file, each side's pass/fail/skip counts
// (or "timeout"/"no report"), then every test whose outcome differs between
// the sides, then totals. Exits 0; the differences are the result.
import fs from "node:fs";
import path from "node:path";

const results = path.resolve(process.argv[2] || ".");
const SIDES = ["real", "overlay"];

const unescape = (s) =>
  s.replace(/&#10;/g, "\n").replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
const attr = (tag, name) => {
  const m = tag.match(new RegExp(`\\s${name}="([^"]*)"`));
  return m ? unescape(m[1]) : undefined;
};

/** JUnit XML -> Map(full test name -> {status, message}) */
function parse(xml) {
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

function load(side, file) {
  const base = path.join(results, side, file);
  const status = fs.existsSync(base + ".status") ? fs.readFileSync(base + ".status", "utf8").trim() : "not run";
  const xml = fs.existsSync(base + ".xml") ? fs.readFileSync(base + ".xml", "utf8") : null;
  return { status, tests: xml ? parse(xml) : null };
}

function counts(r) {
  if (r.status === "timeout") return "timeout";
  if (!r.tests) return `no report (${r.status})`;
  const c = { pass: 0, fail: 0, skip: 0, todo: 0 };
  for (const t of r.tests.values()) c[t.status]++;
  let s = `${c.pass} pass ${c.fail} fail`;
  if (c.skip + c.todo) s += ` ${c.skip + c.todo} skip`;
  if (r.status !== "rc=0" && c.fail === 0) s += ` (${r.status})`;
  return s;
}

const files = new Set();
for (const side of SIDES) {
  const dir = path.join(results, side);
  if (!fs.existsSync(dir)) continue;
  (function walk(d) {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".status")) files.add(path.relative(dir, p).slice(0, -".status".length));
    }
  })(dir);
}

const sorted = [...files].sort();
const width = Math.max(10, ...sorted.map((f) => f.length));
console.log(`${"test file".padEnd(width)}  ${"real".padEnd(28)}  overlay`);
const diffs = [];
const total = { real: { pass: 0, fail: 0, skip: 0, files: 0, timeouts: 0 }, overlay: { pass: 0, fail: 0, skip: 0, files: 0, timeouts: 0 } };
for (const file of sorted) {
  const r = Object.fromEntries(SIDES.map((s) => [s, load(s, file)]));
  const cr = counts(r.real);
  const co = counts(r.overlay);
  console.log(`${file.padEnd(width)}  ${cr.padEnd(28)}  ${co}${cr === co ? "" : "   <-- differs"}`);
  for (const s of SIDES) {
    total[s].files++;
    if (r[s].status === "timeout") total[s].timeouts++;
    for (const t of r[s].tests?.values() ?? []) {
      if (t.status === "pass") total[s].pass++;
      else if (t.status === "fail") total[s].fail++;
      else total[s].skip++;
    }
  }
  if (!r.real.tests || !r.overlay.tests) {
    if (cr !== co) diffs.push(`${file}: whole file: real ${cr}, overlay ${co}`);
    continue;
  }
  const names = new Set([...r.real.tests.keys(), ...r.overlay.tests.keys()]);
  for (const name of names) {
    const a = r.real.tests.get(name);
    const b = r.overlay.tests.get(name);
    const sa = a ? a.status : "absent";
    const sb = b ? b.status : "absent";
    if (sa === sb) continue;
    const msg = (sb === "fail" ? b.message : sa === "fail" ? a.message : "").slice(0, 300);
    diffs.push(`${file}: ${name}: real ${sa}, overlay ${sb}${msg ? `\n      ${msg}` : ""}`);
  }
}
console.log("");
console.log(`differences: ${diffs.length}`);
for (const d of diffs) console.log(`  ${d}`);
console.log("");
for (const s of SIDES) {
  const t = total[s];
  console.log(`${s}: ${t.files} files, ${t.pass} passed, ${t.fail} failed, ${t.skip} skipped, ${t.timeouts} timed out`);
}
