#!/usr/bin/env node
// One side of the differential suite: loads ONE implementation (the reference .node addon or
// our bindings/node package), runs a list of cases in order and appends one JSON line per case
// to the output file (flushed per case, so a crash or hang still leaves partial results).
//
//   node runner.mjs --impl ref:/abs/pi_natives.node|ours:/abs/bindings/node/index.js \
//        --cases group.json --out side.jsonl --fixtures DIR --scratch DIR --goroot DIR
//
// Paths in cases use the tokens @@F@@ (shared fixtures), @@W@@ (this case's private fresh
// fixture copy), @@G@@ (GOROOT); the same tokens replace those paths in the recorded results.

import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { buildFixture, setMtime } from "./lib/fixtures.mjs";
import { canon, UNDEF } from "./lib/canon.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const CALL_TIMEOUT_MS = Number(process.env.CONFORMANCE_CALL_TIMEOUT_MS || 30000);

async function loadImpl(spec) {
  const i = spec.indexOf(":");
  const kind = spec.slice(0, i);
  const file = path.resolve(spec.slice(i + 1));
  if (kind === "ref") return createRequire(import.meta.url)(file);
  if (kind === "ours") {
    const ns = await import(pathToFileURL(file).href);
    // Accept both named ESM exports and a default export object.
    const m = {};
    for (const k of ["glob", "fuzzyFind", "grep", "invalidateFsScanCache", "FileType", "GrepOutputMode", "listWorkspace", "cacheStats"])
      m[k] = ns[k] ?? ns.default?.[k];
    return m;
  }
  throw new Error(`bad --impl ${spec}`);
}

const F = args.fixtures;
const G = args.goroot;
const scratch = args.scratch;
let W = null;

function subst(v) {
  if (typeof v === "string") {
    let s = v.split("@@F@@").join(F).split("@@G@@").join(G);
    if (W) s = s.split("@@W@@").join(W);
    return s;
  }
  if (Array.isArray(v)) return v.map(subst);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, subst(x)]));
  return v;
}

function unsubst(v) {
  if (typeof v === "string") {
    let s = v;
    if (W) s = s.split(W).join("@@W@@");
    return s.split(F).join("@@F@@").split(G).join("@@G@@");
  }
  if (Array.isArray(v)) return v.map(unsubst);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unsubst(x)]));
  return v;
}

const KNOWN_PREFIXES = ["Path not found:", "Search path must be a directory", "Invalid glob pattern:", "Regex error:", "Aborted: Timeout", "Aborted: Signal"];
export function errorPrefix(msg) {
  // 18.2.x prefixes every failure with napi-rs's status ("GenericFailure, Aborted: Signal").
  msg = msg.replace(/^GenericFailure, /, "");
  for (const p of KNOWN_PREFIXES) if (msg.startsWith(p)) return p;
  const i = msg.indexOf(":");
  return i >= 0 ? msg.slice(0, i + 1) : msg;
}

