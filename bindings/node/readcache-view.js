// The read cache's judge of what the model is sent (issues 48 and 49):
// the line-level copy of each file the model can rebuild from the read
// results a request carries, and the check, before every request, that
// every marker and diff in it stands on lines that copy holds.
//
// Format-agnostic: an agent's package supplies an adapter that says what a
// read result shows (pi's text, omp's hashline rows), and this module keeps
// the copy and judges. The same code runs at read time (which answer the
// model can use: a marker only where the copy holds every line the read
// would show) and before each request (a marker or diff whose base the
// request no longer holds is replaced by the text it stands for).
//
// A file is named as the model named it: the absolute path of the read's
// path argument, symlinks not resolved (a link is another name: the model
// cannot know the two are one file).
//
// The copy of a name is a map line number -> text:
//   - a read that sends text teaches the lines it shows; a whole-file read
//     replaces the copy (lines it did not show are unknown), a range
//     overwrites its lines;
//   - a diff patches the copy (lines outside its hunks shift with it);
//   - a marker teaches nothing: it is valid when the copy holds, at that
//     point, exactly the lines it vouches for (their digest is recorded
//     when it is served);
//   - a diff is valid when the copy holds the base lines it stands on
//     (their digest, recorded when it is served);
//   - a result the adapter cannot read (rewritten by another extension,
//     pruned) teaches nothing; an opaque read of a name forgets it.
//
// A Judge keeps what it found for the last request and, when the next one
// begins with the same messages, judges only the new ones; issuingTail
// finds, in a session tree with parent links (pi's and omp's), the message
// that made a read's call, or none (a program's call).
//
// Nothing here reads files, calls the engine or knows an agent.

import { createHash } from "node:crypto";

/**
 * The digest of lines start..end (contiguous) as the model holds them:
 * sha256 over the range and the lines' text. `lines` is an array of the
 * texts of lines start, start+1, ...
 */
function digestOf(start, lines) {
  // One string, hashed once: an update per line cost 6-10 times as much.
  const s = `${start}:${lines.length}\n${lines.join("\n")}\n`;
  return BunHasher ? new BunHasher("sha256").update(s).digest("hex") : createHash("sha256").update(s).digest("hex");
}
// Under Bun (omp), its own hasher: node:crypto's there encodes a string
// several times slower (a 41 KB text: 0.086 ms against 0.024).
const BunHasher = globalThis.Bun?.CryptoHasher;

/**
 * The digest of shown lines ([lineNo, text] pairs, ascending and
 * contiguous), as ModelCopy.digest gives it for the same lines; undefined
 * when they are empty or not contiguous.
 */
export function digestLines(shown) {
  const pairs = [...shown];
  if (pairs.length === 0) return undefined;
  const start = pairs[0][0];
  for (let i = 0; i < pairs.length; i++) if (pairs[i][0] !== start + i) return undefined;
  return digestOf(
    start,
    pairs.map((p) => p[1]),
  );
}

/** [first, last] line numbers of contiguous shown lines, else undefined. */
export function spanOf(shown) {
  const pairs = [...shown];
  if (pairs.length === 0) return undefined;
  const start = pairs[0][0];
  for (let i = 0; i < pairs.length; i++) if (pairs[i][0] !== start + i) return undefined;
  return [start, start + pairs.length - 1];
}

const HUNK_RE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * The hunks of a unified diff's text (lines before the first "@@" are
 * skipped: a header, "---"/"+++"): [{os, b, ns, d, lines}], os/ns the first
 * old/new line the hunk covers, b/d its old/new line counts, lines its
 * " x", "-x", "+x" rows ("\ No newline" rows skipped).
 */
export function parseUnifiedDiff(text) {
  const hunks = [];
  let h;
  for (const line of String(text).split("\n")) {
    const m = HUNK_RE.exec(line);
    if (m) {
      const b = m[2] === undefined ? 1 : Number(m[2]);
      const d = m[4] === undefined ? 1 : Number(m[4]);
      h = { os: b > 0 ? Number(m[1]) : Number(m[1]) + 1, b, ns: d > 0 ? Number(m[3]) : Number(m[3]) + 1, d, lines: [] };
      hunks.push(h);
    } else if (h && (line[0] === " " || line[0] === "-" || line[0] === "+")) h.lines.push(line);
  }
  return hunks;
}

