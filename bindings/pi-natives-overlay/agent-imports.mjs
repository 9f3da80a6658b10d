#!/usr/bin/env node
// agent-imports.mjs - which names the coding agent imports from @oh-my-pi/pi-natives.
//
//   node bindings/pi-natives-overlay/agent-imports.mjs [--version V] [--cache DIR] [--out FILE]
//
// Downloads @oh-my-pi/pi-coding-agent@V (default: the registry's `latest`) with
// `npm pack` into DIR (default $FSCACHE_CACHE or ~/.cache/fscache), reads it,
// and writes FILE (default agent-imports-V.json beside this script): the
// agent's version, the pi-natives version it depends on, and per module specifier ("@oh-my-pi/pi-natives", ".../vcs", ...)
//   values     names the agent's own sources (src/**/*.ts) use at run time:
//              named imports, members of `import * as ns` and of `await import()`;
//   types      names they import only as types (`import type`, `type X`);
//   bundle     names the published CLI bundle (dist/cli.js, the agent and the
//              workspace packages bundled into it: pi-tui, pi-utils, ...) imports
//              by name at run time that are not already in values.
// The lists kept here: agent 18.2.3, the newest whose pi-natives (and its
// linux-x64 addon package) the npm registry reachable here has (18.3.4, the
// `latest`, needs pi-natives 18.3.4, which it has not: the script warns), and
// 14.9.9, the bottom of the overlay's range.
//
// build/test-dist.sh, for each agent-imports-*.json here, installs the overlay
// with the real pi-natives at that file's version, imports every value and
// bundle name from it and type-checks every name against its .d.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const AGENT = "@oh-my-pi/pi-coding-agent";
const NATIVES = "@oh-my-pi/pi-natives";

