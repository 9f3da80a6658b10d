// Issue 49: secrets never reach the object store. Each file the default
// excludes name (the seed's, the peer pi-readcache's, anything under a
// .ssh directory), read twice by the model through the package with the
// store at its default place (<cwd>/.pi/readcache), gets pi's own read and
// no record, and no object in .pi/readcache/objects/ holds its text; an
// ordinary file read beside them is stored (the store is where the test
// looks).
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LINE } from "./pi-line.mjs";
import { Harness, modeOf, piRead } from "./read-harness.mjs";

const SECRETS = ["cert.pfx", "server.crt", "ca.cer", "ca.der", "key.pk8", "id_rsa", "id_ed25519", ".npmrc", ".netrc", "deploy/.ssh/id_rsa", "deploy/.ssh/known_hosts", ".env", "tls.pem", "tls.key", "bundle.p12"];

function storedTexts(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(fs.readFileSync(p, "utf8"));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

test(`secrets (pi ${LINE}): no excluded file's text ever reaches .pi/readcache/objects/`, async (t) => {
  const cwd = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pi-fscache-secrets-")));
  t.after(() => fs.rmSync(cwd, { recursive: true, force: true }));
  const texts = {};
  SECRETS.forEach((name, i) => {
    texts[name] = `SECRET-${String(i).padStart(2, "0")} of ${name}\nmore secret text\n`;
    fs.mkdirSync(path.dirname(path.join(cwd, name)), { recursive: true });
    fs.writeFileSync(path.join(cwd, name), texts[name]);
  });
  // an innocent name whose real path is under .ssh
  fs.symlinkSync(path.join(cwd, "deploy/.ssh/known_hosts"), path.join(cwd, "hosts.txt"));
  fs.writeFileSync(path.join(cwd, "plain.txt"), "PLAIN, STORED\n");

  const h = new Harness(cwd);
  for (let round = 1; round <= 2; round++) {
    for (const name of [...SECRETS, "hosts.txt"]) {
      const r = await h.read(name);
      const own = await piRead(cwd, { path: name });
      assert.equal(r.text, own.text, `${name} (read ${round}): pi's own read`);
      assert.equal(modeOf(r), undefined, `${name} (read ${round}): no record, nothing to trust`);
    }
    const plain = await h.read("plain.txt");
    assert.equal(modeOf(plain), round === 1 ? "full" : "unchanged");
  }

  const objects = path.join(cwd, ".pi", "readcache", "objects");
  const stored = storedTexts(objects);
  assert.ok(
    stored.some((s) => s.includes("PLAIN, STORED")),
    `the ordinary file is in ${objects}`,
  );
  for (const [name, text] of Object.entries(texts)) {
    const first = text.split("\n")[0];
    assert.ok(!stored.some((s) => s.includes(first)), `${name}'s text is in the store`);
  }
  // nor anywhere else under .pi/readcache
  for (const s of storedTexts(path.join(cwd, ".pi"))) assert.ok(!s.includes("SECRET-"), "a secret under .pi/");
});
