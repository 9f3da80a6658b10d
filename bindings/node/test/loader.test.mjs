// The addon loader of index.cjs, run under both Node and Bun: it finds the
// platform package (fscache-<triple>) the way an installed copy does, and
// when nothing fits it says which triple it wanted, every place it looked
// and how to build from source.
//
//   FSCACHE_NODE_ADDON, FSCACHE_LIB   the built addon and library (make sets them)

import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const isBun = typeof globalThis.Bun !== "undefined";
const runner = isBun ? await import("bun:test") : await import("node:test");
const it = (name, fn) => (isBun ? runner.test(name, fn, 120_000) : runner.test(name, { timeout: 120_000 }, fn));

const here = path.dirname(fileURLToPath(import.meta.url));
const indexCjs = path.join(here, "..", "index.cjs");
const addon = path.resolve(process.env.FSCACHE_NODE_ADDON || path.join(here, "..", "..", "..", "build", "out", "fscache.node"));
const triple =
  process.platform === "linux"
    ? `linux-${process.arch}-gnu`
    : process.platform === "win32"
      ? `win32-${process.arch}-msvc`
      : `${process.platform}-${process.arch}`;

/** A fresh directory holding a copy of index.cjs and nothing else. */
function lonelyCopy() {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "fscache-loader-")));
  fs.mkdirSync(path.join(dir, "pkg"));
  fs.copyFileSync(indexCjs, path.join(dir, "pkg", "index.cjs"));
  return dir;
}

