#!/usr/bin/env node
// select.mjs ROOT: the agent's test files that exercise fscache's functions.
//
// 1. Modules: every source file under ROOT/packages/*/src that imports glob,
//    fuzzyFind, grep, invalidateFsScanCache or listWorkspace from
//    @oh-my-pi/pi-natives as a value (named, or as a member of
//    `import * as ns`): the find/glob tool, grep/search, read's directory
//    listing, the workspace tree, @-mention and autocomplete, discovery, ...
// 2. Tests: every ROOT/packages/*/test/**/*.test.ts(x) that imports one of
//    those modules directly (by relative path or through its package name),
//    or imports one of the five names from pi-natives itself. A module below
//    src/ that re-exports one of the modules of 1 (a barrel such as
//    tools/index) counts as one of them.
// Prints one path per line, relative to ROOT, sorted; with --why, the module
// that selected each test after a tab.
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(process.argv[2] || ".");
const why = process.argv.includes("--why");
const OURS = new Set(["glob", "fuzzyFind", "grep", "invalidateFsScanCache", "listWorkspace"]);
const NATIVES = /["']@oh-my-pi\/pi-natives["']/;

function* walk(dir) {
  if (!fs.existsSync(dir)) return;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name.startsWith(".")) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (/\.(ts|tsx|js|mjs)$/.test(e.name) && !e.name.endsWith(".d.ts")) yield p;
  }
}

/** Does this source use one of our names from pi-natives as a value? */
function usesOurs(text) {
  if (!NATIVES.test(text)) return false;
  for (const m of text.matchAll(/\bimport\s*\{([^}]*)\}\s*from\s*["']@oh-my-pi\/pi-natives["']/g)) {
    for (const spec of m[1].split(",")) {
      const s = spec.trim();
      if (!s || s.startsWith("type ")) continue;
      if (OURS.has(s.split(/\s+as\s+/)[0].trim())) return true;
    }
  }
  for (const m of text.matchAll(/\bimport\s*\*\s*as\s+([\w$]+)\s+from\s*["']@oh-my-pi\/pi-natives["']/g)) {
    const re = new RegExp(`(?<![\\w$.])${m[1].replace(/\$/g, "\\$")}\\.(\\w+)`, "g");
    for (const u of text.matchAll(re)) if (OURS.has(u[1])) return true;
  }
  return false;
}

const packagesDir = path.join(root, "packages");
const pkgs = fs.readdirSync(packagesDir).filter((d) => fs.existsSync(path.join(packagesDir, d, "package.json")));
const pkgName = Object.fromEntries(
  pkgs.map((d) => [d, JSON.parse(fs.readFileSync(path.join(packagesDir, d, "package.json"), "utf8")).name]),
);

// Modules, as absolute paths without extension.
const modules = new Map(); // abs path without ext -> "pkg/src/rel"
for (const d of pkgs) {
  for (const f of walk(path.join(packagesDir, d, "src"))) {
    if (usesOurs(fs.readFileSync(f, "utf8"))) modules.set(f.replace(/\.(ts|tsx|js|mjs)$/, ""), path.relative(root, f));
  }
}

function resolveSpec(spec, fromFile) {
  if (spec.startsWith(".")) return path.resolve(path.dirname(fromFile), spec).replace(/\.(ts|tsx|js|mjs)$/, "");
  for (const d of pkgs) {
    const name = pkgName[d];
    if (spec === name) return path.join(packagesDir, d, "src", "index");
    if (spec.startsWith(name + "/")) return path.join(packagesDir, d, "src", spec.slice(name.length + 1)).replace(/\.(ts|tsx|js|mjs)$/, "");
  }
  return null;
}

// Barrels: a module in a subdirectory of src (tools/index.ts) that re-exports
// (`export ... from`) one of those is one too. A package's top-level barrels
// (src/index.ts, src/sdk.ts) are not: every test imports them.
for (let grew = true; grew; ) {
  grew = false;
  for (const d of pkgs) {
    for (const f of walk(path.join(packagesDir, d, "src"))) {
      const key = f.replace(/\.(ts|tsx|js|mjs)$/, "");
      if (modules.has(key) || path.dirname(f) === path.join(packagesDir, d, "src")) continue;
      const text = fs.readFileSync(f, "utf8");
      for (const m of text.matchAll(/\bexport\s+(?:\*|\{[^}]*\})\s*from\s*["']([^"']+)["']/g)) {
        const target = resolveSpec(m[1], f);
        if (target && modules.has(target)) {
          modules.set(key, `${path.relative(root, f)} (re-exports ${modules.get(target)})`);
          grew = true;
          break;
        }
      }
    }
  }
}

const selected = new Map();
for (const d of pkgs) {
  for (const f of walk(path.join(packagesDir, d, "test"))) {
    if (!/\.test\.tsx?$/.test(f)) continue;
    const text = fs.readFileSync(f, "utf8");
    if (usesOurs(text)) {
      selected.set(path.relative(root, f), "@oh-my-pi/pi-natives");
      continue;
    }
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g)) {
      const target = resolveSpec(m[1], f);
      if (target && modules.has(target)) {
        selected.set(path.relative(root, f), modules.get(target));
        break;
      }
    }
  }
}
for (const f of [...selected.keys()].sort()) console.log(why ? `${f}\t${selected.get(f)}` : f);
