// The disposable in-memory side of the read cache (seed 001, §3.3, §7.3,
// §16): the replay memoized per (session, leaf), and the in-flight overlay.
//
// Neither is trusted as truth. The memo is keyed by the leaf: a session's
// entries never change once appended, so the branch up to a leaf replays
// the same way every time. The overlay holds what reads served while their
// results are not in the session yet (sibling tool calls of one assistant
// message run before pi appends their results); each entry is tagged with
// the leaf it was recorded at and counts only while the leaf is still that
// one: once the leaf moves (the results appended, a user message, /tree, a
// compaction) the overlay of the old leaf is dropped, and the replay is the
// only source again.

import { replay, replayEntry } from "./replay.js";

const MEMO_MAX = 64;
// How far back from the leaf an incremental replay looks for a memoized
// ancestor before replaying the whole branch.
const TAIL_MAX = 256;

function sessionOf(sm) {
  return typeof sm.getSessionId === "function" ? sm.getSessionId() : "";
}

function keyOf(sm, leaf = typeof sm.getLeafId === "function" ? sm.getLeafId() : null) {
  return `${sessionOf(sm)}\u0000${leaf ?? ""}`;
}

export class ReadState {
  constructor() {
    /** @type {Map<string, import("./replay.js").Knowledge>} */
    this.memo = new Map();
    /** @type {{key: string, paths: Map<string, Map<string, string>>} | undefined} */
    this.overlay = undefined;
    this.replays = 0; // how many replays ran (tests check the memo)
    this.extended = 0; // how many of them extended a memoized ancestor
  }

  /** Forgets the memo and the overlay (§12, §17). */
  clear() {
    this.memo.clear();
    this.overlay = undefined;
  }

  /** The replay of sm's current branch, memoized per (session, leaf). */
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
    else k = replay(sm.getBranch());
    this.replays++;
    this.memo.set(key, k);
    while (this.memo.size > MEMO_MAX) this.memo.delete(this.memo.keys().next().value);
    return k;
  }

  /**
   * The replay of the current branch from a memoized ancestor of the leaf:
   * the entries appended since (a read's call and result, a user message)
   * applied to a copy of the ancestor's knowledge, so that a long session
   * does not replay (nor list, getBranch) every entry at each read. Only
   * when no compaction lies between (a compaction moves the window's
   * start); undefined otherwise, or when no ancestor within TAIL_MAX
   * entries is memoized.
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
      if (!e || e.type === "compaction") return undefined;
      tail.push(e);
      id = e.parentId;
    }
    return undefined;
  }

  /** Replay plus the overlay recorded at the current leaf (§7.3). */
  knowledge(sm) {
    const k = this.replayed(sm);
    const ov = this.overlay;
    if (!ov || ov.key !== keyOf(sm)) return k;
    const merged = k.clone();
    for (const [pathKey, scopes] of ov.paths) for (const [scope, hash] of scopes) merged.set(pathKey, scope, hash);
    return merged;
  }

  /** Records a read served at sm's current leaf (§8 step 11). */
  record(sm, pathKey, scopeKey, hash) {
    const key = keyOf(sm);
    if (!this.overlay || this.overlay.key !== key) this.overlay = { key, paths: new Map() };
    let scopes = this.overlay.paths.get(pathKey);
    if (!scopes) this.overlay.paths.set(pathKey, (scopes = new Map()));
    scopes.set(scopeKey, hash);
  }
}
