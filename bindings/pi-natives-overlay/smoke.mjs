// smoke.mjs LIST.json [--emit-ts FILE]: the overlay installed as
// @oh-my-pi/pi-natives, with the real pi-natives beside it as
// @oh-my-pi/pi-natives-real, checked against the agent's imports in LIST (made
// by agent-imports.mjs). Run by build/test-dist.sh in a project that has
// only the installed tarballs. Exits non-zero on a failure.
//
// Under Bun (the agent's runtime):
//   - every name the agent imports at run time (LIST's values and bundle
//     names, per specifier) is exported and not undefined;
//   - every export of the real package is exported; ours are fscache's
//     (identity), theirs are the real ones (identity), FileType and
//     GrepOutputMode have the real values;
//   - one of ours: a cached glob of a temporary tree, seen by cacheStats();
//     one of theirs: visibleWidth;
//   - `require` gives the same functions.
// Under Node: pi-natives loads only under Bun (its loader uses
// import.meta.dir), so the overlay must fail exactly as the real one does.
//
// --emit-ts FILE writes a TypeScript file importing every name of LIST (types
// and values) from the overlay, for tsc.
import assert from "node:assert/strict";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

const OVERLAY = "@oh-my-pi/pi-natives";
const REAL = "@oh-my-pi/pi-natives-real";
const OURS = ["FileType", "GrepOutputMode", "cacheStats", "fuzzyFind", "glob", "grep", "invalidateFsScanCache", "listWorkspace"];

const listFile = process.argv[2];
const list = JSON.parse(fs.readFileSync(listFile, "utf8"));
const label = `${list.agent}@${list.version}`;

const emit = process.argv.indexOf("--emit-ts");
if (emit > 0) {
  let ts = `// Every name ${label} imports from pi-natives, from the overlay.\n`;
  let n = 0;
  for (const [spec, e] of Object.entries(list.imports)) {
    const names = [...new Set([...e.values, ...e.bundle, ...e.types])];
    const alias = names.map((name) => `${name} as _${n++}`);
    ts += `import type { ${alias.join(", ")} } from "${spec}";\n`;
  }
  fs.writeFileSync(process.argv[emit + 1], ts + "export {};\n");
  console.log(`wrote ${process.argv[emit + 1]}: ${n} names`);
  process.exit(0);
}

const isBun = typeof globalThis.Bun !== "undefined";
const runtime = isBun ? `bun ${Bun.version}` : `node ${process.version}`;

if (!isBun) {
  const realErr = await import(REAL).then(() => null, (e) => e);
  const ourErr = await import(OVERLAY).then(() => null, (e) => e);
  assert.ok(realErr, "pi-natives loaded under Node: check the overlay in Node as under Bun");
  assert.ok(ourErr, "the overlay loaded under Node although the real pi-natives did not");
  assert.equal(ourErr.message, realErr.message);
  // fscache's half does load here: the failure is pi-natives' own.
  const fscache = await import("fscache-native");
  assert.equal(typeof fscache.glob, "function");
  console.log(`overlay ok: ${label} on ${runtime}: fails as pi-natives does (${realErr.message})`);
  process.exit(0);
}

const real = await import(REAL);
const overlay = await import(OVERLAY);
const fscache = await import("fscache-native");

// 1. Every name the agent imports at run time resolves.
let checked = 0;
const missing = [];
for (const [spec, e] of Object.entries(list.imports)) {
  const m = await import(spec);
  for (const name of [...e.values, ...e.bundle]) {
    checked++;
    if (m[name] === undefined) missing.push(`${spec}: ${name}`);
  }
}
assert.deepEqual(missing, [], `names ${label} imports that the overlay does not give`);

// 2. The real package's exports, all of them; ours from fscache, theirs real.
const realKeys = Object.keys(real).filter((k) => k !== "default");
assert.deepEqual(realKeys.filter((k) => !(k in overlay)), [], "exports of the real pi-natives missing from the overlay");
for (const k of realKeys) {
  if (OURS.includes(k)) continue;
  assert.equal(overlay[k], real[k], `${k} is not the real one`);
}
for (const k of OURS) assert.equal(overlay[k], fscache[k], `${k} is not fscache's`);
for (const k of ["FileType", "GrepOutputMode"]) assert.deepEqual({ ...overlay[k] }, { ...real[k] }, `${k} values differ from pi-natives'`);

// 3. One of ours: a cached glob, which fscache's cache records.
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "fscache-overlay-")));
try {
  fs.mkdirSync(path.join(root, "src"));
  fs.writeFileSync(path.join(root, "src", "a.ts"), "export const a = 1;\n");
  fs.writeFileSync(path.join(root, "b.md"), "# b\n");
  const before = overlay.cacheStats().fullScans;
  const found = await overlay.glob({ pattern: "*.ts", path: root, cache: true });
  assert.deepEqual(found.matches.map((x) => [x.path, x.fileType]), [["src/a.ts", overlay.FileType.File]]);
  // fscache scanned the root (a first cached call may also fill the root's
  // watched scan in the background, a second full scan, at any moment).
  assert.ok(overlay.cacheStats().fullScans > before, "the overlay's glob did not go through fscache");
  const hits = await overlay.grep({ pattern: "const", path: root, mode: overlay.GrepOutputMode.FilesWithMatches });
  assert.deepEqual(hits.matches.map((x) => x.path), ["src/a.ts"]);
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}

// 4. One of theirs: visibleWidth counts columns, not bytes.
assert.equal(overlay.visibleWidth("héllo wörld", 8), 11);

// 5. require: the same functions.
const required = createRequire(import.meta.url)(OVERLAY);
assert.equal(required.glob, fscache.glob);
assert.equal(required.visibleWidth, real.visibleWidth);
assert.deepEqual(realKeys.filter((k) => !(k in required)), [], "exports of the real pi-natives missing from require()");

console.log(
  `overlay ok: ${label} on ${runtime}: ${checked} imported names resolve, ${realKeys.length} exports of pi-natives ` +
    `${list.piNatives}, ${OURS.length} from fscache`,
);
