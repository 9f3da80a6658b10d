// Which pi the tools answer as (issue 43): src/tools/host.js probes the
// host's find and ls definitions with custom operations. On each line the
// probe finds that line's behaviour; stand-in definitions that behave as
// either line, or neither, are told apart; and the overrides carry every
// field of the host's definitions.
import assert from "node:assert/strict";
import { test } from "node:test";

const { pi, LINE } = await import("./pi-line.mjs");
const { CURRENT, LEGACY, hostBehaviour, probeFind, probeHost, probeLs } = await import("../src/tools/host.js");
const { createFindOverride } = await import("../src/tools/find.js");
const { createGrepOverride } = await import("../src/tools/grep.js");
const { createLsOverride } = await import("../src/tools/ls.js");

test(`the host's tools are found to be pi ${LINE}'s`, async () => {
  assert.deepEqual(await hostBehaviour(), LINE === "1" ? CURRENT : LEGACY);
  assert.deepEqual(await probeHost({ createFind: pi.createFindToolDefinition, createLs: pi.createLsToolDefinition }), LINE === "1" ? CURRENT : LEGACY);
});

// Stand-ins for the built-ins' custom-operations paths, reduced to what the
// probes look at.
const findAs = (asked) => (_cwd, { operations }) => ({
  async execute(_id, { limit, path }) {
    await operations.exists(path);
    await operations.glob("x", path, { limit: asked(limit) });
    return { content: [{ type: "text", text: "No files found matching pattern" }] };
  },
});
const lsAs = (resolve, clamp) => (_cwd, { operations }) => ({
  async execute(_id, { path, limit }) {
    const dir = resolve(path);
    await operations.exists(dir);
    const entries = (await operations.readdir(dir)).sort();
    const n = clamp ? Math.max(1, Math.floor(limit)) : limit;
    const shown = entries.slice(0, n);
    if (shown.length === 0) return { content: [{ type: "text", text: "(empty directory)" }] };
    const more = entries.length > n ? `\n\n[${n} entries limit reached. Use limit=${n * 2} for more]` : "";
    return { content: [{ type: "text", text: shown.join("\n") + more }] };
  },
});

test("find's probe: a glob asked for one past a limit clamped to 1 is pi 1.x's", async () => {
  assert.equal(await probeFind(findAs((l) => Math.max(1, Math.floor(l)) + 1)), "1");
  assert.equal(await probeFind(findAs((l) => l)), "0.73");
  assert.equal(await probeFind(findAs((l) => l + 1)), "0.73", "one past an unclamped limit: neither line");
  assert.equal(await probeFind(() => ({ execute: async () => { throw new Error("no"); } })), "0.73");
  assert.equal(await probeFind(() => { throw new Error("no factory"); }), "0.73");
});

test("ls's probe: the limit clamped to 1, and paths normalized as pi 1.x's resolvePath", async () => {
  const normalize = () => "/p";
  const asGiven = (p) => p;
  assert.deepEqual(await probeLs(lsAs(normalize, true)), { ls: "1", paths: "1" });
  assert.deepEqual(await probeLs(lsAs(asGiven, false)), { ls: "0.73", paths: "0.73" });
  assert.deepEqual(await probeLs(lsAs(asGiven, true)), { ls: "1", paths: "0.73" });
  assert.deepEqual(await probeLs(lsAs(normalize, false)), { ls: "0.73", paths: "1" });
  assert.deepEqual(await probeLs(() => ({ execute: async () => { throw new Error("no"); } })), { ls: "0.73", paths: "0.73" });
});

test("grep follows find's probe", async () => {
  const h1 = await probeHost({ createFind: findAs((l) => Math.max(1, Math.floor(l)) + 1), createLs: lsAs((p) => p, false) });
  assert.deepEqual(h1, { find: "1", grep: "1", ls: "0.73", paths: "0.73" });
  const h0 = await probeHost({ createFind: findAs((l) => l), createLs: lsAs(() => "/p", true) });
  assert.deepEqual(h0, { find: "0.73", grep: "0.73", ls: "1", paths: "1" });
});

test("the overrides are the host's definitions but for execute", () => {
  for (const [create, override] of [
    [pi.createFindToolDefinition, createFindOverride],
    [pi.createGrepToolDefinition, createGrepOverride],
    [pi.createLsToolDefinition, createLsOverride],
  ]) {
    const base = create("/tmp");
    const ours = override("/tmp");
    assert.deepEqual(Object.keys(ours).sort(), Object.keys(base).sort(), `${base.name}: the same fields`);
    for (const k of Object.keys(base)) {
      if (k === "execute") continue;
      if (typeof base[k] === "function") assert.equal(typeof ours[k], "function", `${base.name}.${k}`);
      else assert.deepEqual(ours[k], base[k], `${base.name}.${k}`);
    }
    assert.notEqual(ours.execute, base.execute);
  }
});
