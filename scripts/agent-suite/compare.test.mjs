// compare.test.mjs: compare.mjs on synthetic results (node --test
// scripts/agent-suite/compare.test.mjs). The reports are shaped like bun
// 1.4.5's JUnit reports; a file that fails to load gets none (bun writes no
// report then), only its status and log, as run.sh leaves them.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { compare, format } from "./compare.mjs";

const script = fileURLToPath(new URL("./compare.mjs", import.meta.url));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agent-suite-compare-"));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A JUnit report of one file: tests as [[name, "pass"|"fail"|"skip"], ...]. */
function junit(file, tests) {
  const cases = tests.map(([name, status]) => {
    const open = `<testcase name="${name}" classname="d" time="0.001" file="${file}" line="1" assertions="1"`;
    if (status === "pass") return `      ${open} />`;
    const body = status === "fail" ? `<failure type="AssertionError" message="expected 1&#10;got 2">x</failure>` : "<skipped />";
    return `      ${open}>\n        ${body}\n      </testcase>`;
  });
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="bun test" tests="${tests.length}">`,
    `  <testsuite name="${file}" file="${file}" tests="${tests.length}">`,
    `    <testsuite name="d" file="${file}" line="1" tests="${tests.length}">`,
    ...cases,
    `    </testsuite>`,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}

/**
 * A results directory: spec is {side: {file: outcome}}, outcome either
 * {tests: [...]} (a report; rc=1 when a test fails) or {load: "message"} (no
 * report, rc=1, the message in the log) or {timeout: true}. A file absent
 * from a side was not run there. Returns the directory and the list file.
 */
let n = 0;
function results(spec, files = Object.keys(spec.real ?? spec.overlay)) {
  const dir = path.join(tmp, `r${++n}`);
  for (const [side, byFile] of Object.entries(spec)) {
    for (const [file, o] of Object.entries(byFile)) {
      const base = path.join(dir, side, file);
      fs.mkdirSync(path.dirname(base), { recursive: true });
      if (o.timeout) {
        fs.writeFileSync(base + ".status", "timeout\n");
        fs.writeFileSync(base + ".log", "bun test v1.4.5\n");
      } else if (o.load) {
        fs.writeFileSync(base + ".status", "rc=1\n");
        fs.writeFileSync(
          base + ".log",
          `bun test v1.4.5\n\n${file}:\n\n# Unhandled error between tests\n-------------------------------\nerror: ${o.load}\n-------------------------------\n\n 0 pass\n 1 fail\n 1 error\n`,
        );
      } else {
        const rc = o.tests.some(([, s]) => s === "fail") ? 1 : 0;
        fs.writeFileSync(base + ".status", `rc=${rc}\n`);
        fs.writeFileSync(base + ".xml", junit(file, o.tests));
        fs.writeFileSync(base + ".log", "bun test v1.4.5\n");
      }
    }
  }
  const list = path.join(dir, "tests.txt");
  fs.writeFileSync(list, files.map((f) => `${f}\tpackages/a/src/tools/find.ts`).join("\n") + "\n");
  return { dir, list };
}