/**
 * The old lines [first, last] a diff's hunks show (as context or removed):
 * the lines of the base it stands on, at the least. undefined when none.
 */
export function hunkSpan(hunks) {
  let first = Infinity;
  let last = -Infinity;
  for (const h of hunks) {
    if (h.b === 0) continue;
    first = Math.min(first, h.os);
    last = Math.max(last, h.os + h.b - 1);
  }
  return first <= last ? [first, last] : undefined;
}

/** The model's line-level copy of the files it was sent. */
export class ModelCopy {
  constructor() {
    /** @type {Map<string, Map<number, string>>} */
    this.files = new Map();
    // Names whose line maps another copy shares (clone and subset share
    // them, and the first change of one takes its own): copying stays
    // O(files), not O(lines held).
    this.shared = new Set();
  }

  // name's line map, this copy's own (to change it).
  own(name) {
    const c = this.files.get(name);
    if (c && this.shared.has(name)) {
      const mine = new Map(c);
      this.files.set(name, mine);
      this.shared.delete(name);
      return mine;
    }
    return c;
  }

  /** The lines held of name (line number -> text), or undefined. Do not modify. */
  lines(name) {
    return this.files.get(name);
  }

  /**
   * A read that sent text showed these lines ([lineNo, text] pairs).
   * replace: it showed the file as a whole (a whole-file read, truncated
   * or not): the copy becomes exactly these lines.
   */
  learn(name, shown, { replace = false } = {}) {
    let c = replace ? undefined : this.own(name);
    if (!c) {
      c = new Map();
      this.files.set(name, c);
      this.shared.delete(name);
    }
    for (const [n, t] of shown) c.set(n, t);
  }

  /**
   * Applies a unified diff's hunks to name's copy: the hunks' new lines
   * replace their old ones, lines outside them shift. Returns false (and
   * forgets name) when a hunk's old line disagrees with a line the copy
   * holds.
   */
  applyDiff(name, hunks) {
    const copy = this.files.get(name) ?? new Map();
    const out = new Map();
    for (const h of hunks) {
      let o = h.os;
      let n = h.ns;
      for (const l of h.lines) {
        const t = l.slice(1);
        if (l[0] === " " || l[0] === "-") {
          if (copy.has(o) && copy.get(o) !== t) {
            this.forget(name);
            return false;
          }
          if (l[0] === " ") out.set(n++, t);
          o++;
        } else out.set(n++, t);
      }
    }
    const sorted = [...hunks].sort((a, b) => a.os - b.os);
    for (const [line, t] of copy) {
      let shift = 0;
      let inside = false;
      for (const h of sorted) {
        if (line >= h.os && line < h.os + h.b) {
          inside = true;
          break;
        }
        if (h.os + h.b - 1 < line) shift += h.d - h.b;
      }
      if (inside) continue;
      if (!out.has(line + shift)) out.set(line + shift, t);
    }
    this.files.set(name, out);
    this.shared.delete(name);
    return true;
  }

  /** Forgets name's copy. */
  forget(name) {
    this.files.delete(name);
    this.shared.delete(name);
  }

  /** The digest of the copy's lines start..end (digestLines'), or undefined when any is not held. */
  digest(name, start, end) {
    const c = this.files.get(name);
    if (!c || !(start >= 1) || !(end >= start)) return undefined;
    const lines = [];
    for (let n = start; n <= end; n++) {
      const t = c.get(n);
      if (t === undefined) return undefined;
      lines.push(t);
    }
    return digestOf(start, lines);
  }

  /** Whether the copy holds every shown line ([lineNo, text]) with that text; false for none. */
  holdsAll(name, shown) {
    const c = this.files.get(name);
    if (!c) return false;
    let any = false;
    for (const [n, t] of shown) {
      if (c.get(n) !== t) return false;
      any = true;
    }
    return any;
  }

