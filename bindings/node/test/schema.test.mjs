// The option schema (schema/options.json at the repository root) against the
// JavaScript side, under both `node --test` and `bun test`:
//   - index.d.ts, read with the TypeScript compiler API: each options
//     interface has the schema's fields, in its order, with its optionality
//     and type, and a field with a default says it in its doc comment; each
//     function takes its interface;
//   - index.cjs: each field is checked and serialised as its type says
//     (required fields, TypeErrors naming the field, ToUint32 numbers,
//     null as absent), and nothing else reaches the library. index.cjs is
//     loaded a second time, on a stub addon that records the JSON it gets.
// capi/schema_test.go checks the Go side and include/fscache.h.

import assert from "node:assert/strict";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const isBun = typeof globalThis.Bun !== "undefined";
const runner = isBun ? await import("bun:test") : await import("node:test");
const it = (name, fn) => (isBun ? runner.test(name, fn, 30_000) : runner.test(name, { timeout: 30_000 }, fn));

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.join(here, "..");
const schema = JSON.parse(fs.readFileSync(path.join(pkgDir, "..", "..", "schema", "options.json"), "utf8"));
const ts = require("typescript");

/** The TypeScript type of each schema type. */
const TS_TYPE = {
  string: "string",
  boolean: "boolean",
  number: "number",
  FileType: "FileType",
  GrepOutputMode: "GrepOutputMode",
  AbortSignal: "unknown",
  integer: "number",
  size: "number",
  StringMap: "Record<string, string>",
  StringArray: "Array<string>",
  LineCount: '"split" | "lines"',
};

/** How a doc comment writes a default: "default true", "Default: false.", "default `GrepOutputMode.Content`". */
function defaultPattern(f) {
  const v = f.type === "GrepOutputMode" ? `GrepOutputMode.${f.default[0].toUpperCase()}${f.default.slice(1)}` : String(f.default);
  return new RegExp(`\\bdefault:?\\s+\`?${v.replace(/\./g, "\\.")}\\b`, "i");
}

