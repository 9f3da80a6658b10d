"use strict";
// @oh-my-pi/pi-natives for `require` callers: the real package's exports with
// fscache's functions in their place (see index.js). pi-natives is an ES
// module, and most versions export it under the "import" condition only, so
// its entry file is found through its package.json and required by path
// (Bun requires an ES module; so does Node 20.19 and later, but pi-natives'
// own loader runs only under Bun).
const fs = require("node:fs");
const path = require("node:path");

const REAL = "@oh-my-pi/pi-natives-real";

function requireReal() {
  for (const dir of require.resolve.paths(REAL) || []) {
    const pkgFile = path.join(dir, REAL, "package.json");
    if (!fs.existsSync(pkgFile)) continue;
    const pkg = JSON.parse(fs.readFileSync(pkgFile, "utf8"));
    const root = pkg.exports && pkg.exports["."];
    const entry = (root && (root.require || root.default || root.import)) || pkg.main || "index.js";
    return require(path.join(dir, REAL, typeof entry === "string" ? entry : entry.default));
  }
  throw new Error(`Cannot find module '${REAL}' from '${__dirname}': install the real pi-natives under that alias`);
}

const real = requireReal();
const fscache = require("fscache-native");

const OURS = [
  "FileType",
  "GrepOutputMode",
  "cacheStats",
  "fuzzyFind",
  "glob",
  "grep",
  "invalidateFsScanCache",
  "listWorkspace",
];

const out = {};
for (const key of Object.keys(real)) if (key !== "default") out[key] = real[key];
for (const key of OURS) out[key] = fscache[key];
module.exports = out;
