#!/usr/bin/env node
// stage-npm.mjs - lays out and packs fscache's npm packages, napi-rs style:
// one main package (JS entry points and types, no binaries) whose
// optionalDependencies name one package per platform, and the platform
// packages built here (the addon as fscache.<triple>.node, and the library it
// loads, each with os/cpu/libc fields so npm installs only the one that fits).
//
//   node build/stage-npm.mjs --version V --out DIR \
//        [--platform TRIPLE=ADDON=LIB[=NAME]]... [--overlay] [--pi] [--omp]
//
// The main package's files are bindings/node/package.json's "files" (the one
// list of what the package holds), less the binaries and the addon's C source.
// Writes DIR/fscache-native-V.tgz and DIR/fscache-native-TRIPLE-V.tgz; prints their paths.
//
// --overlay also packs bindings/pi-natives-overlay/ as DIR/fscache-pi-natives-V.tgz: the
// package to install under the name @oh-my-pi/pi-natives (it re-exports the
// real pi-natives, a dependency through an npm alias, and serves fscache's
// functions); its dependency on fscache-native is pinned to V. And the same
// package named @oh-my-pi/pi-natives in its package.json, as
// DIR/pi-natives-overlay-V.tgz: what a project's `overrides` points that name
// at before the package is on the registry. Bun 1.3.14 cannot install an
// override to a tarball whose package.json names another package ("failed to
// resolve"; oven-sh/bun#33192), npm and Bun 1.4.5 can; with the names equal
// all three do.
//
// --pi also packs bindings/pi-fscache/ (the pi package: pi's read on the read
// cache, find/grep/ls on fscache) as DIR/pi-fscache-V.tgz: its package.json's
// "files" (directories copied whole), version V, its dependency on
// fscache-native pinned to V, no devDependencies.
//
// --omp also packs bindings/omp-fscache/ (the oh-my-pi package: omp's read on
// the read cache) as DIR/omp-fscache-V.tgz, with fscache-native inside: its
// node_modules holds fscache-native and every platform package packed here,
// unpacked from their tarballs (as an install of them leaves them), listed in
// bundleDependencies, and its package.json has no dependencies. That is what
// lets `omp plugin install omp-fscache@file:<tgz>` (omp 18.2.3 runs `bun
// install` in ~/.omp/plugins) install it without the registry: Bun 1.3.14
// resolves a dependency from the registry even when it is bundled (with
// bundleDependencies or bundledDependencies, a list or true), and extracts
// the tarball whole, node_modules included. npm pack leaves out a bundled
// package that no dependency names, so this tarball is written with tar.

import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const TOP = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const NODE_DIR = path.join(TOP, "bindings", "node");

/** Every platform pi-natives ships for, with npm's os/cpu/libc values. */
export const PLATFORMS = {
  "linux-x64-gnu": { os: ["linux"], cpu: ["x64"], libc: ["glibc"] },
  "linux-arm64-gnu": { os: ["linux"], cpu: ["arm64"], libc: ["glibc"] },
  "linux-x64-musl": { os: ["linux"], cpu: ["x64"], libc: ["musl"] },
  "linux-arm64-musl": { os: ["linux"], cpu: ["arm64"], libc: ["musl"] },
  "darwin-x64": { os: ["darwin"], cpu: ["x64"] },
  "darwin-arm64": { os: ["darwin"], cpu: ["arm64"] },
  "win32-x64-msvc": { os: ["win32"], cpu: ["x64"] },
  "win32-arm64-msvc": { os: ["win32"], cpu: ["arm64"] },
};

function parseArgs(argv) {
  const o = { platforms: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--version") o.version = argv[++i];
    else if (a === "--out") o.out = path.resolve(argv[++i]);
    else if (a === "--platform") {
      const [triple, addon, lib, name] = argv[++i].split("=");
      if (!PLATFORMS[triple]) throw new Error(`unknown platform ${triple}; known: ${Object.keys(PLATFORMS).join(", ")}`);
      if (!addon || !lib) throw new Error(`--platform wants TRIPLE=ADDON=LIB[=NAME], got ${argv[i]}`);
      o.platforms.push({ triple, addon: path.resolve(addon), lib: path.resolve(lib), name: name || path.basename(lib) });
    } else if (a === "--overlay") o.overlay = true;
    else if (a === "--pi") o.pi = true;
    else if (a === "--omp") o.omp = true;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!/^\d+\.\d+\.\d+/.test(o.version || "")) throw new Error(`--version wants a semver, got ${o.version}`);
  if (!o.out) throw new Error("--out is required");
  return o;
}

