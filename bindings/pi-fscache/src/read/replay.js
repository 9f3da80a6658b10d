// The read cache's trust, rebuilt from the session branch (seed 001, §7).
//
// What the model has provably seen is what the entries of the current
// branch that are in its context say: the `read` tool results carrying
// details.readcache (v1), less the scopes an invalidation entry of this
// package dropped since. Nothing here reads files or calls the engine.
//
// The replay window (§7.1, seed 004): after the latest compaction on the
// path, the context holds the compaction's summary, the entries from its
// firstKeptEntryId up to the compaction, and everything after it. So the
// replay starts at firstKeptEntryId when that entry is on the path before
// the compaction (a read the compaction kept stays trusted), else right
// after the compaction.

/** The customType of this package's invalidation entries (§4, §17). */
export const CUSTOM_TYPE = "fscache-readcache";

/** The modes a read result's metadata may carry (§4). */
export const MODES = Object.freeze(["full", "unchanged", "unchanged_range", "diff", "full_fallback"]);
const MODE_SET = new Set(MODES);
const HASH_RE = /^[0-9a-f]{64}$/;
const RANGE_RE = /^r:([1-9][0-9]*):([1-9][0-9]*)$/;

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
 * Knowledge: pathKey -> (scopeKey -> servedHash), with counts of the modes
 * the window's reads were served with and their bytes (for the status).
 */
export class Knowledge {
  constructor() {
    /** @type {Map<string, Map<string, string>>} */
    this.paths = new Map();
    /**
     * Ranges an invalidation dropped, per path: [start, end] pairs. A range
     * read that overlaps one is not answered against the path's "full"
     * scope (§8 step 5's fallback) until a read covers it again, so that
     * /readcache-refresh of a range forces that range's text even when the
     * whole file is trusted.
     * @type {Map<string, Array<[number, number]>>}
     */
    this.blocked = new Map();
    this.modes = Object.fromEntries(MODES.map((m) => [m, 0]));
    this.reads = 0;
    this.servedBytes = 0; // the text the window's reads sent (meta.bytes)
    // What markers and diffs saved, estimated against the last full text
    // sent for the same scope (or the whole file) in the window.
    this.savedBytes = 0;
    /** @type {Map<string, number>} pathKey + "\0" + scopeKey -> bytes of its last full text */
    this.fullBytes = new Map();
    this.invalidations = 0;
  }

  set(pathKey, scopeKey, hash) {
    let scopes = this.paths.get(pathKey);
    if (!scopes) this.paths.set(pathKey, (scopes = new Map()));
    scopes.set(scopeKey, hash);
    const blocked = this.blocked.get(pathKey);
    if (!blocked) return;
    const r = rangeOf(scopeKey);
    const left = r ? blocked.filter(([s, e]) => !(r[0] <= s && e <= r[1])) : [];
    if (left.length) this.blocked.set(pathKey, left);
    else this.blocked.delete(pathKey);
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
    k.modes = { ...this.modes };
    k.reads = this.reads;
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

/**
 * Replays branch (root to leaf, as SessionManager.getBranch returns it)
 * from the window's start (§7.1, §7.2). Entries that are not valid records
 * are skipped (§14).
 */
export function replay(branch) {
  const k = new Knowledge();
  if (!Array.isArray(branch)) return k;
  const { start } = replayStart(branch);
  for (let i = start; i < branch.length; i++) replayEntry(k, branch[i]);
  return k;
}

/**
 * Applies one entry of the replay window to k (§7.2): a read result's
 * record, or an invalidation. Anything else is skipped.
 */
export function replayEntry(k, e) {
  if (!e || typeof e !== "object") return;
  if (e.type === "message") {
    const msg = e.message;
    if (!msg || msg.role !== "toolResult" || msg.toolName !== "read" || msg.isError) return;
    const meta = parseMeta(msg.details);
    if (!meta) return;
    k.set(meta.pathKey, meta.scopeKey, meta.servedHash);
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
  } else if (e.type === "custom") {
    const inv = parseInvalidation(e);
    if (!inv) return;
    k.invalidate(inv.pathKey, inv.scopeKey);
    k.invalidations++;
  }
}
