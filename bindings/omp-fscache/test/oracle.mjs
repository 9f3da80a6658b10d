// The oracle: the model's copy of each file rebuilt from what a request
// actually carries (the provider's recorded context: visible content only,
// never details), and every marker and diff in it checked against that copy
// and against the file as it was when the read ran.
//
// Written apart from the package (no import of it or of readcache-view):
// it reads the model-facing text as a model would.

import { resolve } from "node:path";

const HEADER_RE = /^\[(.+)#([0-9A-F]{4})\]$/;
const ROW_RE = /^([1-9][0-9]*):(.*)$/;
const HUNK_RE = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$/;

/** The text of a tool result the model sees (one text block), else undefined. */
function visibleText(m) {
  if (!Array.isArray(m.content) || m.content.length !== 1 || m.content[0]?.type !== "text") return undefined;
  return m.content[0].text;
}

export class Oracle {
  /**
   * cwd: the session's; truth: toolCallId -> the file's lines when that
   * read ran (the test records them).
   */
  constructor(cwd, truth) {
    this.cwd = cwd;
    this.truth = truth;
    this.seen = new Set();
  }

  nameOf(arg) {
    return resolve(this.cwd, arg.split(":")[0]);
  }

  /**
   * Checks one request's messages. Returns {violations: [string], copy:
   * Map name -> Map line -> text, tags: Map name -> latest TAG, markers,
   * diffs}.
   */
  check(messages) {
    const copy = new Map();
    const tags = new Map();
    const calls = new Map();
    const views = new Map(); // name \0 selector -> the truth of the latest visible text read of it
    const violations = [];
    let markers = 0;
    let diffs = 0;
    const fail = (id, why) => {
      violations.push(`${id}: ${why}`);
    };
    for (const m of messages) {
      if (m.role === "assistant" && Array.isArray(m.content)) {
        for (const c of m.content) if (c?.type === "toolCall" && c.name === "read") calls.set(c.id, c.arguments);
        continue;
      }
      if (m.role !== "toolResult" || !calls.has(m.toolCallId) || m.isError) continue;
      const args = calls.get(m.toolCallId);
      const text = visibleText(m);
      if (text === undefined) continue;
      const lines = text.split("\n");
      const hm = HEADER_RE.exec(lines[0]);
      if (!hm) continue;
      const name = this.nameOf(args.path);
      tags.set(name, hm[2]);
      const truth = this.truth.get(m.toolCallId);
      const held = copy.get(name);
      const sel = args.path.includes(":") ? args.path.slice(args.path.indexOf(":") + 1) : "";
      const viewKey = `${name}\0${sel}`;
      if (lines[1]?.startsWith("[fscache: unchanged: the same output as your last read")) {
        markers++;
        const base = views.get(viewKey);
        if (!base) fail(m.toolCallId, `marker for ${args.path}: no earlier read of it is visible`);
        else if (truth && (base.length !== truth.length || base.some((t, k) => t !== truth[k]))) fail(m.toolCallId, `marker for ${args.path}: the file changed since the visible read it stands on`);
        continue;
      }
      if (lines[1]?.startsWith("[fscache: unchanged")) {
        markers++;
        const r = /rows (\d+)-(\d+)/.exec(lines[1]);
        if (!r) {
          fail(m.toolCallId, `a marker the oracle cannot read: ${lines[1]}`);
          continue;
        }
        const a = Number(r[1]);
        const b = Number(r[2]);
        for (let n = a; n <= b; n++) {
          if (!held || !held.has(n)) {
            fail(m.toolCallId, `marker for ${args.path} rows ${a}-${b}: line ${n} is not in the model's copy`);
            break;
          }
          if (truth && held.get(n) !== truth[n - 1]) {
            fail(m.toolCallId, `marker for ${args.path} rows ${a}-${b}: line ${n} is ${JSON.stringify(truth[n - 1])}, the model holds ${JSON.stringify(held.get(n))}`);
            break;
          }
        }
        if (truth && /all (\d+) lines/.test(lines[1]) && truth.length !== b) fail(m.toolCallId, `whole-file marker for ${b} lines, the file had ${truth.length}`);
        continue;
      }
      if (lines[1]?.startsWith("[fscache: changed")) {
        diffs++;
        const r = /since you read lines 1-(\d+); the file now has (\d+) lines/.exec(lines[1]);
        if (!r) {
          fail(m.toolCallId, `a diff the oracle cannot read: ${lines[1]}`);
          continue;
        }
        const base = Number(r[1]);
        const now = Number(r[2]);
        const baseLines = [];
        let ok = true;
        for (let n = 1; n <= base; n++) {
          if (!held || !held.has(n)) {
            fail(m.toolCallId, `diff for ${args.path} on lines 1-${base}: line ${n} is not in the model's copy`);
            ok = false;
            break;
          }
          baseLines.push(held.get(n));
        }
        if (!ok) {
          copy.delete(name);
          continue;
        }
        // Apply: hunk rows " N:text" (kept), "+N:text" (added), "-text" (removed).
        const out = [];
        let o = 1;
        for (let i = 2; i < lines.length && ok; i++) {
          const l = lines[i];
          const h = HUNK_RE.exec(l);
          if (h) {
            const os = Number(h[2]) === 0 ? Number(h[1]) + 1 : Number(h[1]);
            while (o < os) out.push(baseLines[o++ - 1]);
            continue;
          }
          if (l[0] === "-") {
            if (baseLines[o - 1] !== l.slice(1)) {
              fail(m.toolCallId, `diff for ${args.path}: removed line ${o} is not what the model holds`);
              ok = false;
            }
            o++;
            continue;
          }
          const row = /^([ +])([1-9][0-9]*):(.*)$/.exec(l);
          if (!row) {
            fail(m.toolCallId, `diff for ${args.path}: unreadable row ${JSON.stringify(l)}`);
            ok = false;
            break;
          }
          if (Number(row[2]) !== out.length + 1) {
            fail(m.toolCallId, `diff for ${args.path}: row numbered ${row[2]} is line ${out.length + 1} of the new side`);
            ok = false;
          }
          if (row[1] === " ") {
            if (baseLines[o - 1] !== row[3]) {
              fail(m.toolCallId, `diff for ${args.path}: context line ${o} is not what the model holds`);
              ok = false;
            }
            o++;
          }
          out.push(row[3]);
        }
        while (ok && o <= base) out.push(baseLines[o++ - 1]);
        if (ok && out.length !== now) fail(m.toolCallId, `diff for ${args.path}: gives ${out.length} lines, says ${now}`);
        if (ok && truth && (out.length !== truth.length || out.some((t, k) => t !== truth[k]))) fail(m.toolCallId, `diff for ${args.path}: the model's patched copy is not the file`);
        if (ok) copy.set(name, new Map(out.map((t, k) => [k + 1, t])));
        else copy.delete(name);
        continue;
      }
      // omp's own output: its N:text rows.
      if (truth) views.set(viewKey, truth);
      else views.delete(viewKey);
      const rows = [];
      for (const l of lines.slice(1)) {
        const r = ROW_RE.exec(l);
        if (r) rows.push([Number(r[1]), r[2]]);
      }
      if (rows.length === 0) continue;
      const whole = !args.path.includes(":");
      const c = whole || !held ? new Map() : held;
      for (const [n, t] of rows) c.set(n, t);
      copy.set(name, c);
    }
    const fresh = violations.filter((v) => !this.seen.has(v));
    for (const v of fresh) this.seen.add(v);
    return { violations: fresh, copy, tags, markers, diffs };
  }
}
