// The read cache's full answers are pi's read output byte for byte: the
// engine (fscache-native's readCache) and pi 0.73.1's own read tool, on the
// same files with the same offset/limit, give the same text, the same
// details.truncation, and the same errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LINE_COUNT, pi } from "./pi-line.mjs";

const { createReadToolDefinition } = pi;
import { native } from "../src/native.js";

function lines(n, make) {
  return Array.from({ length: n }, (_, i) => make(i + 1)).join("\n");
}

const files = {
  "empty.txt": "",
  "one.txt": "just one line",
  "nl.txt": "a\nb\nc\n",
  "crlf.txt": "a\r\nb\r\nc\r\n",
  "blank-lines.txt": "\n\n\n",
  "lines-2500.txt": lines(2500, (i) => `line ${i}`) + "\n",
  "lines-2000.txt": lines(2000, (i) => `line ${i}`),
  "lines-2001.txt": lines(2001, (i) => `line ${i}`),
  "bytes-100k.txt": lines(1000, (i) => `${i}:`.padEnd(99, "x")) + "\n",
  "exact-50k.txt": "y".repeat(51200),
  "over-50k.txt": "y".repeat(51201) + "\nnext\n",
  "wide-first.txt": "z".repeat(70000) + "\nshort\n",
  "wide-middle.txt": "a\nb\n" + "w".repeat(60000) + "\nc\n",
  "utf8.txt": lines(3000, (i) => `é€😀 ${i} — ünïcödé`),
  "utf8-bytes.txt": lines(600, (i) => "é".repeat(60) + i),
  "mb-size.txt": "q".repeat(1300 * 1024),
};

const ranges = [
  {},
  { offset: 0 },
  { offset: 1 },
  { offset: 2 },
  { offset: 3, limit: 1 },
  { offset: 1, limit: 2000 },
  { offset: 1999, limit: 5 },
  { offset: 2000 },
  { offset: 2001 },
  { offset: 2500 },
  { offset: 2501 },
  { limit: 1 },
  { limit: 3 },
  { limit: 2500 },
  { offset: 500, limit: 10000 },
];

async function piRead(tool, path, r) {
  try {
    const out = await tool.execute("t", { path, ...r }, undefined, undefined, undefined);
    return { text: out.content.map((c) => c.text).join(""), truncation: out.details?.truncation };
  } catch (err) {
    return { error: err.message };
  }
}

async function engineRead(cwd, path, r) {
  try {
    const out = await native.readCache({ path, cwd, noStore: true, lineCount: LINE_COUNT, ...r });
    assert.notEqual(out.mode, "baseline", `${path} ${JSON.stringify(r)}: baseline (${out.reason})`);
    return { text: out.text, truncation: out.truncation ?? undefined };
  } catch (err) {
    return { error: err.message };
  }
}

test("full answers are pi's read output", async () => {
  const dir = mkdtempSync(join(tmpdir(), "fscache-parity-"));
  try {
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    const tool = createReadToolDefinition(dir);
    let compared = 0;
    for (const name of Object.keys(files)) {
      for (const r of ranges) {
        const want = await piRead(tool, name, r);
        const got = await engineRead(dir, name, r);
        assert.deepEqual(got, want, `${name} ${JSON.stringify(r)}`);
        compared++;
      }
    }
    assert.equal(compared, Object.keys(files).length * ranges.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