  /** The length of the contiguous run of lines held from line 1 (0: line 1 is not held). */
  prefix(name) {
    const c = this.files.get(name);
    if (!c) return 0;
    let n = 0;
    while (c.has(n + 1)) n++;
    return n;
  }

  /** A copy of the given names' lines only (the others are not held in it); changing either leaves the other as it is. */
  subset(...names) {
    const k = new ModelCopy();
    for (const name of names) {
      const c = this.files.get(name);
      if (c) {
        k.files.set(name, c);
        k.shared.add(name);
        this.shared.add(name);
      }
    }
    return k;
  }

  /** A copy; changing either leaves the other as it is (line maps are copied on their first change). */
  clone() {
    return this.subset(...this.files.keys());
  }
}

/**
 * Whether a record stands on the copy: a marker when the copy holds its
 * lines (digest), a diff when the copy holds its base lines (baseDigest).
 * Text and opaque records always stand.
 */
export function stands(copy, rec) {
  if (rec.kind === "marker") return typeof rec.digest === "string" && copy.digest(rec.name, rec.start, rec.end) === rec.digest;
  if (rec.kind === "diff") return typeof rec.baseDigest === "string" && copy.digest(rec.name, rec.baseStart, rec.baseEnd) === rec.baseDigest;
  return true;
}

/** Applies a record that stands to the copy. */
export function applyRecord(copy, rec) {
  switch (rec.kind) {
    case "text":
      copy.learn(rec.name, rec.shown, { replace: rec.replace === true });
      break;
    case "diff":
      copy.applyDiff(rec.name, rec.hunks);
      break;
    case "opaque":
      copy.forget(rec.name);
      break;
    default:
      break; // a marker teaches nothing; "none" neither
  }
}

/**
 * The read results of a request's messages whose call an earlier message
 * of the list made, in order: [index, message, args]. (A result whose call
 * is not in the list teaches nothing: the model cannot tell what it
 * answers.)
 */
function* visibleResults(messages, adapter, from = 0, calls = new Map()) {
  for (let i = from; i < messages.length; i++) {
    const m = messages[i];
    if (!m || typeof m !== "object") continue;
    if (m.role === "assistant") {
      for (const c of adapter.readCalls(m) ?? []) if (c && typeof c.id === "string") calls.set(c.id, c.args);
    } else if (m.role === "toolResult" && calls.has(m.toolCallId)) yield [i, m, calls.get(m.toolCallId)];
  }
}

/** adapter, with the records of names other than name left out (a read that decides for one file rebuilds only its copy). */
export function onlyName(adapter, name) {
  return {
    ...adapter,
    record(m, args) {
      const r = adapter.record(m, args);
      return r && r.name === name ? r : undefined;
    },
  };
}

/**
 * Walks a request's messages in order and rebuilds the model's copy.
 * adapter.readCalls(assistantMessage) -> [{id, args}] names the read calls
 * the model made; adapter.record(resultMessage, args) -> a record (or
 * undefined: not a read result the copy depends on):
 *   {name, kind: "text", shown: [[lineNo, text], ...], replace}
 *   {name, kind: "marker", start, end, digest}
 *   {name, kind: "diff", baseStart, baseEnd, baseDigest, hunks}
 *   {name, kind: "opaque"}                      (forgets name)
 *   {kind: "none"}                              (teaches nothing)
 * onFalls(index, message, record), when given, is called for each marker
 * or diff that does not stand, which then teaches nothing. Returns the
 * copy.
 */
export function rebuild(messages, adapter, { copy = new ModelCopy(), onFalls } = {}) {
  for (const [i, m, args] of visibleResults(messages, adapter)) {
    const rec = adapter.record(m, args);
    if (!rec) continue;
    if (!stands(copy, rec)) {
      onFalls?.(i, m, rec);
      continue;
    }
    applyRecord(copy, rec);
  }
  return copy;
}

