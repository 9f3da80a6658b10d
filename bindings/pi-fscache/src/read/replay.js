// The read cache's trust, rebuilt from what the model will see next
// (seed 001, §7; issue 44). Nothing here reads files or calls the engine.
//
// The window: the entries of the current branch as pi puts them in the
// model's context. Where the session manager has pi's own projection
// (pi 1.x: buildSessionProjection, feature-detected), that projection:
// the latest compaction's window, context edits applied (an omitted entry
// is gone, a replaced one has its new content). Otherwise pi 0.73's rule
// (§7.1, seed 004): from the latest compaction's firstKeptEntryId when
// that entry is on the path before it, else right after it; context_edit
// entries in that window are applied the way pi 1.x applies them.
//
// The chain rule: a read result anchors a hash for its scope only when the
// model can rebuild that text from what it sees:
//   - the read's call is visible before it, and the content the model sees
//     for it still hashes to details.readcache.textHash (the hash of the
//     text served: a context edit, another extension's tool_result handler
//     or pi's projection that changed it leaves it anchoring nothing);
//   - a full or full_fallback read anchors by itself (a truncated full read
//     anchors what it showed: a range it did not show is never answered
//     from it, the engine checks that);
//   - an unchanged / unchanged_range marker or a diff anchors only when its
//     baseHash is anchored at that point for its scope (or the full scope).
// Anything else anchors nothing, and the next read of it is served in full.
// A read that sends text (full, full_fallback, diff) drops the anchors of
// overlapping scopes of the same file at another hash (the model's copy of
// those lines changed); nothing else is dropped: trust is lost per read,
// never wholesale (seed 004).

import { createHash } from "node:crypto";

/** The customType of this package's invalidation entries (§4, §17). */
export const CUSTOM_TYPE = "fscache-readcache";

/** The modes a read result's metadata may carry (§4). */
export const MODES = Object.freeze(["full", "unchanged", "unchanged_range", "diff", "full_fallback"]);
const MODE_SET = new Set(MODES);
const HASH_RE = /^[0-9a-f]{64}$/;
const RANGE_RE = /^r:([1-9][0-9]*):([1-9][0-9]*)$/;
const TEXT_MODES = new Set(["full", "full_fallback", "diff"]);