function describeError(e, sync) {
  const message = e instanceof Error ? e.message : typeof e === "string" ? e : JSON.stringify(e);
  return { prefix: errorPrefix(unsubst(String(message))), message: unsubst(String(message)), isError: e instanceof Error, sync };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let callTimeoutMs = CALL_TIMEOUT_MS;

async function runCall(m, step) {
  const fn = m[step.fn];
  if (typeof fn !== "function") return { error: { prefix: `HARNESS: ${step.fn} is not exported`, message: "", isError: false, sync: true } };
  let options = subst(step.options);
  if (step.signal === "aborted") {
    const ac = new AbortController();
    ac.abort();
    options = { ...options, signal: ac.signal };
  } else if (step.signal === "live") {
    options = { ...options, signal: new AbortController().signal };
  }
  const delivered = [];
  const cb = (err, x) => delivered.push(err ? { err: describeError(err, false) } : x);
  const callArgs = step.rawArgs ? subst(step.rawArgs) : step.onMatch ? [options, cb] : [options];
  let promise;
  const rec = {};
  try {
    promise = fn(...callArgs);
  } catch (e) {
    rec.error = describeError(e, true);
  }
  if (!rec.error) {
    if (!(promise && typeof promise.then === "function")) {
      rec.notPromise = true;
      rec.ok = promise;
    } else {
      let timer;
      const res = await Promise.race([
        promise.then((v) => ({ v }), (e) => ({ e })),
        new Promise((r) => (timer = setTimeout(() => r({ timeout: true }), callTimeoutMs))),
      ]);
      clearTimeout(timer);
      if (res.timeout) rec.error = { prefix: "HARNESS: call did not settle", message: `after ${callTimeoutMs} ms`, isError: false, sync: false };
      else if ("e" in res) rec.error = describeError(res.e, false);
      else rec.ok = res.v;
    }
  }
  if (step.onMatch) {
    // Callbacks queued from native threads may still arrive after the promise settles (the
    // reference delivers most of them late): wait until the count is stable for 60 ms.
    let last = -1;
    let stableSince = Date.now();
    const t0 = Date.now();
    while (Date.now() - stableSince < 60 && Date.now() - t0 < 3000) {
      await sleep(10);
      if (delivered.length !== last) {
        last = delivered.length;
        stableSince = Date.now();
      }
    }
    // Order of delivery is not part of the contract: compare as a multiset.
    rec.onMatch = delivered.map((x) => canon(unsubst(x))).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  }
  if ("ok" in rec) rec.ok = canon(unsubst(rec.ok));
  return rec;
}

async function runStep(m, step) {
  const p = (x) => path.resolve(process.cwd(), subst(x));
  switch (step.op) {
    case "call":
      return runCall(m, step);
    case "invalidate": {
      try {
        const r = "path" in step ? m.invalidateFsScanCache(subst(step.path)) : m.invalidateFsScanCache();
        return { ok: r === undefined ? UNDEF : canon(r) };
      } catch (e) {
        return { error: describeError(e, true) };
      }
    }
    case "write": {
      fs.mkdirSync(path.dirname(p(step.path)), { recursive: true });
      fs.writeFileSync(p(step.path), step.content ?? "");
      if (step.mtime !== undefined) setMtime(p(step.path), step.mtime);
      return null;
    }
    case "mkdir":
      fs.mkdirSync(p(step.path), { recursive: true });
      return null;
    case "rm":
      fs.rmSync(p(step.path), { recursive: true, force: true });
      return null;
    case "rename":
      fs.renameSync(p(step.from), p(step.to));
      return null;
    case "symlink":
      fs.symlinkSync(subst(step.target), p(step.path));
      return null;
    case "sleep":
      await sleep(step.ms);
      return null;
    case "chdir":
      process.chdir(p(step.path));
      return null;
    default:
      throw new Error(`unknown op ${step.op}`);
  }
}

async function main() {
  const m = await loadImpl(args.impl);
  const cases = JSON.parse(fs.readFileSync(args.cases, "utf8"));
  const out = fs.openSync(args.out, "w");
  for (const c of cases) {
    const t0 = Date.now();
    let record;
    try {
      if (typeof m.invalidateFsScanCache === "function") m.invalidateFsScanCache();
      W = null;
      callTimeoutMs = c.callTimeoutMs ?? CALL_TIMEOUT_MS;
      if (c.fresh) {
        W = path.join(scratch, c.id.replace(/[^A-Za-z0-9_.-]+/g, "_"));
        buildFixture(c.fresh, W, { fixtures: F });
      }
      process.chdir(subst(c.cwd ?? (W ? "@@W@@" : "@@F@@")));
      const steps = c.steps ?? [{ op: "call", ...c.call }];
      const results = [];
      for (const s of steps) {
        const r = await runStep(m, s);
        if (r !== null) results.push(r);
      }
      record = { id: c.id, results };
    } catch (e) {
      record = { id: c.id, results: [{ error: { prefix: "HARNESS: step failed", message: String(e?.stack ?? e), isError: false, sync: true } }] };
    }
    record.ms = Date.now() - t0;
    fs.writeSync(out, JSON.stringify(record) + "\n");
  }
  fs.closeSync(out);
  // The driver's --expect-index: what grep's content index served.
  if (process.env.FSCACHE_CONF_INDEX_STATS && typeof m.cacheStats === "function")
    fs.writeFileSync(args.out + ".stats.json", JSON.stringify(m.cacheStats().grepIndex ?? null));
  process.exit(0);
}

main().catch((e) => {
  console.error(e?.stack ?? e);
  process.exit(2);
});
