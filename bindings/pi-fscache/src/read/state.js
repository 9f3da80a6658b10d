// The disposable in-memory side of the read cache (seed 001, §3.3, §7.3,
// §16; issue 48): the messages of the last request each session sent (as
// this package's `context` handler passed them on), and the in-flight
// overlay.
//
// Neither is trusted as truth: both only say which messages the model
// holds, and every marker or diff is judged again against the messages of
// the next request before it is sent. The overlay holds what reads served
// while their results are not in the session yet (sibling tool calls of one
// assistant message run before pi appends their results). It counts only
// while the leaf is the one it was recorded at and nothing was appended to
// the session since: a leaf that moves and comes back (the results
// appended, then sessionManager.branch() back to the old leaf, with or
// without an event) finds it gone.

import { windowMessages } from "./view.js";

const SESSIONS_MAX = 16;

function sessionOf(sm) {
  return typeof sm.getSessionId === "function" ? String(sm.getSessionId()) : "";
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
    /** @type {Map<string, object[]>} session id -> the messages its last request sent */
    this.sent = new Map();
    /** @type {{key: string, count: number, results: object[]} | undefined} */
    this.overlay = undefined;
  }

  /** Forgets the overlay and what was sent (§12, §17). */
  clear() {
    this.sent.clear();
    this.overlay = undefined;
  }

  /** Remembers the messages a request of sm's session is sending (this package's context handler's output). */
  request(sm, messages) {
    const key = sm ? sessionOf(sm) : "";
    this.sent.delete(key);
    this.sent.set(key, messages);
    while (this.sent.size > SESSIONS_MAX) this.sent.delete(this.sent.keys().next().value);
  }

  /** Whether the overlay was recorded at sm's current leaf with nothing appended since. */
  overlayHere(sm) {
    const ov = this.overlay;
    return ov !== undefined && ov.key === keyOf(sm) && ov.count === entryCount(sm);
  }

  /**
   * The messages the model holds when a read of toolCallId runs: the last
   * request sm's session sent, then the assistant message that made the
   * call and what followed it on the branch, then the overlay; without a
   * request seen (a host that fires no context event), the session's
   * window and the overlay. tail: issuingTail(sm, toolCallId), when known.
   */
  view(sm, tail) {
    const sent = this.sent.get(sessionOf(sm));
    let msgs;
    if (sent && tail) {
      msgs = sent.slice();
      for (const e of tail) if (e && e.type === "message" && e.message) msgs.push(e.message);
    } else msgs = windowMessages(sm);
    if (this.overlay && !this.overlayHere(sm)) this.overlay = undefined;
    if (this.overlay) msgs.push(...this.overlay.results);
    return msgs;
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