/**
 * Judges a request's messages: every marker or diff that does not stand on
 * the copy at its point is replaced by adapter.replace(message, record,
 * args), a Promise of the message to send instead (the text it stands for),
 * whose own record then goes into the copy. Returns {messages, replaced,
 * copy}: messages is a new array when anything was replaced (the messages
 * themselves are never modified), else the one given.
 */
export async function judge(messages, adapter) {
  return new Judge().judge(messages, adapter);
}

/**
 * judge() across the requests of one conversation. A request whose
 * messages begin with all of the last one's (adapter.same(a, b) for each:
 * the same message showing the same thing; without adapter.same, the same
 * objects) is judged from where the last one ended, on the copy, the calls
 * and the replacements kept from it: the same answer as judge(), in the
 * time of the new messages. Anything else is judged whole.
 */
export class Judge {
  constructor() {
    this.last = undefined;
  }

  /** Forgets the last request (the next one is judged whole). */
  reset() {
    this.last = undefined;
  }

  /** judge(messages, adapter), resumed when it can be; also returns resumedAt (the index walked from). */
  async judge(messages, adapter) {
    const same = typeof adapter.same === "function" ? adapter.same : (a, b) => a === b;
    const prev = this.last;
    this.last = undefined; // a failure below leaves nothing to resume from
    let from = 0;
    let copy;
    let calls;
    let fixed;
    let out = messages;
    if (prev && prev.inputs.length > 0 && prev.inputs.length <= messages.length && prev.inputs.every((m, i) => same(m, messages[i]))) {
      from = prev.inputs.length;
      copy = prev.copy.clone();
      calls = new Map(prev.calls);
      fixed = new Map(prev.fixed);
      if (fixed.size > 0) {
        out = messages.slice();
        for (const [i, m] of fixed) out[i] = m;
      }
    } else {
      copy = new ModelCopy();
      calls = new Map();
      fixed = new Map();
    }
    for (const [i, m, args] of visibleResults(messages, adapter, from, calls)) {
      let rec = adapter.record(m, args);
      if (!rec) continue;
      if (!stands(copy, rec)) {
        const sent = await adapter.replace(m, rec, args);
        if (out === messages) out = messages.slice();
        out[i] = sent;
        fixed.set(i, sent);
        rec = sent ? adapter.record(sent, args) : undefined;
        if (!rec || !stands(copy, rec)) rec = { name: rec?.name, kind: rec?.name ? "opaque" : "none" };
      }
      applyRecord(copy, rec);
    }
    this.last = { inputs: messages.slice(), copy, calls, fixed };
    return { messages: out, replaced: fixed.size, copy, resumedAt: from };
  }
}

/**
 * The session entries from the assistant message that issued toolCallId to
 * the leaf (root-to-leaf order), walking parent links back from the leaf of
 * a session manager with getLeafId() and getEntry(id) (pi's and omp's; one
 * with only getBranch() is walked from its end), at most lookback entries;
 * undefined when no assistant message within reach made the call (a
 * program's call: no message the model sees asked for it).
 */
export function issuingTail(sm, toolCallId, lookback = 256) {
  if (typeof toolCallId !== "string" || !sm) return undefined;
  const issues = (e) => {
    const m = e && e.type === "message" ? e.message : undefined;
    return m && m.role === "assistant" && Array.isArray(m.content) && m.content.some((c) => c && c.type === "toolCall" && c.id === toolCallId);
  };
  const tail = [];
  if (typeof sm.getLeafId === "function" && typeof sm.getEntry === "function") {
    let id = sm.getLeafId();
    for (let steps = 0; id && steps < lookback; steps++) {
      const e = sm.getEntry(id);
      if (!e) return undefined;
      tail.push(e);
      if (issues(e)) return tail.reverse();
      id = e.parentId;
    }
    return undefined;
  }
  if (typeof sm.getBranch !== "function") return undefined;
  const branch = sm.getBranch();
  for (let i = branch.length - 1; i >= 0 && i >= branch.length - lookback; i--) {
    tail.push(branch[i]);
    if (issues(branch[i])) return tail.reverse();
  }
  return undefined;
}