function pack(dir, out) {
  const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", out], { cwd: dir, encoding: "utf8" }).trim().split("\n").pop();
  return path.join(out, name);
}

function writeJSON(file, value) {
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
}

// index.d.cts (the types of the require entry) is not in git, in either
// package: it is staged as a copy of index.d.ts.
const source = (f) => (f === "index.d.cts" ? "index.d.ts" : f);

function stageMain(o, stage) {
  const src = JSON.parse(fs.readFileSync(path.join(NODE_DIR, "package.json"), "utf8"));
  const dir = path.join(stage, src.name);
  fs.mkdirSync(dir, { recursive: true });
  const files = src.files.filter((f) => !/\.(node|so|dylib|dll|c)$/.test(f));
  for (const f of files) fs.copyFileSync(path.join(NODE_DIR, source(f)), path.join(dir, f));
  fs.copyFileSync(path.join(TOP, "LICENSE"), path.join(dir, "LICENSE"));
  const { devDependencies, scripts, ...rest } = src;
  const optionalDependencies = Object.fromEntries(Object.keys(PLATFORMS).map((t) => [`${src.name}-${t}`, o.version]));
  writeJSON(path.join(dir, "package.json"), { ...rest, version: o.version, files: [...files, "LICENSE"], optionalDependencies });
  return pack(dir, o.out);
}

function stagePlatform(o, stage, p) {
  const name = `fscache-native-${p.triple}`;
  const dir = path.join(stage, name);
  fs.mkdirSync(dir, { recursive: true });
  const addon = `fscache.${p.triple}.node`;
  fs.copyFileSync(p.addon, path.join(dir, addon));
  fs.copyFileSync(p.lib, path.join(dir, p.name)); // follows a link: the file itself
  fs.copyFileSync(path.join(TOP, "LICENSE"), path.join(dir, "LICENSE"));
  fs.writeFileSync(
    path.join(dir, "README.md"),
    `# ${name}\n\nThe ${p.triple} binaries of [fscache-native](https://www.npmjs.com/package/fscache-native): the Node-API addon and \`${p.name}\`.\nInstall \`fscache-native\`, not this package: npm picks this one for you.\n`,
  );
  writeJSON(path.join(dir, "package.json"), {
    name,
    version: o.version,
    description: `fscache's native addon and library for ${p.triple}`,
    license: "MIT",
    main: addon,
    files: [addon, p.name, "LICENSE", "README.md"],
    ...PLATFORMS[p.triple],
    engines: { node: ">=18" },
  });
  return pack(dir, o.out);
}

const OVERLAY_DIR = path.join(TOP, "bindings", "pi-natives-overlay");

function stageOverlay(o, stage) {
  const src = JSON.parse(fs.readFileSync(path.join(OVERLAY_DIR, "package.json"), "utf8"));
  const dir = path.join(stage, src.name);
  fs.mkdirSync(dir, { recursive: true });
  for (const f of src.files) fs.copyFileSync(path.join(OVERLAY_DIR, source(f)), path.join(dir, f));
  fs.copyFileSync(path.join(TOP, "LICENSE"), path.join(dir, "LICENSE"));
  const dependencies = { ...src.dependencies, "fscache-native": o.version };
  const pkg = { ...src, version: o.version, files: [...src.files, "LICENSE"], dependencies };
  writeJSON(path.join(dir, "package.json"), pkg);
  const packed = pack(dir, o.out);
  // The same files under the name the package is installed as (npm packs it
  // as oh-my-pi-pi-natives-V.tgz, which reads as the real package: renamed).
  const named = path.join(stage, "pi-natives-overlay");
  fs.cpSync(dir, named, { recursive: true });
  writeJSON(path.join(named, "package.json"), { ...pkg, name: "@oh-my-pi/pi-natives" });
  const out = path.join(o.out, `pi-natives-overlay-${o.version}.tgz`);
  fs.renameSync(pack(named, o.out), out);
  return [packed, out];
}

