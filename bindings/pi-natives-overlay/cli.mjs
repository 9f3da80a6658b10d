#!/usr/bin/env node
// fscache-pi-natives: put the overlay under an installed coding agent, or take it away.
//
//   fscache-pi-natives install   [--agent DIR] [--from DIST]
//   fscache-pi-natives uninstall [--agent DIR]
//   fscache-pi-natives status    [--agent DIR]
//
// For an agent installed as a command (`bun install -g`, `npm install -g`
// @oh-my-pi/pi-coding-agent), where no package.json of yours can override its
// dependencies. `install` finds the node_modules directory from which the agent
// loads @oh-my-pi/pi-natives, moves the real package to
// @oh-my-pi/pi-natives-real in that same directory (its platform addon package
// stays where it resolves it), puts this overlay in its place and fscache and
// its platform package beside it, and records what it did in the overlay's
// .fscache-overlay.json. `uninstall` puts everything back as it was.
//
// --agent DIR   the agent's package directory; default: the first of
//               $BUN_INSTALL/install/global (~/.bun/...) and `npm root -g`
//               that holds @oh-my-pi/pi-coding-agent
// --from DIST   take fscache from the tarballs of `make dist` in DIST
//               (fscache-native-V.tgz, fscache-native-<triple>-V.tgz); default: the fscache
//               installed beside this package (npm/bunx installed it with it)
//
// The agent's own `omp update` reinstalls pi-natives: run `install` again after it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SELF = JSON.parse(fs.readFileSync(path.join(HERE, "package.json"), "utf8"));
const AGENT = "@oh-my-pi/pi-coding-agent";
const NATIVES = "@oh-my-pi/pi-natives";
const REAL = "@oh-my-pi/pi-natives-real";
const MARK = ".fscache-overlay.json";

function usage(code) {
  const text = fs.readFileSync(fileURLToPath(import.meta.url), "utf8").split("\n");
  console.error(text.slice(1, text.findIndex((l) => l.startsWith("import"))).map((l) => l.replace(/^\/\/ ?/, "")).join("\n"));
  process.exit(code);
}

function parseArgs(argv) {
  const o = { cmd: argv[0] };
  for (let i = 1; i < argv.length; i++) {
    if (argv[i] === "--agent") o.agent = path.resolve(argv[++i]);
    else if (argv[i] === "--from") o.from = path.resolve(argv[++i]);
    else usage(2);
  }
  if (!["install", "uninstall", "status"].includes(o.cmd)) usage(2);
  return o;
}

const readJSON = (f) => JSON.parse(fs.readFileSync(f, "utf8"));

/** "a.b.c" against ">=x.y.z <u.v.w" (the form of this package's range). */
function inRange(version, range) {
  const parse = (v) => v.split(/[.-]/).slice(0, 3).map(Number);
  const cmp = (a, b) => a.reduce((r, x, i) => r || x - b[i], 0);
  const v = parse(version);
  return range.split(/\s+/).every((c) => {
    const m = c.match(/^(>=|<)(.+)$/);
    return !m || (m[1] === ">=" ? cmp(v, parse(m[2])) >= 0 : cmp(v, parse(m[2])) < 0);
  });
}

