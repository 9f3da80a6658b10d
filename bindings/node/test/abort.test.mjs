// AbortError: a call cancelled by its AbortSignal rejects with an Error whose
// name is "AbortError" and whose message stays "Aborted: Signal" (how the
// agent's tools recognise aborts; pi-natives' newest tests expect it), for
// every function, whether the signal was aborted before the call, fired
// while the native work ran, or fired after the native work finished but
// before the promise settled. Runs under `node --test` and `bun test`.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const isBun = typeof globalThis.Bun !== "undefined";
const runner = isBun ? await import("bun:test") : await import("node:test");
const { describe } = runner;
const beforeAll = isBun ? runner.beforeAll : runner.before;
const afterAll = isBun ? runner.afterAll : runner.after;
function it(name, fn, timeout = 30_000) {
  if (isBun) runner.test(name, fn, timeout);
  else runner.test(name, { timeout }, fn);
}

const { glob, fuzzyFind, grep, listWorkspace } = await import("../index.js");

let root;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "fscache-abort-"));
  for (let d = 0; d < 20; d++) {
    fs.mkdirSync(path.join(root, `d${d}`));
    for (let f = 0; f < 50; f++) fs.writeFileSync(path.join(root, `d${d}`, `f${f}.txt`), "needle\n".repeat(20));
  }
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const calls = {
  glob: (signal) => glob({ pattern: "**/*.txt", path: root, signal }),
  fuzzyFind: (signal) => fuzzyFind({ query: "f1", path: root, signal }),
  grep: (signal) => grep({ pattern: "needle", path: root, signal }),
  listWorkspace: (signal) => listWorkspace({ path: root, maxDepth: 3, collectAgentsMd: true, signal }),
};

async function expectAbortError(promise) {
  await assert.rejects(promise, (err) => {
    assert.ok(err instanceof Error, "an Error");
    assert.equal(err.name, "AbortError");
    assert.equal(err.message, "Aborted: Signal");
    return true;
  });
}

/** Blocks the JS thread (not the native work) for ms milliseconds. */
function blockFor(ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    /* spin */
  }
}

for (const [name, run] of Object.entries(calls)) {
  describe(`${name} AbortError`, () => {
    it("already-aborted signal", async () => {
      await expectAbortError(run(AbortSignal.abort()));
    });

    it("signal fired right after the call started", async () => {
      const ac = new AbortController();
      const p = run(ac.signal);
      ac.abort();
      await expectAbortError(p);
    });

    it("signal fired after the native work finished, before the promise settled", async () => {
      // The walk of this small tree ends long before the JS thread is free
      // again; the promise settles only on a later turn, after abort().
      const ac = new AbortController();
      const p = run(ac.signal);
      blockFor(300);
      ac.abort();
      await expectAbortError(p);
    });

    it("signal fired after the promise settled changes nothing", async () => {
      const ac = new AbortController();
      const value = await run(ac.signal);
      ac.abort();
      assert.ok(value && typeof value === "object");
    });

    it("a signal that never fires leaves the result alone", async () => {
      const value = await run(new AbortController().signal);
      assert.ok(value && typeof value === "object");
    });

    it("a timeout is not an AbortError", async () => {
      const opts = { timeoutMs: 0 };
      const p =
        name === "glob" ? glob({ pattern: "*", path: root, ...opts })
        : name === "fuzzyFind" ? fuzzyFind({ query: "f", path: root, ...opts })
        : name === "grep" ? grep({ pattern: "x", path: root, ...opts })
        : listWorkspace({ path: root, maxDepth: 1, ...opts });
      await assert.rejects(p, (err) => {
        assert.equal(err.name, "Error");
        assert.equal(err.message, "Aborted: Timeout");
        return true;
      });
    });
  });
}