/** Runs fn(dir) with a lonelyCopy, removed after. */
function inLonelyCopy(fn) {
  const dir = lonelyCopy();
  try {
    fn(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Requires dir/pkg/index.cjs in a child process of this runtime, without FSCACHE_NODE_ADDON. */
function load(dir, code = "") {
  const env = { ...process.env };
  delete env.FSCACHE_NODE_ADDON;
  const script = `const m = require(${JSON.stringify(path.join(dir, "pkg", "index.cjs"))}); ${code}`;
  return spawnSync(process.execPath, ["-e", script], { env, encoding: "utf8", cwd: dir });
}

it("with no addon anywhere, the error names the triple, every place looked and how to build", () => {
  const dir = lonelyCopy();
  try {
    const r = load(dir);
    assert.notEqual(r.status, 0);
    const err = r.stderr;
    assert.match(err, new RegExp(`no native addon for ${triple}`));
    assert.match(err, new RegExp(`package fscache-native-${triple}: not installed`));
    assert.ok(err.includes(path.join(dir, "pkg", `fscache.${triple}.node`)), err);
    assert.ok(err.includes(path.join(dir, "pkg", "fscache.node")), err);
    assert.ok(err.includes(path.resolve(dir, "..", "build", "out", "fscache.node")), err);
    assert.match(err, /make build/);
    assert.match(err, /FSCACHE_NODE_ADDON/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

it("finds the platform package in node_modules, with the library beside the addon", () => {
  const dir = lonelyCopy();
  try {
    const pkgDir = path.join(dir, "node_modules", `fscache-native-${triple}`);
    fs.mkdirSync(pkgDir, { recursive: true });
    fs.writeFileSync(path.join(pkgDir, "package.json"), JSON.stringify({ name: `fscache-native-${triple}`, version: "0.0.0" }));
    fs.copyFileSync(addon, path.join(pkgDir, `fscache.${triple}.node`));
    const libDir = path.dirname(fs.realpathSync(addon));
    for (const name of fs.readdirSync(libDir).filter((n) => /^libfscache\.so(\.\d+)*$/.test(n)))
      fs.copyFileSync(path.join(libDir, name), path.join(pkgDir, name));
    const r = load(dir, "m.glob({ pattern: 'package.json', path: " + JSON.stringify(pkgDir) + " }).then((x) => console.log(x.totalMatches, m.version()))");
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout.trim(), /^1 \d+\.\d+\.\d+/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/*
 * index.cjs tells glibc from musl by the objects mapped into the process
 * (/proc/self/maps), then the process report. These tests fake both in the
 * child before it requires index.cjs; where both would be read they
 * disagree, so a test passes only if the right one was believed.
 */
const muslLoader = `/lib/ld-musl-${process.arch === "x64" ? "x86_64" : "aarch64"}.so.1`;
const gnuDir = `/usr/lib/${process.arch === "x64" ? "x86_64" : "aarch64"}-linux-gnu`;
const glibcLibc = `${gnuDir}/libc.so.6`;
const glibcLoader = `${gnuDir}/${process.arch === "x64" ? "ld-linux-x86-64.so.2" : "ld-linux-aarch64.so.1"}`;
const mapsLine = (file) => `7f0000000000-7f0000001000 r-xp 00000000 08:01 42 ${file}\n`;
const muslReport = { header: { osName: "Linux" }, sharedObjects: [muslLoader] };
const glibcReport = { header: { osName: "Linux", glibcVersionRuntime: "2.36" }, sharedObjects: [glibcLibc] };

/** Script text making this process's /proc/self/maps read as `maps`, or fail as without /proc (null). */
function fakeMaps(maps) {
  return (
    `const fs = require("node:fs"), readFileSync = fs.readFileSync;` +
    `fs.readFileSync = function (p, ...rest) {` +
    `  if (p !== "/proc/self/maps") return readFileSync.call(this, p, ...rest);` +
    (maps === null
      ? `  throw Object.assign(new Error("EACCES: permission denied, open '/proc/self/maps'"), { code: "EACCES" });`
      : `  return ${JSON.stringify(maps)};`) +
    `};`
  );
}

/** Script text: a Linux process with these maps (see fakeMaps) and process report requires dir/pkg/index.cjs. */
function fakedLibc(dir, maps, report) {
  return (
    fakeMaps(maps) +
    `Object.defineProperty(process, "report", { value: { getReport: () => (${JSON.stringify(report)}) }, configurable: true });` +
    `Object.defineProperty(process, "platform", { value: "linux" });` +
    `require(${JSON.stringify(path.join(dir, "pkg", "index.cjs"))});`
  );
}

/** The package name the loader's error asks for, in a child running `script` from dir without FSCACHE_NODE_ADDON. */
function wantedPackage(dir, script) {
  const env = { ...process.env };
  delete env.FSCACHE_NODE_ADDON;
  const r = spawnSync(process.execPath, ["-e", script], { env, encoding: "utf8", cwd: dir });
  assert.notEqual(r.status, 0, r.stdout);
  const m = r.stderr.match(/package (fscache-native-\S+): not installed/);
  assert.ok(m, r.stderr);
  assert.match(r.stderr, new RegExp(`no native addon for ${m[1].slice("fscache-native-".length)} `));
  return m[1];
}

it("on Linux, a process whose mapped objects name musl's loader and no glibc asks for the -musl package", () => {
  inLonelyCopy((dir) => {
    const maps = mapsLine("/usr/bin/node") + mapsLine(muslLoader) + "7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0 [stack]\n";
    assert.equal(wantedPackage(dir, fakedLibc(dir, maps, glibcReport)), `fscache-native-linux-${process.arch}-musl`);
  });
});

it("on Linux, a process whose mapped objects name glibc asks for the -gnu package", () => {
  inLonelyCopy((dir) => {
    const maps = mapsLine("/usr/bin/node") + mapsLine(glibcLibc) + mapsLine(glibcLoader);
    assert.equal(wantedPackage(dir, fakedLibc(dir, maps, muslReport)), `fscache-native-linux-${process.arch}-gnu`);
  });
});

it("on Linux, with /proc/self/maps unreadable or naming no libc, a report naming musl's loader and no glibc asks for the -musl package", () => {
  inLonelyCopy((dir) => {
    for (const maps of [null, mapsLine("/usr/local/bin/node-static")]) {
      assert.equal(wantedPackage(dir, fakedLibc(dir, maps, muslReport)), `fscache-native-linux-${process.arch}-musl`, `maps ${maps}`);
    }
  });
});

it("with FSCACHE_NODE_ADDON loading, the loader checks no libc", () => {
  const script =
    `const fs = require("node:fs"), readFileSync = fs.readFileSync; let looked = [];` +
    `fs.readFileSync = function (p, ...rest) { if (String(p).startsWith("/proc/") || p === "/usr/bin/ldd") looked.push(p); return readFileSync.call(this, p, ...rest); };` +
    `if (process.report) { const get = process.report.getReport; process.report.getReport = function (...a) { looked.push("report"); return get.apply(this, a); }; }` +
    `require(${JSON.stringify(indexCjs)}); console.log(JSON.stringify(looked));`;
  const r = spawnSync(process.execPath, ["-e", script], { env: { ...process.env, FSCACHE_NODE_ADDON: addon }, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), "[]");
});

it("the loader leaves process.report's excludeNetwork as it found it", () => {
  if (!process.report || !("excludeNetwork" in process.report)) return; // a runtime without the setting: nothing to leave
  // /proc/self/maps unreadable, so the libc check reaches the report; no
  // FSCACHE_NODE_ADDON and no addon, so the check is made.
  const dir = lonelyCopy();
  try {
    const env = { ...process.env };
    delete env.FSCACHE_NODE_ADDON;
    const script =
      fakeMaps(null) +
      `const during = [], get = process.report.getReport;` +
      `process.report.getReport = function (...a) { during.push(process.report.excludeNetwork); return get.apply(this, a); };` +
      `try { require(${JSON.stringify(path.join(dir, "pkg", "index.cjs"))}); } catch (err) { if (!/no native addon/.test(err.message)) throw err; }` +
      `console.log(JSON.stringify(during), String(process.report.excludeNetwork));`;
    const r = spawnSync(process.execPath, ["-e", script], { env, encoding: "utf8", cwd: dir });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), process.platform === "linux" ? "[true] false" : "[] false");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