/** The CLI on a results directory: {status, stdout}. */
function cli(...args) {
  const r = spawnSync(process.execPath, [script, ...args], { encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const A = "packages/a/test/a.test.ts";
const B = "packages/a/test/b.test.ts";
const C = "packages/tui/test/c.test.ts";
const ok = { tests: [["one", "pass"], ["two", "pass"], ["three", "skip"]] };

test("all equal: 0 differences, exit 0", () => {
  const { dir, list } = results({ real: { [A]: ok, [B]: ok }, overlay: { [A]: ok, [B]: ok } });
  const c = compare(dir, [A, B]);
  assert.equal(c.diffs.length, 0);
  assert.deepEqual(c.both, []);
  assert.equal(c.exitCode, 0);
  assert.deepEqual(c.totals.overlay, { files: 2, pass: 4, fail: 0, skip: 2, fileFailures: 0, byKind: {} });
  const r = cli(dir, list);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^differences: 0$/m);
  assert.match(r.stdout, /^overlay: 2 test files, 0 file failures; tests: 4 passed, 0 failed, 2 skipped$/m);
});

test("a test failing on both sides: counted on both, not a difference", () => {
  const failing = { tests: [["one", "pass"], ["two", "fail"]] };
  const { dir, list } = results({ real: { [A]: failing }, overlay: { [A]: failing } });
  const r = cli(dir, list);
  assert.equal(r.status, 0, r.stdout);
  assert.match(r.stdout, /^differences: 0$/m);
  assert.match(r.stdout, /^real:\s+1 test file, 0 file failures; tests: 1 passed, 1 failed, 0 skipped$/m);
});

test("no report on the overlay side: a file failure of the overlay and a difference, exit 1", () => {
  const { dir, list } = results({
    real: { [A]: ok, [B]: ok },
    overlay: { [A]: ok, [B]: { load: "Cannot find module './x' from 'b.test.ts'" } },
  });
  const c = compare(dir, [A, B]);
  assert.equal(c.diffs.length, 1);
  assert.match(c.diffs[0], /^packages\/a\/test\/b\.test\.ts: whole file: real 2 pass 0 fail 1 skip, overlay file failure: no report \(rc=1\)$/);
  assert.equal(c.totals.overlay.fileFailures, 1);
  assert.deepEqual(c.totals.overlay.byKind, { "no report": 1 });
  assert.equal(c.totals.real.fileFailures, 0);
  assert.equal(c.exitCode, 1);
  const r = cli(dir, list);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /^differences: 1 \(1 whole file, 0 tests\)$/m);
  assert.match(r.stdout, /^file failures, overlay: 1 /m);
  assert.match(r.stdout, /^ {6}error: Cannot find module '\.\/x'/m);
  assert.match(r.stdout, /^overlay: 2 test files, 1 file failure \(1 no report\); tests: 2 passed, 0 failed, 1 skipped$/m);
  assert.doesNotMatch(r.stdout, /differences: 0/);
});

test("a file failing to load on both sides: counted on both, not a difference, no 'differences: 0', exit 3", () => {
  const load = { load: "Cannot find module './models.json'" };
  const { dir, list } = results({ real: { [A]: ok, [B]: load, [C]: load }, overlay: { [A]: ok, [B]: load, [C]: { timeout: true } } });
  const c = compare(dir, [A, B, C]);
  assert.equal(c.diffs.length, 0);
  assert.deepEqual(c.both, [B, C]);
  assert.equal(c.totals.real.fileFailures, 2);
  assert.equal(c.totals.overlay.fileFailures, 2);
  assert.deepEqual(c.totals.overlay.byKind, { "no report": 1, "timed out": 1 });
  assert.equal(c.exitCode, 3);
  const r = cli(dir, list);
  assert.equal(r.status, 3);
  assert.doesNotMatch(r.stdout, /differences: 0/);
  assert.match(r.stdout, /^differences: none found, but the comparison is incomplete; 2 of 3 test files are file failures on both sides, not compared$/m);
  assert.match(r.stdout, /^real:\s+3 test files, 2 file failures \(2 no report\);/m);
  assert.match(r.stdout, /^overlay: 3 test files, 2 file failures \(1 no report, 1 timed out\);/m);
});

test("a per-test difference: listed with the failure message, exit 1", () => {
  const { dir, list } = results({
    real: { [A]: ok, [B]: ok },
    overlay: { [A]: ok, [B]: { tests: [["one", "pass"], ["two", "fail"], ["three", "skip"]] } },
  });
  const c = compare(dir, [A, B]);
  assert.deepEqual(c.diffs, [`${B}: d > two: real pass, overlay fail\n      expected 1`]);
  assert.equal(c.totals.overlay.fileFailures, 0);
  assert.equal(c.exitCode, 1);
  const r = cli(dir, list);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /^differences: 1 \(0 whole files, 1 test\)$/m);
  assert.match(r.stdout, /b\.test\.ts +2 pass 0 fail 1 skip +1 pass 1 fail 1 skip   <-- differs$/m);
});

test("a listed file never run on a side counts there; results not in the list are ignored", () => {
  const { dir, list } = results({ real: { [A]: ok, [B]: ok }, overlay: { [A]: ok } }, [A, B]);
  // A stale result of a file no longer selected.
  fs.mkdirSync(path.join(dir, "real", "packages/old/test"), { recursive: true });
  fs.writeFileSync(path.join(dir, "real", "packages/old/test/old.test.ts.status"), "rc=1\n");
  const c = compare(dir, [A, B]);
  assert.deepEqual(c.failures.overlay, [{ file: B, failure: "not run", error: "" }]);
  assert.deepEqual(c.ignored, ["packages/old/test/old.test.ts"]);
  assert.equal(c.exitCode, 1);
  assert.match(format(c), /^ignored: results of 1 file not in the list of tests: packages\/old\/test\/old\.test\.ts$/m);
  // Without the list, every file with a result on either side counts.
  assert.equal(compare(dir).rows.length, 3);
  assert.equal(cli(dir, list).status, 1);
});

test("an error outside the tests: a file failure, its tests still compared", () => {
  const { dir } = results({ real: { [A]: ok }, overlay: { [A]: ok } });
  fs.writeFileSync(path.join(dir, "overlay", A + ".status"), "rc=1\n");
  const c = compare(dir, [A]);
  assert.equal(c.totals.overlay.fileFailures, 1);
  assert.deepEqual(c.totals.overlay.byKind, { "error outside the tests": 1 });
  assert.equal(c.totals.overlay.pass, 2);
  assert.equal(c.fileDiffs, 1);
  assert.equal(c.testDiffs, 0);
  assert.equal(c.exitCode, 1);
});

test("usage errors and nothing to compare: exit 2", () => {
  assert.equal(cli().status, 2);
  assert.equal(cli(path.join(tmp, "nonexistent")).status, 2);
  const empty = path.join(tmp, "empty");
  fs.mkdirSync(path.join(empty, "real"), { recursive: true });
  assert.equal(cli(empty).status, 2);
});

test("runs through a symlink as a command", () => {
  const { dir, list } = results({ real: { [A]: ok }, overlay: { [A]: ok } });
  const link = path.join(tmp, "compare-link.mjs");
  fs.symlinkSync(script, link);
  const out = execFileSync(process.execPath, [link, dir, list], { encoding: "utf8" });
  assert.match(out, /^differences: 0$/m);
});
