// The session side of the read cache's records (seed 001, §4, §7.1; issue
// 44): this package's details.readcache records and invalidation entries,
// and the window of the session branch as pi builds the model's context
// from it. What the model holds of each file is judged from the messages
// it is sent (view.js, and fscache-native/readcache-view, issue 48); the
// window is what those messages are where no request was seen.
//
// The window: the entries of the current branch as pi puts them in the
// model's context. Where the session manager has pi's own projection
// (pi 1.x: buildSessionProjection, feature-detected), that projection:
// the latest compaction's window, context edits applied (an omitted entry
// is gone, a replaced one has its new content). Otherwise pi 0.73's rule
// (§7.1, seed 004): from the latest compaction's firstKeptEntryId when
// that entry is on the path before it, else right after it; context_edit
// entries in that window are applied the way pi 1.x applies them.

import { createHash } from "node:crypto";

/** The customType of this package's invalidation entries (§4, §17). */
export const CUSTOM_TYPE = "fscache-readcache";

/** The modes a read result's metadata may carry (§4). */
export const MODES = Object.freeze(["full", "unchanged", "unchanged_range", "diff", "full_fallback"]);
const MODE_SET = new Set(MODES);
const HASH_RE = /^[0-9a-f]{64}$/;
const RANGE_RE = /^r:([1-9][0-9]*):([1-9][0-9]*)$/;

/** sha256 (hex) of a text, as details.readcache.textHash records the text served. */
export function textHashOf(text) {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** [start, end] of a range scope key, else undefined ("full"). */
export function rangeOf(scopeKey) {
  const m = RANGE_RE.exec(scopeKey);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
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
