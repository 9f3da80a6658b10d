// Issue 49: pi's own tests (tools.test.ts) expect a plain read's `details`
// to be undefined; the package's reads carry `details.readcache`. Every
// details field the package adds to pi's answer, and every field of its
// record, is named in docs/readcache.md's list of differences from pi's
// own read ("Where it differs, and why", "From **pi's own read**").
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LINE } from "./pi-line.mjs";
import { Harness, piRead } from "./read-harness.mjs";

const DOC = fileURLToPath(new URL("../../../docs/readcache.md", import.meta.url));

/** The part of docs/readcache.md that lists the differences from pi's own read. */
function differencesFromPi() {
  const doc = fs.readFileSync(DOC, "utf8");
  const start = doc.indexOf("From **pi's own read**");
  const end = doc.indexOf("From **the seed**", start);
  assert.ok(start >= 0 && end > start, "docs/readcache.md lists the differences from pi's own read, then the seed's");
  return doc.slice(start, end);
}

test(`details (pi ${LINE}): what the package adds to a plain read's details is named among the differences from pi`, async (t) => {
  const cwd = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pi-fscache-details-")));
  t.after(() => fs.rmSync(cwd, { recursive: true, force: true }));
  fs.writeFileSync(path.join(cwd, "plain.txt"), "one\ntwo\n");
  const own = await piRead(cwd, { path: "plain.txt" });
  assert.equal(own.details, undefined, "pi's own plain read has no details (as pi's tools.test.ts expects)");
  const h = new Harness(cwd);
  const served = [await h.read("plain.txt"), await h.read("plain.txt")]; // full, then the marker
  const section = differencesFromPi();
  for (const r of served) {
    assert.equal(r.text === own.text || /^\[readcache: unchanged/.test(r.text), true);
    const added = Object.keys(r.details ?? {}).filter((k) => own.details?.[k] === undefined);
    assert.ok(added.length > 0, "the package's read adds details");
    for (const k of added) assert.ok(section.includes(`details.${k}`), `docs/readcache.md's differences from pi name details.${k}`);
    for (const f of Object.keys(r.details.readcache ?? {})) assert.ok(section.includes(`\`${f}\``), `the differences from pi name details.readcache's field ${f}`);
  }
});