const PI_DIR = path.join(TOP, "bindings", "pi-fscache");

/** Copies the "files" of the package src (its package.json) in from (directories whole, less node_modules) and LICENSE into dir. */
function copyFiles(from, src, dir) {
  for (const f of src.files) {
    const p = path.join(from, f);
    if (!fs.existsSync(p)) throw new Error(`${src.name}: "files" names ${f}, which does not exist in ${from}`);
    fs.cpSync(p, path.join(dir, f), { recursive: true, filter: (q) => !q.split(path.sep).includes("node_modules") });
  }
  fs.copyFileSync(path.join(TOP, "LICENSE"), path.join(dir, "LICENSE"));
}

function stagePi(o, stage) {
  const src = JSON.parse(fs.readFileSync(path.join(PI_DIR, "package.json"), "utf8"));
  const dir = path.join(stage, src.name);
  fs.mkdirSync(dir, { recursive: true });
  copyFiles(PI_DIR, src, dir);
  const { devDependencies, scripts, ...rest } = src;
  const dependencies = { ...src.dependencies, "fscache-native": o.version };
  writeJSON(path.join(dir, "package.json"), { ...rest, version: o.version, files: [...src.files, "LICENSE"], dependencies });
  return pack(dir, o.out);
}

const OMP_DIR = path.join(TOP, "bindings", "omp-fscache");

/** Unpacks an npm tarball (its package/ directory) into dir. */
function unpack(tgz, dir) {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync("tar", ["-xzf", tgz, "-C", dir, "--strip-components=1", "package"]);
}

// mainTgz: fscache-native's tarball; platformTgzs: its platform packages'.
function stageOmp(o, stage, mainTgz, platformTgzs) {
  const src = JSON.parse(fs.readFileSync(path.join(OMP_DIR, "package.json"), "utf8"));
  const root = path.join(stage, src.name);
  const dir = path.join(root, "package");
  fs.mkdirSync(dir, { recursive: true });
  copyFiles(OMP_DIR, src, dir);
  const { devDependencies, scripts, dependencies, ...rest } = src;
  const deps = Object.keys(dependencies ?? {});
  if (deps.join() !== "fscache-native") throw new Error(`${src.name}: dependencies ${deps.join(", ")}: only fscache-native can be bundled`);
  const bundled = [];
  for (const tgz of [mainTgz, ...platformTgzs]) {
    const name = JSON.parse(execFileSync("tar", ["-xzOf", tgz, "package/package.json"], { encoding: "utf8" })).name;
    unpack(tgz, path.join(dir, "node_modules", name));
    bundled.push(name);
  }
  writeJSON(path.join(dir, "package.json"), { ...rest, version: o.version, files: [...src.files, "LICENSE"], bundleDependencies: bundled });
  const out = path.join(o.out, `${src.name}-${o.version}.tgz`);
  // npm pack's layout (package/...), in a stable order with no owner.
  execFileSync("tar", ["--sort=name", "--owner=0", "--group=0", "--numeric-owner", "--mtime=1985-10-26 08:15:00Z", "-czf", out, "-C", root, "package"]);
  return out;
}

const o = parseArgs(process.argv.slice(2));
const stage = path.join(o.out, "npm");
fs.rmSync(stage, { recursive: true, force: true });
fs.mkdirSync(stage, { recursive: true });
const mainTgz = stageMain(o, stage);
const platformTgzs = o.platforms.map((p) => stagePlatform(o, stage, p));
const made = [mainTgz, ...platformTgzs];
if (o.overlay) made.push(...stageOverlay(o, stage));
if (o.pi) made.push(stagePi(o, stage));
if (o.omp) made.push(stageOmp(o, stage, mainTgz, platformTgzs));
for (const f of made) console.log(path.relative(process.cwd(), f));