/** sha256 (hex) of a text, as details.readcache.textHash records the text served. */
export function textHashOf(text) {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** [start, end] of a range scope key, else undefined ("full"). */
export function rangeOf(scopeKey) {
  const m = RANGE_RE.exec(scopeKey);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

function overlaps(a, b) {
  return a[0] <= b[1] && b[0] <= a[1];
}

/** Whether s is a scope key: "full" or "r:<start>:<end>" with 1 <= start <= end. */
export function isScopeKey(s) {
  if (s === "full") return true;
  if (typeof s !== "string") return false;
  const m = RANGE_RE.exec(s);
  return m !== null && Number(m[1]) <= Number(m[2]);
}

/**
 * The details.readcache record of a read tool result when it is a valid v1
 * record (§4), else undefined: anything else is ignored (§14).
 */
export function parseMeta(details) {
  const m = details && typeof details === "object" ? details.readcache : undefined;
  if (!m || typeof m !== "object" || m.v !== 1) return undefined;
  if (typeof m.pathKey !== "string" || m.pathKey === "") return undefined;
  if (!isScopeKey(m.scopeKey)) return undefined;
  if (typeof m.servedHash !== "string" || !HASH_RE.test(m.servedHash)) return undefined;
  if (!MODE_SET.has(m.mode)) return undefined;
  return m;
}

/** The invalidation record of a custom entry of this package, else undefined. */
export function parseInvalidation(entry) {
  if (!entry || entry.type !== "custom" || entry.customType !== CUSTOM_TYPE) return undefined;
  const d = entry.data;
  if (!d || typeof d !== "object" || d.v !== 1 || d.kind !== "invalidate") return undefined;
  if (typeof d.pathKey !== "string" || d.pathKey === "" || !isScopeKey(d.scopeKey)) return undefined;
  return d;
}

/** An invalidation entry's data (§4), for appendEntry(CUSTOM_TYPE, ...). */
export function invalidation(pathKey, scopeKey, at = Date.now()) {
  if (typeof pathKey !== "string" || pathKey === "") throw new TypeError("invalidation: pathKey must be a non-empty string");
  if (!isScopeKey(scopeKey)) throw new TypeError(`invalidation: scopeKey must be "full" or "r:<start>:<end>", got ${JSON.stringify(scopeKey)}`);
  return { v: 1, kind: "invalidate", pathKey, scopeKey, at };
}

/**
 * The index of the first entry of the replay window in branch (root to
 * leaf), and the compaction that bounds it (§7.1).
 */
export function replayStart(branch) {
  let c = -1;
  for (let i = branch.length - 1; i >= 0; i--) {
    if (branch[i] && branch[i].type === "compaction") {
      c = i;
      break;
    }
  }
  if (c < 0) return { start: 0, compaction: undefined, keptFromCompaction: false };
  const compaction = branch[c];
  const kept = compaction.firstKeptEntryId;
  if (typeof kept === "string") {
    for (let i = 0; i < c; i++) {
      if (branch[i] && branch[i].id === kept) return { start: i, compaction, keptFromCompaction: true };
    }
  }
  return { start: c + 1, compaction, keptFromCompaction: false };
}


/**
 * Knowledge: pathKey -> (scopeKey -> anchored hash), with counts of the
 * modes the window's reads were served with and their bytes (for the
 * status).
 */
export class Knowledge {
  constructor() {
    /** @type {Map<string, Map<string, string>>} */
    this.paths = new Map();
    /**
     * Ranges an invalidation dropped, per path: [start, end] pairs. A range
     * read that overlaps one is not answered against the path's "full"
     * scope (§8 step 5's fallback) until a read sends its text again, so
     * that /readcache-refresh of a range forces that range's text even when
     * the whole file is trusted.
     * @type {Map<string, Array<[number, number]>>}
     */
    this.blocked = new Map();
    /**
     * How far a full-scope anchor's text was shown, when not all of it:
     * pathKey + "\0" + hash -> {kind, known}. "partial": a truncated full
     * read (a marker of that same text shows what it showed). "weak": a
     * diff that stood on a partial or weak anchor: the model holds lines
     * 1..known of this version (the truncated read's lines, patched, and
     * the hunks that reach past them), which need not be all a read shows
     * now: a marker is answered from it only when what a read shows now
     * lies within them (index.js checks), a diff always may be.
     * @type {Map<string, {kind: "partial" | "weak", known: number}>}
     */
    this.shown = new Map();
    /** Read calls visible in the window whose result has not come yet. */
    this.calls = new Set();
    this.modes = Object.fromEntries(MODES.map((m) => [m, 0]));
    this.reads = 0;
    this.anchored = 0; // reads that anchored a hash (the chain rule held)
    this.servedBytes = 0; // the text the window's reads sent (meta.bytes)
    // What markers and diffs saved, estimated against the last full text
    // sent for the same scope (or the whole file) in the window.
    this.savedBytes = 0;
    /** @type {Map<string, number>} pathKey + "\0" + scopeKey -> bytes of its last full text */
    this.fullBytes = new Map();
    this.invalidations = 0;
  }

  /**
   * Anchors hash for a scope of a path. text: the read sent text for it
   * (full, full_fallback, diff): overlapping scopes at another hash are
   * dropped, since the model's copy of those lines is now this hash's.
   * lifts: the read sent the scope's text (full, full_fallback): the
   * ranges an invalidation blocked inside it are lifted. shown: the
   * full-scope anchor's "partial"/"weak" state (undefined: all of it).
   */
  anchor(pathKey, scopeKey, hash, { text = false, lifts = false, shown } = {}) {
    let scopes = this.paths.get(pathKey);
    if (!scopes) this.paths.set(pathKey, (scopes = new Map()));
    const r = rangeOf(scopeKey);
    if (text && (scopes.size > 1 || (scopes.size === 1 && !scopes.has(scopeKey)))) {
      for (const [key, h] of [...scopes]) {
        if (key === scopeKey || h === hash) continue;
        const s = rangeOf(key);
        if (!r || !s || overlaps(r, s)) scopes.delete(key);
      }
    }
    scopes.set(scopeKey, hash);
    if (scopeKey === "full") {
      const key = `${pathKey}\u0000${hash}`;
      if (shown) this.shown.set(key, shown);
      else if (text) this.shown.delete(key);
    }
    if (!lifts) return;
    const blocked = this.blocked.get(pathKey);
    if (!blocked) return;
    const left = r ? blocked.filter(([s, e]) => !(r[0] <= s && e <= r[1])) : [];
    if (left.length) this.blocked.set(pathKey, left);
    else this.blocked.delete(pathKey);
  }

  /** A full-text anchor: anchor(..., {text: true, lifts: true}). */
  set(pathKey, scopeKey, hash) {
    this.anchor(pathKey, scopeKey, hash, { text: true, lifts: true });
  }

  /** {kind: "partial" | "weak", known} or undefined (all shown) for the path's full-scope anchor at hash. */
  shownOf(pathKey, hash) {
    return this.shown.get(`${pathKey}\u0000${hash}`);
  }

  /**
   * Whether hash is anchored for scopeKey of pathKey at this point, as a
   * marker's or diff's base: the exact scope, or (for a range) the full
   * scope when no invalidation blocked the range.
   */
  anchors(pathKey, scopeKey, hash) {
    const scopes = this.paths.get(pathKey);
    if (!scopes || typeof hash !== "string") return false;
    if (scopes.get(scopeKey) === hash) return true;
    const r = rangeOf(scopeKey);
    if (!r || scopes.get("full") !== hash) return false;
    const blocked = this.blocked.get(pathKey);
    return !(blocked && blocked.some((b) => overlaps(b, r)));
  }

  /**
   * Drops a scope (§7.2): "full" drops every scope of the path; a range
   * drops every range scope of the path that overlaps it (a superset of
   * the exact scope: dropping trust only ever makes reads fuller).
   */
  invalidate(pathKey, scopeKey) {
    if (scopeKey === "full") {
      this.paths.delete(pathKey);
      this.blocked.delete(pathKey);
      return;
    }
    const r = rangeOf(scopeKey);
    const blocked = this.blocked.get(pathKey) ?? [];
    blocked.push(r);
    this.blocked.set(pathKey, blocked);
    const scopes = this.paths.get(pathKey);
    if (!scopes) return;
    for (const key of [...scopes.keys()]) {
      const s = rangeOf(key);
      if (s && overlaps(s, r)) scopes.delete(key);
    }
    if (scopes.size === 0) this.paths.delete(pathKey);
  }

  get(pathKey, scopeKey) {
    return this.paths.get(pathKey)?.get(scopeKey);
  }

  /**
   * The trusted hashes of a path's scopes, as the engine's `bases`, for a
   * read of lines [start, end] (end Infinity: to the end of the file; both
   * undefined: the whole file). "full" is left out when the range overlaps
   * one an invalidation dropped.
   */
  bases(pathKey, start, end) {
    const scopes = this.paths.get(pathKey);
    if (!scopes) return {};
    const out = Object.fromEntries(scopes);
    const blocked = this.blocked.get(pathKey);
    if (blocked && start !== undefined && blocked.some((b) => overlaps(b, [start, end ?? Infinity]))) delete out.full;
    return out;
  }

  /** A copy (the memo's entries are shared; the overlay is merged into a copy). */
  clone() {
    const k = new Knowledge();
    for (const [p, s] of this.paths) k.paths.set(p, new Map(s));
    for (const [p, b] of this.blocked) k.blocked.set(p, b.map((r) => [...r]));
    k.shown = new Map(this.shown);
    k.calls = new Set(this.calls);
    k.modes = { ...this.modes };
    k.reads = this.reads;
    k.anchored = this.anchored;
    k.servedBytes = this.servedBytes;
    k.savedBytes = this.savedBytes;
    k.fullBytes = new Map(this.fullBytes);
    k.invalidations = this.invalidations;
    return k;
  }

  /** Scopes tracked, over all paths. */
  get scopes() {
    let n = 0;
    for (const s of this.paths.values()) n += s.size;
    return n;
  }
}

function textBytes(content) {
  let n = 0;
  if (!Array.isArray(content)) return 0;
  for (const c of content) if (c && c.type === "text" && typeof c.text === "string") n += Buffer.byteLength(c.text, "utf8");
  return n;
}

// A read result's record and whether the content the model sees for it is
// the text the read served (its textHash), memoized per message object (a
// session's entries never change; a projected replacement is a new object).
const seen = new WeakMap();
function recordOf(msg) {
  let r = seen.get(msg);
  if (r === undefined) {
    const meta = parseMeta(msg.details);
    let ok = false;
    const content = msg.content;
    if (meta && typeof meta.textHash === "string" && HASH_RE.test(meta.textHash) && Array.isArray(content) && content.length > 0 && content.every((c) => c && c.type === "text" && typeof c.text === "string")) {
      ok = textHashOf(content.length === 1 ? content[0].text : content.map((c) => c.text).join("")) === meta.textHash;
    }
    r = { meta, ok };
    seen.set(msg, r);
  }
  return r;
}

function project(e, edit) {
  if (!e || typeof e !== "object" || e.type !== "message") return [e, null];
  if (!edit) return [e, e.message ?? null];
  const r = edit.replacement;
  if (r === null || typeof r !== "object") return [e, null];
  const content = typeof r.content === "string" ? [{ type: "text", text: r.content }] : r.content;
  return [e, e.message && typeof e.message === "object" ? { ...e.message, content } : null];
}

function editsIn(entries, from = 0) {
  const edits = new Map();
  for (let i = from; i < entries.length; i++) {
    const e = entries[i];
    if (e && e.type === "context_edit" && typeof e.targetId === "string") edits.set(e.targetId, e);
  }
  return edits;
}

/**
 * The window of a branch (root to leaf, as SessionManager.getBranch
 * returns it) as pi 0.73 builds the model's context, with context_edit
 * entries applied as pi 1.x applies them (the latest edit of a target in
 * the window wins; null omits it, a replacement changes its content):
 * [entry, message | null] pairs, message being what the model sees of a
 * message entry (null: omitted, or not a message).
 */
export function windowOf(branch) {
  if (!Array.isArray(branch)) return [];
  const { start } = replayStart(branch);
  const edits = editsIn(branch, start);
  const out = [];
  for (let i = start; i < branch.length; i++) out.push(project(branch[i], edits.get(branch[i]?.id)));
  return out;
}

/**
 * The window of sm's current branch: pi's own projection where the
 * session manager has it (buildSessionProjection, pi 1.x), else
 * buildContextEntries with context edits applied, else windowOf(getBranch()).
 */
export function sessionWindow(sm) {
  if (typeof sm.buildSessionProjection === "function") {
    const p = sm.buildSessionProjection();
    if (p && Array.isArray(p.entries)) {
      return p.entries.map(({ sourceEntry, messages }) => {
        if (!sourceEntry || sourceEntry.type !== "message") return [sourceEntry, null];
        return [sourceEntry, Array.isArray(messages) && messages.length === 1 ? messages[0] : null];
      });
    }
  }
  if (typeof sm.buildContextEntries === "function") {
    const entries = sm.buildContextEntries();
    if (Array.isArray(entries)) {
      const edits = editsIn(entries);
      return entries.map((e) => project(e, edits.get(e?.id)));
    }
  }
  return windowOf(sm.getBranch());
}

/**
 * Replays branch (root to leaf) from the window's start (§7.1, §7.2) under
 * the chain rule. Entries that are not valid records are skipped (§14).
 */
export function replay(branch) {
  const k = new Knowledge();
  for (const [e, msg] of windowOf(branch)) replayEntry(k, e, msg);
  return k;
}

/** The replay of sm's current branch over sessionWindow(sm). */
export function replaySession(sm) {
  const k = new Knowledge();
  for (const [e, msg] of sessionWindow(sm)) replayEntry(k, e, msg);
  return k;
}

/**
 * Applies one entry of the window to k (§7.2, the chain rule): a read
 * call, a read result's record, or an invalidation. msg: what the model
 * sees of a message entry (left out: its message; null: omitted).
 * Anything else is skipped.
 */
export function replayEntry(k, e, msg = e?.message) {
  if (!e || typeof e !== "object") return;
  if (e.type === "message") {
    if (!msg || typeof msg !== "object") return;
    if (msg.role === "assistant") {
      if (!Array.isArray(msg.content)) return;
      for (const c of msg.content) if (c && c.type === "toolCall" && c.name === "read" && typeof c.id === "string") k.calls.add(c.id);
      return;
    }
    if (msg.role !== "toolResult" || msg.toolName !== "read") return;
    const visibleCall = k.calls.delete(msg.toolCallId);
    if (msg.isError) return;
    const { meta, ok } = recordOf(msg);
    if (!meta) return;
    k.modes[meta.mode]++;
    k.reads++;
    const served = Number.isFinite(meta.bytes) && meta.bytes >= 0 ? meta.bytes : textBytes(msg.content);
    k.servedBytes += served;
    const key = `${meta.pathKey}\u0000${meta.scopeKey}`;
    if (meta.mode === "full" || meta.mode === "full_fallback") {
      k.fullBytes.set(key, served);
    } else {
      const before = k.fullBytes.get(key) ?? k.fullBytes.get(`${meta.pathKey}\u0000full`);
      if (before !== undefined) k.savedBytes += Math.max(0, before - served);
    }
    if (visibleCall && ok && anchorRead(k, meta, msg.details, meta.mode === "diff" ? msg.content[0].text : undefined)) k.anchored++;
  } else if (e.type === "custom") {
    const inv = parseInvalidation(e);
    if (!inv) return;
    k.invalidate(inv.pathKey, inv.scopeKey);
    k.invalidations++;
  }
}

const HUNK_RE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * The lines 1..n of a diff's new version the model holds, when it held
 * lines 1..known of the old one: the prefix shifted by the hunks inside
 * it, extended to the end of a hunk that reaches past it.
 */
export function knownAfterDiff(text, known) {
  let shift = 0;
  for (const line of String(text).split("\n")) {
    const m = HUNK_RE.exec(line);
    if (!m) continue;
    const b = m[2] === undefined ? 1 : Number(m[2]);
    const d = m[4] === undefined ? 1 : Number(m[4]);
    const os = b > 0 ? Number(m[1]) : Number(m[1]) + 1;
    const ns = d > 0 ? Number(m[3]) : Number(m[3]) + 1;
    if (os + b - 1 <= known) {
      shift += d - b;
      continue;
    }
    if (os <= known + 1) return Math.max(known + shift, ns + d - 1);
    break;
  }
  return known + shift;
}

// The chain rule for one visible read result; true when it anchored.
function anchorRead(k, meta, details, text) {
  const { pathKey, scopeKey, servedHash, mode } = meta;
  const base = typeof meta.baseHash === "string" ? meta.baseHash : undefined;
  if (mode === "full" || mode === "full_fallback") {
    const t = scopeKey === "full" && details && details.truncation;
    const shown = t && t.truncated === true ? { kind: "partial", known: Number.isSafeInteger(t.outputLines) && t.outputLines > 0 ? t.outputLines : 0 } : undefined;
    k.anchor(pathKey, scopeKey, servedHash, { text: true, lifts: true, shown });
    return true;
  }
  if (!k.anchors(pathKey, scopeKey, base)) return false;
  const fromFull = k.get(pathKey, scopeKey) !== base; // the base came from the full scope
  const baseShown = scopeKey === "full" || fromFull ? k.shownOf(pathKey, base) : undefined;
  if (mode === "diff") {
    if (scopeKey !== "full") return false;
    k.anchor(pathKey, "full", servedHash, { text: true, shown: baseShown ? { kind: "weak", known: knownAfterDiff(text, baseShown.known) } : undefined });
    return true;
  }
  // A marker shows no text: it anchors its scope at servedHash when the
  // model's copy holds what a read shows now. On a weak full anchor that is
  // so only for a range within the lines the model holds (a full-scope
  // marker there was checked when it was served, and changes nothing).
  if (mode === "unchanged" && (scopeKey !== "full" || servedHash !== base)) return false;
  if (mode === "unchanged_range" && scopeKey === "full") return false;
  if (mode === "unchanged_range" && baseShown?.kind === "weak" && !(Number.isSafeInteger(meta.rangeEnd) && meta.rangeEnd <= baseShown.known)) return false;
  k.anchor(pathKey, scopeKey, servedHash, { shown: scopeKey === "full" ? baseShown : undefined });
  return true;
}