function findAgent(given) {
  if (given) {
    if (!fs.existsSync(path.join(given, "package.json")) || readJSON(path.join(given, "package.json")).name !== AGENT)
      throw new Error(`${given} is not the ${AGENT} package directory`);
    return given;
  }
  const roots = [path.join(process.env.BUN_INSTALL || path.join(os.homedir(), ".bun"), "install", "global", "node_modules")];
  try {
    roots.push(execFileSync("npm", ["root", "-g"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
  } catch {}
  for (const r of roots) if (fs.existsSync(path.join(r, AGENT, "package.json"))) return path.join(r, AGENT);
  throw new Error(`no globally installed ${AGENT} in ${roots.join(" or ")}; name its directory with --agent`);
}

/** The node_modules directory whose @oh-my-pi/pi-natives the agent loads (Node's lookup from the agent). */
function nativesHome(agentDir) {
  for (let d = agentDir; ; d = path.dirname(d)) {
    const nm = path.basename(d) === "node_modules" ? null : path.join(d, "node_modules");
    if (nm && fs.existsSync(path.join(nm, NATIVES, "package.json"))) return nm;
    if (path.dirname(d) === d) throw new Error(`${agentDir} resolves no ${NATIVES}`);
  }
}

function triple() {
  const { platform, arch } = process;
  if (platform === "linux") {
    const musl = !(process.report?.getReport?.().header?.glibcVersionRuntime);
    return `linux-${arch}-${musl ? "musl" : "gnu"}`;
  }
  return platform === "win32" ? `win32-${arch}-msvc` : `${platform}-${arch}`;
}

/** Unpacks an npm tarball (gzip'd ustar, everything under package/) into dest. */
function extractPackage(tgz, dest) {
  const tar = zlib.gunzipSync(fs.readFileSync(tgz));
  const str = (b, at, n) => b.toString("utf8", at, at + n).replace(/\0.*$/s, "");
  let longName = null;
  for (let at = 0; at + 512 <= tar.length; ) {
    const h = tar.subarray(at, at + 512);
    if (h.every((x) => x === 0)) break;
    const size = parseInt(str(h, 124, 12).trim() || "0", 8);
    const type = String.fromCharCode(h[156] || 48);
    const body = tar.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === "L") {
      longName = str(body, 0, body.length);
      continue;
    }
    const prefix = str(h, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${str(h, 0, 100)}` : str(h, 0, 100));
    longName = null;
    const rel = name.split("/").slice(1).join("/");
    if (!rel || rel.split("/").includes("..")) continue;
    const out = path.join(dest, rel);
    if (type === "5") fs.mkdirSync(out, { recursive: true });
    else if (type === "0" || type === "7") {
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, body, { mode: parseInt(str(h, 100, 8).trim() || "644", 8) & 0o777 });
    }
  }
}

/** Copies fscache and its platform package into nm; returns the names added. */
function placeFscache(nm, from) {
  const names = ["fscache-native", `fscache-native-${triple()}`];
  const added = [];
  for (const name of names) {
    const dest = path.join(nm, name);
    if (fs.existsSync(dest)) {
      const v = readJSON(path.join(dest, "package.json")).version;
      if (v !== SELF.dependencies["fscache-native"] && SELF.dependencies["fscache-native"] !== "0.0.0") throw new Error(`${dest} is fscache-native ${v}, this overlay wants ${SELF.dependencies["fscache-native"]}`);
      continue;
    }
    if (from) {
      const tgz = path.join(from, `${name}-${SELF.version}.tgz`);
      if (!fs.existsSync(tgz)) throw new Error(`no ${tgz}`);
      extractPackage(tgz, dest);
    } else {
      const req = createRequire(path.join(HERE, "package.json"));
      let src;
      try {
        src = path.dirname(req.resolve(`${name}/package.json`));
      } catch {
        throw new Error(`${name} is not installed beside this overlay: install it (npm install ${name}) or use --from DIST`);
      }
      fs.cpSync(src, dest, { recursive: true, dereference: true });
    }
    added.push(name);
  }
  return added;
}

function install(o) {
  const agent = findAgent(o.agent);
  const nm = nativesHome(agent);
  const here = path.join(nm, NATIVES);
  const real = path.join(nm, REAL);
  if (fs.existsSync(path.join(here, MARK))) {
    console.log(`already installed: ${here} is the overlay (${readJSON(path.join(here, MARK)).overlay}); uninstall first to change it`);
    return;
  }
  if (fs.existsSync(real)) throw new Error(`${real} exists already; remove it first`);
  const realPkg = readJSON(path.join(here, "package.json"));
  if (realPkg.name !== NATIVES) throw new Error(`${here} holds ${realPkg.name}, not ${NATIVES}`);
  const range = SELF.dependencies[REAL].replace(/^npm:@oh-my-pi\/pi-natives@/, "");
  const added = placeFscache(nm, o.from);
  fs.renameSync(here, real);
  fs.mkdirSync(here);
  for (const f of [...SELF.files, "LICENSE", "package.json"]) {
    if (fs.existsSync(path.join(HERE, f))) fs.copyFileSync(path.join(HERE, f), path.join(here, f));
  }
  const mark = { overlay: `${SELF.name}@${SELF.version}`, real: `${NATIVES}@${realPkg.version}`, range, added, agent };
  fs.writeFileSync(path.join(here, MARK), JSON.stringify(mark, null, 2) + "\n");
  console.log(`installed: ${here} is ${mark.overlay} over ${mark.real} (now ${real})${added.length ? `; added ${added.join(", ")}` : ""}`);
  console.log(`for ${AGENT} at ${agent}; undo with: fscache-pi-natives uninstall${o.agent ? ` --agent ${agent}` : ""}`);
  if (!inRange(realPkg.version, range)) console.warn(`warning: pi-natives ${realPkg.version} is outside ${range}, the versions this overlay is for`);
}

function uninstall(o) {
  const agent = findAgent(o.agent);
  const nm = nativesHome(agent);
  const here = path.join(nm, NATIVES);
  const real = path.join(nm, REAL);
  if (!fs.existsSync(path.join(here, MARK))) {
    console.log(`not installed: ${here} is not the overlay`);
    return;
  }
  const mark = readJSON(path.join(here, MARK));
  if (!fs.existsSync(path.join(real, "package.json"))) throw new Error(`${real} is gone: reinstall the agent to get pi-natives back`);
  fs.rmSync(here, { recursive: true, force: true });
  fs.renameSync(real, here);
  for (const name of mark.added) fs.rmSync(path.join(nm, name), { recursive: true, force: true });
  console.log(`uninstalled: ${here} is ${mark.real} again${mark.added.length ? `; removed ${mark.added.join(", ")}` : ""}`);
}

function status(o) {
  const agent = findAgent(o.agent);
  const here = path.join(nativesHome(agent), NATIVES);
  const marked = fs.existsSync(path.join(here, MARK));
  const pkg = readJSON(path.join(here, "package.json"));
  console.log(marked ? `overlay: ${here} is ${pkg.name}@${pkg.version} over ${readJSON(path.join(here, MARK)).real}` : `real: ${here} is ${pkg.name}@${pkg.version}`);
}

const o = parseArgs(process.argv.slice(2));
try {
  ({ install, uninstall, status })[o.cmd](o);
} catch (err) {
  console.error(`fscache-pi-natives: ${err.message}`);
  process.exit(1);
}
