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

it("on Linux, a process whose report names musl's loader and no glibc asks for the -musl package", () => {
  const dir = lonelyCopy();
  try {
    const env = { ...process.env };
    delete env.FSCACHE_NODE_ADDON;
    const report = { header: { osName: "Linux" }, sharedObjects: [`/lib/ld-musl-${process.arch === "x64" ? "x86_64" : "aarch64"}.so.1`] };
    const script =
      `Object.defineProperty(process, "report", { value: { getReport: () => (${JSON.stringify(report)}) }, configurable: true });` +
      `Object.defineProperty(process, "platform", { value: "linux" });` +
      `require(${JSON.stringify(path.join(dir, "pkg", "index.cjs"))});`;
    const r = spawnSync(process.execPath, ["-e", script], { env, encoding: "utf8", cwd: dir });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, new RegExp(`no native addon for linux-${process.arch}-musl`));
    assert.match(r.stderr, new RegExp(`package fscache-native-linux-${process.arch}-musl: not installed`));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

it("the loader leaves process.report's excludeNetwork as it found it", () => {
  if (!process.report || !("excludeNetwork" in process.report)) return; // a runtime without the setting: nothing to leave
  const script = `require(${JSON.stringify(indexCjs)}); console.log(String(process.report.excludeNetwork))`;
  const r = spawnSync(process.execPath, ["-e", script], { env: { ...process.env, FSCACHE_NODE_ADDON: addon }, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), "false");
});