function declarations(file) {
  const text = fs.readFileSync(file, "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const interfaces = new Map();
  const functions = new Map();
  for (const st of sf.statements) {
    if (ts.isInterfaceDeclaration(st)) interfaces.set(st.name.text, st);
    else if (ts.isFunctionDeclaration(st) && st.name) functions.set(st.name.text, st);
  }
  /** The doc comments just before a node. */
  const docOf = (node) =>
    (ts.getLeadingCommentRanges(text, node.pos) || []).map((r) => text.slice(r.pos, r.end)).join("\n");
  return { interfaces, functions, docOf };
}

it("index.d.ts declares each options interface of the schema, field by field", () => {
  const { interfaces, functions, docOf } = declarations(path.join(pkgDir, "index.d.ts"));
  for (const iface of schema.interfaces) {
    const decl = interfaces.get(iface.name);
    assert.ok(decl, `index.d.ts has no interface ${iface.name}`);
    const members = decl.members.map((m) => {
      assert.ok(ts.isPropertySignature(m), `${iface.name}: a member that is not a property`);
      return {
        name: m.name.getText(),
        optional: m.questionToken !== undefined,
        type: m.type.getText(),
        doc: docOf(m),
      };
    });
    assert.deepEqual(
      members.map((m) => m.name),
      iface.fields.map((f) => f.name),
      `${iface.name}: the fields and their order`,
    );
    iface.fields.forEach((f, i) => {
      const m = members[i];
      assert.equal(m.optional, !f.required, `${iface.name}.${f.name}: optional`);
      assert.equal(m.type, TS_TYPE[f.type], `${iface.name}.${f.name}: type`);
      assert.ok(m.doc.trim() !== "", `${iface.name}.${f.name}: no doc comment`);
      if (f.default !== undefined) {
        assert.match(m.doc, defaultPattern(f), `${iface.name}.${f.name}: the doc does not state its default`);
      }
    });
    const fn = functions.get(iface.js);
    assert.ok(fn, `index.d.ts declares no function ${iface.js}`);
    assert.equal(fn.parameters[0].type.getText(), iface.name, `${iface.js}'s options`);
  }
});

/** index.cjs loaded again, on a stub addon; calls[] gets [function, parsed JSON] per call. */
function loadOnStub() {
  const calls = [];
  const record = (name) => (json) => {
    calls.push([name, JSON.parse(json)]);
    return Promise.resolve({ matches: [], totalMatches: 0 });
  };
  const stub = {
    glob: record("glob"),
    fuzzyFind: record("fuzzyFind"),
    grep: record("grep"),
    listWorkspace: record("listWorkspace"),
    readCache: record("readCache"),
    readCacheResolve: record("readCacheResolve"),
    readCacheStore: record("readCacheStore"),
    createCancelToken: () => ({}),
    cancel() {},
    closeAll() {},
  };
  // The addon path index.cjs is told to load: any existing file; the
  // require below hands it the stub instead.
  const stubPath = fileURLToPath(import.meta.url);
  const file = path.join(pkgDir, "index.cjs");
  const fakeRequire = (id) => (id === stubPath ? stub : require(id));
  fakeRequire.resolve = require.resolve;
  const saved = process.env.FSCACHE_NODE_ADDON;
  process.env.FSCACHE_NODE_ADDON = stubPath;
  try {
    const module = { exports: {} };
    new Function("require", "module", "exports", "__filename", "__dirname", fs.readFileSync(file, "utf8"))(
      fakeRequire,
      module,
      module.exports,
      file,
      pkgDir,
    );
    return { m: module.exports, calls };
  } finally {
    if (saved === undefined) delete process.env.FSCACHE_NODE_ADDON;
    else process.env.FSCACHE_NODE_ADDON = saved;
  }
}

/** A valid value of each type, what the library must get for it, and a value of the wrong type. */
const VALUES = {
  string: [["v", "v"]],
  boolean: [
    [true, true],
    [false, false],
  ],
  number: [
    [7.9, 7],
    [-1, 4294967295],
    [0, 0],
  ],
  FileType: [[2, 2]],
  GrepOutputMode: [["count", "count"]],
  // The read cache's: offsets pass through (clamped to the int32 range),
  // sizes are non-negative, maps and arrays are copied.
  integer: [
    [7.9, 7],
    [-1, -1],
    [-2.5, -2],
    [0, 0],
    [1e12, 2147483647],
    [-1e12, -2147483648],
  ],
  size: [
    [7.9, 7],
    [0, 0],
    [2 ** 40, 2 ** 40],
    [Infinity, 2 ** 53],
  ],
  StringMap: [
    [{ full: "h1", "r:1:2": "h2" }, { full: "h1", "r:1:2": "h2" }],
    [{}, {}],
  ],
  StringArray: [
    [["*.pem", ".env*"], ["*.pem", ".env*"]],
    [[], []],
  ],
  LineCount: [
    ["lines", "lines"],
    ["split", "split"],
  ],
};
const WRONG = {
  string: 1,
  boolean: "true",
  number: "7",
  FileType: "dir",
  GrepOutputMode: 1,
  integer: "7",
  size: "7",
  StringMap: ["h"],
  StringArray: "*.pem",
  LineCount: 1,
};
/* Further wrong values: a negative size, a map or an array holding a non-string. */
const WRONG_MORE = { size: [-1, NaN], StringMap: [{ full: 1 }, null], StringArray: [["a", 1]], integer: [NaN], LineCount: ["Lines"] };

it("index.cjs checks and serialises each field of the schema, and nothing else", async () => {
  const { m, calls } = loadOnStub();
  for (const iface of schema.interfaces) {
    const call = (options) => {
      calls.length = 0;
      const p = m[iface.js](options);
      assert.equal(calls.length, 1, `${iface.js}: the library was not called`);
      assert.equal(calls[0][0], iface.js);
      return { p, sent: calls[0][1] };
    };
    const base = {};
    for (const f of iface.fields) if (f.required) base[f.name] = f.type === "string" ? "x" : 1;
    // Unknown fields stay behind; the required ones go through as given.
    const { p, sent } = call({ ...base, unknownField: 1, onMatch: () => {} });
    await p;
    assert.deepEqual(sent, base, `${iface.name}: what the library gets from the required fields alone`);

    for (const f of iface.fields) {
      const where = `${iface.name}.${f.name}`;
      if (f.type === "AbortSignal") {
        const ac = new AbortController();
        const { p, sent } = call({ ...base, [f.name]: ac.signal });
        await p;
        assert.ok(!(f.name in sent), `${where} reached the library`);
        assert.throws(() => m[iface.js]({ ...base, [f.name]: { aborted: false } }), (e) => e instanceof TypeError && e.message.startsWith(`${where} must be an AbortSignal`));
        continue;
      }
      if (f.required) {
        const without = { ...base };
        delete without[f.name];
        assert.throws(() => m[iface.js](without), (e) => e instanceof TypeError && e.message === `Missing field \`${f.name}\` on ${iface.name}`, `${where} absent`);
      } else {
        for (const absent of [undefined, null]) {
          const { sent } = call({ ...base, [f.name]: absent });
          assert.ok(!(f.name in sent), `${where} = ${absent} reached the library`);
        }
      }
      for (const [value, want] of VALUES[f.type]) {
        const { sent } = call({ ...base, [f.name]: value });
        assert.deepEqual(sent[f.name], want, `${where} = ${JSON.stringify(value)}`);
      }
      for (const value of WRONG_MORE[f.type] || []) {
        if (value === null) continue; // null is absent
        assert.throws(
          () => m[iface.js]({ ...base, [f.name]: value }),
          (e) => e instanceof TypeError && e.message.startsWith(`${where}`) && / must be a/.test(e.message),
          `${where} = ${JSON.stringify(value)}`,
        );
      }
      assert.throws(
        () => m[iface.js]({ ...base, [f.name]: WRONG[f.type] }),
        (e) => e instanceof TypeError && e.message.startsWith(`${where} must be a`),
        `${where} = ${JSON.stringify(WRONG[f.type])}`,
      );
    }
  }
});
