// Large results: the addon parses a result of 96 kB to 1 MB in chunks of its
// matches array (fscache_node.c, json_parse_chunked), and a larger one as
// one string. These tests make results of both sizes out of names and lines
// full of the characters that could fool a chunk boundary (quotes,
// backslashes, brackets, braces, commas, non-ASCII), and check every match
// against what the tree holds and against the matches streamed to onMatch
// (parsed batch by batch, another path). Runs under `node --test` and
// `bun test`.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const isBun = typeof globalThis.Bun !== "undefined";
const runner = isBun ? await import("bun:test") : await import("node:test");
const { describe } = runner;
const beforeAll = isBun ? runner.beforeAll : runner.before;
const afterAll = isBun ? runner.afterAll : runner.after;
function it(name, fn, timeout = 60_000) {
  if (isBun) runner.test(name, fn, timeout);
  else runner.test(name, { timeout }, fn);
}

const { glob, grep, fuzzyFind } = await import("../index.js");

// Names that look like JSON structure once escaped or not.
const tricky = [
  'q"uote',
  "back\\slash",
  "br]ack[et",
  "br}ace{s",
  'end"},{"path":"x',
  "comma,s",
  "üñí©ødé",
  "日本語",
  "tab\there",
  "trail\\",
];

let root;
const files = [];
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "fscache-large-"));
  for (let d = 0; d < 40; d++) {
    const dir = `dir${d}_${tricky[d % tricky.length]}`;
    fs.mkdirSync(path.join(root, dir));
    for (let f = 0; f < 100; f++) {
      const name = `${tricky[(d + f) % tricky.length]}_${f}.txt`;
      fs.writeFileSync(path.join(root, dir, name), `line "one" ${tricky[f % tricky.length]}\nneedle ]},{" ${f}\n`);
      files.push(`${dir}/${name}`);
    }
  }
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("large results", () => {
  for (const cache of [false, true]) {
    it(`glob returns every path exactly (cache: ${cache})`, async () => {
      const r = await glob({ pattern: "**/*.txt", path: root, cache });
      const size = JSON.stringify(r).length;
      assert.equal(size > 200_000 && size < 900_000, true, `${size} bytes: the result is chunked`);
      assert.equal(r.totalMatches, files.length);
      assert.deepEqual(r.matches.map((m) => m.path).sort(), [...files].sort());
      for (const m of r.matches) assert.deepEqual(Object.keys(m), ["path", "fileType"]);
    });
  }

  it("glob's result equals the matches streamed to onMatch", async () => {
    const streamed = [];
    const r = await glob({ pattern: "**/*", path: root }, (err, m) => {
      assert.equal(err, null);
      streamed.push(m);
    });
    // Streamed in the walk's order, returned sorted.
    const byPath = (a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    assert.deepEqual([...r.matches].sort(byPath), streamed.sort(byPath));
  });

  it("grep with context (nested objects) equals its onMatch stream", async () => {
    const streamed = [];
    const r = await grep({ pattern: "needle", path: root, context: 1 }, (err, m) => {
      assert.equal(err, null);
      streamed.push(m);
    });
    const size = JSON.stringify(r).length;
    assert.equal(size > 200_000 && size < 900_000, true, `${size} bytes: the result is chunked`);
    assert.equal(r.totalMatches, files.length);
    assert.deepEqual(r.matches, streamed);
    for (const m of r.matches) assert.match(m.line, /^needle \]\},\{" \d+$/);
  });

  it("fuzzyFind with a large maxResults keeps every field", async () => {
    const r = await fuzzyFind({ query: "txt", path: root, maxResults: 10_000 });
    assert.equal(r.matches.length, files.length);
    assert.deepEqual(r.matches.map((m) => m.path).sort(), [...files].sort());
  });
});

describe("results past 1 MB (parsed as one string)", () => {
  let big;
  const lines = new Map(); // path -> its lines
  beforeAll(() => {
    big = fs.mkdtempSync(path.join(os.tmpdir(), "fscache-large1m-"));
    for (let f = 0; f < 300; f++) {
      const name = `${tricky[f % tricky.length]}_${f}.txt`;
      const ls = [];
      for (let l = 0; l < 8; l++) ls.push(`needle ${l} ${tricky.join(" ").repeat(6)} ]},{" ${f}`);
      fs.writeFileSync(path.join(big, name), ls.join("\n") + "\n");
      lines.set(name, ls);
    }
  });
  afterAll(() => fs.rmSync(big, { recursive: true, force: true }));

  it("grep returns every line exactly", async () => {
    const r = await grep({ pattern: "needle", path: big });
    const size = JSON.stringify(r).length;
    assert.equal(size > 1_100_000, true, `${size} bytes: the result is past the chunked sizes`);
    assert.equal(r.totalMatches, 300 * 8);
    for (const m of r.matches) assert.equal(m.line, lines.get(m.path)[m.lineNumber - 1]);
    assert.equal(new Set(r.matches.map((m) => `${m.path}:${m.lineNumber}`)).size, 300 * 8);
  });
});
