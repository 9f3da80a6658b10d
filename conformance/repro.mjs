#!/usr/bin/env node
// Run one call through the reference and through fscache, each in its own process, and print
// both results. For reproducing a difference outside the suite:
//
//   node conformance/repro.mjs grep '{"pattern":"foo","path":"./x.txt"}' [--on-match] [--cwd DIR]
//
// The reference is conformance/.cache/... (make conformance-ref); ours is bindings/node/index.js
// (FSCACHE_NODE_ADDON is honoured as usual).

import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const [fn, json] = args;
if (!fn || !json) {
  console.error("usage: node conformance/repro.mjs <glob|fuzzyFind|grep|invalidateFsScanCache> '<options json>' [--on-match] [--cwd DIR]");
  process.exit(2);
}
const onMatch = args.includes("--on-match");
const cwdIdx = args.indexOf("--cwd");
const cwd = cwdIdx >= 0 ? path.resolve(args[cwdIdx + 1]) : process.cwd();
const sides = {
  reference: `ref:${path.join(HERE, ".cache", "pi-natives-14.9.9", "pi_natives.linux-x64-modern.node")}`,
  fscache: `ours:${path.join(HERE, "..", "bindings", "node", "index.js")}`,
};

const child = `
const [spec, fn, json, onMatch] = process.argv.slice(1);
const i = spec.indexOf(":");
const kind = spec.slice(0, i), file = spec.slice(i + 1);
const { createRequire } = await import("node:module");
const { pathToFileURL } = await import("node:url");
const m = kind === "ref" ? createRequire(import.meta.url)(file) : await import(pathToFileURL(file).href);
const got = [];
try {
  const r = await m[fn](JSON.parse(json), ...(onMatch === "1" ? [(e, x) => got.push(e ? String(e) : x)] : []));
  await new Promise((r) => setTimeout(r, 300));
  console.log(JSON.stringify({ result: r, ...(onMatch === "1" ? { onMatch: got } : {}) }, null, 1));
} catch (e) {
  console.log(JSON.stringify({ error: String(e && e.message || e) }));
}`;

for (const [name, spec] of Object.entries(sides)) {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", child, spec, fn, json, onMatch ? "1" : "0"], { cwd, encoding: "utf8" });
  console.log(`--- ${name}\n${r.stdout}${r.stderr}`);
}
