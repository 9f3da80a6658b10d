// The disposable in-memory side of the read cache (seed 001, §3.3, §7.3,
// §16): the replay memoized per (session, leaf), and the in-flight overlay.
//
// Neither is trusted as truth. The memo is keyed by the leaf: a session's
// entries never change once appended, so the window up to a leaf replays
// the same way every time. The overlay holds what reads served while their
// results are not in the session yet (sibling tool calls of one assistant
// message run before pi appends their results). It counts only while the
// leaf is the one it was recorded at and nothing was appended to the
// session since: a leaf that moves and comes back (the results appended,
// then sessionManager.branch() back to the old leaf, with or without an
// event) finds it gone. Its reads go through the same chain rule as the
// session's (replayEntry), as the result messages pi will append.

import { replaySession, replayEntry } from "./replay.js";

const MEMO_MAX = 64;
// How far back from the leaf an incremental replay looks for a memoized
// ancestor before replaying the whole window.
const TAIL_MAX = 256;

function sessionOf(sm) {
  return typeof sm.getSessionId === "function" ? sm.getSessionId() : "";
}

function keyOf(sm, leaf = typeof sm.getLeafId === "function" ? sm.getLeafId() : null) {
  return `${sessionOf(sm)}\u0000${leaf ?? ""}`;
}

/** How many entries the session holds (any append anywhere changes it). */
function entryCount(sm) {
  if (typeof sm.getEntryCount === "function") return sm.getEntryCount();
  if (typeof sm.getEntries === "function") return sm.getEntries().length;
  return -1;
}

export class ReadState {
  constructor() {
    /** @type {Map<string, import("./replay.js").Knowledge>} */
    this.memo = new Map();
    /** @type {{key: string, count: number, results: object[]} | undefined} */
    this.overlay = undefined;
    this.replays = 0; // how many replays ran (tests check the memo)
    this.extended = 0; // how many of them extended a memoized ancestor
  }

  /** Forgets the memo and the overlay (§12, §17). */
  clear() {
    this.memo.clear();
    this.overlay = undefined;
  }

  /** The replay of sm's current window, memoized per (session, leaf). */
  replayed(sm) {
    const key = keyOf(sm);
    let k = this.memo.get(key);
    if (k) {
      this.memo.delete(key); // most recently used last
      this.memo.set(key, k);
      return k;
    }
    k = this.extend(sm);
    if (k) this.extended++;
    else k = replaySession(sm);
    this.replays++;
    this.memo.set(key, k);
    while (this.memo.size > MEMO_MAX) this.memo.delete(this.memo.keys().next().value);
    return k;
  }

  /**
   * The replay of the current window from a memoized ancestor of the leaf:
   * the entries appended since (a read's call and result, a user message)
   * applied to a copy of the ancestor's knowledge, so that a long session
   * does not replay (nor project) every entry at each read. Only when no
   * compaction (it moves the window's start) and no context edit (it
   * changes what an earlier entry shows) lies between; undefined
   * otherwise, or when no ancestor within TAIL_MAX entries is memoized.
   */
  extend(sm) {
    if (typeof sm.getEntry !== "function" || typeof sm.getLeafId !== "function") return undefined;
    const tail = [];
    let id = sm.getLeafId();
    for (let steps = 0; id && steps <= TAIL_MAX; steps++) {
      const base = this.memo.get(keyOf(sm, id));
      if (base) {
        const k = base.clone();
        for (let i = tail.length - 1; i >= 0; i--) replayEntry(k, tail[i]);
        return k;
      }
      const e = sm.getEntry(id);
      if (!e || e.type === "compaction" || e.type === "context_edit") return undefined;
      tail.push(e);
      id = e.parentId;
    }
    return undefined;
  }

  /** Whether the overlay was recorded at sm's current leaf with nothing appended since. */
  overlayHere(sm) {
    const ov = this.overlay;
    return ov !== undefined && ov.key === keyOf(sm) && ov.count === entryCount(sm);
  }

  /** Replay plus the overlay's reads, when it is current (§7.3). */
  knowledge(sm) {
    const k = this.replayed(sm);
    if (!this.overlay) return k;
    if (!this.overlayHere(sm)) {
      this.overlay = undefined;
      return k;
    }
    const merged = k.clone();
    for (const msg of this.overlay.results) replayEntry(merged, { type: "message" }, msg);
    return merged;
  }

  /**
   * Records a read served at sm's current leaf (§8 step 11): msg is the
   * tool result message pi will append ({role: "toolResult", toolName:
   * "read", toolCallId, content, details}).
   */
  record(sm, msg) {
    if (!this.overlayHere(sm)) this.overlay = { key: keyOf(sm), count: entryCount(sm), results: [] };
    this.overlay.results.push(msg);
  }
}
