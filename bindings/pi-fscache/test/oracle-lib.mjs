export const CLEARED = "[old tool output cleared]";

// The oracle's model of what the model holds (issues 44, 48), written
// apart from the package: the model's copy of each file rebuilt from the
// messages a request carries, never from details, and the check of a
// marker, diff or text against it. Shared by read-oracle.test.mjs and the
// real-session suites.

export const NOTICE = /\n\n\[(?:Showing lines \d+-\d+ of \d+[^\]\n]*|\d+ more lines? in file\. Use offset=\d+ to continue\.)\]$/;
// a marker, and pi's notice after it when the read was truncated
export const MARKER = /^\[readcache: unchanged(?:, \d+ lines| in lines \d+-\d+(?: of \d+|; changes exist outside this range))\](?:\n\n\[(?:Showing lines \d+-\d+ of \d+[^\]\n]*|\d+ more lines? in file\. Use offset=\d+ to continue\.)\])?$/;
export const DIFF = /^\[readcache: \d+ lines? changed of \d+\]\n/;

/** {file, start} of a read's arguments as the model wrote them (path:a-b is a range). */
export function scopeOf(args) {
  const m = /^(.*):([1-9][0-9]*)(?:-([1-9][0-9]*))?$/.exec(args.path);
  if (m) return { file: m[1], start: Number(m[2]), end: m[3] === undefined ? Number(m[2]) : Number(m[3]), full: false };
  if (args.offset === undefined && args.limit === undefined) return { file: args.path, start: 1, end: Infinity, full: true };
  const start = args.offset ?? 1;
  return { file: args.path, start, end: args.limit === undefined ? Infinity : start + args.limit - 1, full: false };
}
/** pi's own arguments for a read (the shorthand as offset/limit). */
export function piArgs(args) {
  const s = scopeOf(args);
  if (s.full) return { path: s.file };
  const a = { path: s.file, offset: s.start };
  if (s.end !== Infinity) a.limit = s.end - s.start + 1;
  return a;
}
/** The lines a text of pi's read shows: Map line -> text. */
export function shownLines(text, start) {
  const m = new Map();
  const content = text.replace(NOTICE, "");
  content.split("\n").forEach((l, i) => m.set(start + i, l));
  return m;
}
export function parseDiff(text) {
  const hunks = [];
  let h;
  for (const line of text.split("\n").slice(3)) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (m) {
      const b = m[2] === undefined ? 1 : Number(m[2]);
      const d = m[4] === undefined ? 1 : Number(m[4]);
      h = { os: b > 0 ? Number(m[1]) : Number(m[1]) + 1, b, ns: d > 0 ? Number(m[3]) : Number(m[3]) + 1, d, lines: [] };
      hunks.push(h);
    } else if (h && /^[ +-]/.test(line)) h.lines.push(line);
  }
  return hunks;
}
/** Applies a diff to a copy; returns {copy, bad: [old line numbers that disagreed]}. */
export function patch(copy, hunks) {
  const out = new Map();
  const bad = [];
  const inHunk = (n) => hunks.some((h) => n >= h.os && n < h.os + h.b);
  for (const h of hunks) {
    let o = h.os;
    let n = h.ns;
    for (const l of h.lines) {
      const t = l.slice(1);
      if (l[0] === " " || l[0] === "-") {
        if (copy.has(o) && copy.get(o) !== t) bad.push(o);
        if (l[0] === " ") out.set(n++, t);
        o++;
      } else out.set(n++, t);
    }
  }
  for (const [n, t] of copy) {
    if (inHunk(n)) continue;
    let shift = 0;
    for (const h of hunks) if (h.os + h.b - 1 < n) shift += h.d - h.b;
    if (!out.has(n + shift)) out.set(n + shift, t);
  }
  return { copy: out, bad };
}

/** The model's copies (file -> Map) from the visible messages before index `upto`. */
export function copiesFrom(messages, upto) {
  const calls = new Map();
  const copies = new Map();
  for (let i = 0; i < upto; i++) {
    const m = messages[i];
    if (m.role === "assistant" && Array.isArray(m.content)) {
      for (const c of m.content) if (c.type === "toolCall" && c.name === "read") calls.set(c.id, c.arguments);
    } else if (m.role === "toolResult" && m.toolName === "read" && !m.isError) {
      const args = calls.get(m.toolCallId);
      if (!args) continue; // the model does not know what this answers
      apply(copies, args, textOf(m.content));
    }
  }
  return copies;
}
export const textOf = (content) => (Array.isArray(content) ? content.filter((c) => c.type === "text").map((c) => c.text).join("") : String(content ?? ""));
export function apply(copies, args, text) {
  if (text === CLEARED) return;
  const s = scopeOf(args);
  if (MARKER.test(text)) return;
  if (DIFF.test(text)) {
    copies.set(s.file, patch(copies.get(s.file) ?? new Map(), parseDiff(text)).copy);
    return;
  }
  const shown = shownLines(text, s.start);
  if (s.full) copies.set(s.file, shown);
  else {
    const c = copies.get(s.file) ?? new Map();
    for (const [n, t] of shown) c.set(n, t);
    copies.set(s.file, c);
  }
}

/**
 * Checks one answer against the copy before it; snap is the file as it
 * was when the read ran ({lines, pi: pi's read text then}). Returns a
 * description of the violation, or undefined.
 */
export function check(copies, args, text, snap) {
  if (text === CLEARED) return undefined;
  const s = scopeOf(args);
  const copy = copies.get(s.file) ?? new Map();
  const now = snap.lines.concat([""]); // text.split("\n"): the trailing newline's empty line
  if (MARKER.test(text)) {
    const shown = shownLines(snap.pi, s.start);
    for (const [n, t] of shown) if (copy.get(n) !== t) return `marker ${text.split("\n")[0]} for ${JSON.stringify(args)}: line ${n} is ${JSON.stringify(t)}, the model holds ${JSON.stringify(copy.get(n))}`;
    return undefined;
  }
  if (DIFF.test(text)) {
    const { copy: after, bad } = patch(copy, parseDiff(text));
    if (bad.length) return `diff for ${JSON.stringify(args)} contradicts the model's lines ${bad.slice(0, 5)}`;
    for (const [n, t] of after) if (now[n - 1] !== t) return `diff for ${JSON.stringify(args)} leaves line ${n} as ${JSON.stringify(t)}, the file has ${JSON.stringify(now[n - 1])}`;
    for (const [n, t] of shownLines(snap.pi, 1)) if (after.get(n) !== t) return `diff for ${JSON.stringify(args)} leaves the model without line ${n} (${JSON.stringify(t.slice(0, 40))}), which the read shows`;
    return undefined;
  }
  if (text !== snap.pi) return `text for ${JSON.stringify(args)} is not pi's read's of that time: ${JSON.stringify(text.slice(0, 80))}`;
  return undefined;
}