function parseArgs(argv) {
  const o = {
    cache: process.env.FSCACHE_CACHE || path.join(os.homedir(), ".cache", "fscache"),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--version") o.version = argv[++i];
    else if (a === "--cache") o.cache = path.resolve(argv[++i]);
    else if (a === "--out") o.out = path.resolve(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

const npm = (args, cwd) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();

/** The agent's package directory, downloaded and unpacked once into the cache. */
function fetchAgent(version, cache) {
  const dir = path.join(cache, `pi-coding-agent-${version}`);
  if (fs.existsSync(path.join(dir, "package", "package.json"))) return path.join(dir, "package");
  fs.mkdirSync(dir, { recursive: true });
  const tgz = npm(["pack", "--silent", `${AGENT}@${version}`], dir).split("\n").pop();
  execFileSync("tar", ["-xzf", tgz, "-C", dir], { cwd: dir });
  fs.rmSync(path.join(dir, tgz));
  return path.join(dir, "package");
}

function* walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (/\.(ts|tsx|mts|cts|js|mjs)$/.test(e.name) && !/\.d\.ts$/.test(e.name)) yield p;
  }
}

const SPEC = `["'](${NATIVES.replace("/", "\\/")}(?:\\/[\\w-]+)?)["']`;
const entry = (acc, spec) => (acc[spec] ??= { values: new Set(), types: new Set() });

/** `a`, `type b`, `c as d` -> [name, isType] */
function specifiers(list, allTypes) {
  return list
    .split(",")
    .map((s) => s.replace(/\/\/.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, "").trim())
    .filter(Boolean)
    .map((s) => {
      const isType = allTypes || /^type\s/.test(s);
      const name = s.replace(/^type\s+/, "").split(/\s+as\s+/)[0].trim();
      return [name, isType];
    });
}

// A member use `ns.X` is a type use when what precedes it on its line ends a
// type position: `: `, `type T = `, `<`, `|`, `&`, `as `, `satisfies `, `readonly `, ... (not `typeof `).
const TYPE_POSITION = /(:\s*|\btype\s+\w+(<[^>]*>)?\s*=\s*|<\s*|[|&]\s*|\bas\s+|\bsatisfies\s+|\bextends\s+|\bimplements\s+|\breadonly\s+|\bkeyof\s+)$/;

function members(text, ns, acc) {
  const re = new RegExp(`(?<![\\w$.])${ns.replace(/\$/g, "\\$")}\\.(\\w+)`, "g");
  for (const m of text.matchAll(re)) {
    const lineStart = text.lastIndexOf("\n", m.index) + 1;
    const before = text.slice(lineStart, m.index);
    if (TYPE_POSITION.test(before) && !/typeof\s+$/.test(before)) acc.types.add(m[1]);
    else acc.values.add(m[1]);
  }
}

function scanSources(srcDir) {
  const acc = {};
  for (const file of walk(srcDir)) {
    const text = fs.readFileSync(file, "utf8");
    if (!text.includes(NATIVES)) continue;
    // import [type] { ... } from "..."; export [type] { ... } from "..."
    for (const m of text.matchAll(new RegExp(`\\b(import|export)\\s+(type\\s+)?\\{([^}]*)\\}\\s*from\\s*${SPEC}`, "g"))) {
      const e = entry(acc, m[4]);
      for (const [name, isType] of specifiers(m[3], Boolean(m[2]))) (isType ? e.types : e.values).add(name);
    }
    // import * as ns from "..."
    for (const m of text.matchAll(new RegExp(`\\bimport\\s+(type\\s+)?\\*\\s*as\\s+([\\w$]+)\\s+from\\s*${SPEC}`, "g"))) {
      const e = entry(acc, m[3]);
      if (m[1]) members(text, m[2], { values: e.types, types: e.types });
      else members(text, m[2], e);
    }
    // const ns = await import("..."); const { a, b } = await import("..."); (await import("...")).a
    for (const m of text.matchAll(new RegExp(`(?:const|let)\\s+([\\w$]+)\\s*=\\s*await\\s+import\\(\\s*${SPEC}\\s*\\)`, "g")))
      members(text, m[1], entry(acc, m[2]));
    for (const m of text.matchAll(new RegExp(`(?:const|let)\\s*\\{([^}]*)\\}\\s*=\\s*await\\s+import\\(\\s*${SPEC}\\s*\\)`, "g")))
      for (const [name] of specifiers(m[1].replace(/:/g, " as "), false)) entry(acc, m[2]).values.add(name);
    for (const m of text.matchAll(new RegExp(`\\(\\s*await\\s+import\\(\\s*${SPEC}\\s*\\)\\s*\\)\\.(\\w+)`, "g")))
      entry(acc, m[1]).values.add(m[2]);
    // import("...").X in type positions: import("@oh-my-pi/pi-natives").Foo
    for (const m of text.matchAll(new RegExp(`\\bimport\\(\\s*${SPEC}\\s*\\)\\.(\\w+)`, "g"))) entry(acc, m[1]).types.add(m[2]);
  }
  return acc;
}

/** Named imports of the minified bundle: import{a as b,c}from"..." and (await import("...")).x */
function scanBundle(file) {
  const acc = {};
  const text = fs.readFileSync(file, "utf8");
  for (const m of text.matchAll(new RegExp(`\\bimport\\s*\\{([^}]*)\\}\\s*from\\s*${SPEC}`, "g")))
    for (const [name] of specifiers(m[1], false)) entry(acc, m[2]).values.add(name);
  for (const m of text.matchAll(new RegExp(`\\(\\s*await\\s+import\\(\\s*${SPEC}\\s*\\)\\s*\\)\\.(\\w+)`, "g")))
    entry(acc, m[1]).values.add(m[2]);
  return acc;
}

const o = parseArgs(process.argv.slice(2));
const version = o.version || npm(["view", AGENT, "dist-tags.latest"]);
o.out ??= path.join(HERE, `agent-imports-${version}.json`);
const dir = fetchAgent(version, o.cache);
const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
const src = scanSources(path.join(dir, "src"));
const bundle = fs.existsSync(path.join(dir, "dist", "cli.js")) ? scanBundle(path.join(dir, "dist", "cli.js")) : {};

const sorted = (set) => [...set].sort();
const imports = {};
for (const spec of [...new Set([...Object.keys(src), ...Object.keys(bundle)])].sort()) {
  const s = src[spec] ?? { values: new Set(), types: new Set() };
  const types = [...s.types].filter((t) => !s.values.has(t));
  const fromBundle = [...(bundle[spec]?.values ?? [])].filter((v) => !s.values.has(v));
  imports[spec] = { values: sorted(s.values), types: sorted(types), bundle: sorted(fromBundle) };
}
const out = {
  agent: AGENT,
  version,
  piNatives: pkg.dependencies?.[NATIVES] ?? null,
  generatedBy: "node bindings/pi-natives-overlay/agent-imports.mjs --version " + version,
  imports,
};
fs.writeFileSync(o.out, JSON.stringify(out, null, 2) + "\n");
// build/test-dist.sh installs pi-natives at out.piNatives: say when this
// registry cannot give it (the version, or the linux-x64 leaf it names from 17.x on).
const need = [`${NATIVES}@${out.piNatives}`];
try {
  const leaf = npm(["view", `${NATIVES}@${out.piNatives}`, `optionalDependencies.${NATIVES}-linux-x64`]);
  if (leaf) need.push(`${NATIVES}-linux-x64@${leaf}`);
} catch {}
for (const spec of need) {
  try {
    if (!npm(["view", spec, "version"])) throw new Error("none");
  } catch {
    console.warn(`warning: ${spec} is not on the registry: test-dist cannot install it; pick an agent version whose pi-natives is`);
  }
}
for (const [spec, e] of Object.entries(imports))
  console.log(`${spec}: ${e.values.length} values, ${e.types.length} types, ${e.bundle.length} more values from the bundle`);
console.log(`wrote ${path.relative(process.cwd(), o.out)} (${AGENT}@${version}, pi-natives ${out.piNatives})`);
