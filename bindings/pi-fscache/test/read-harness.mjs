// The read override driven as pi drives it, for the trust tests and the
// oracle: pi's own SessionManager (of the line under test), the package's
// registerRead on a minimal ExtensionAPI whose appendEntry writes to that
// session, each read appended as pi appends it (the assistant's call, then
// the result, an error as a result with isError).
import { LINE, pi } from "./pi-line.mjs";
import registerRead from "../src/read/index.js";
import { appendToolCall } from "./session-helpers.mjs";

const { SessionManager, createReadToolDefinition } = pi;

/** A fake ExtensionAPI whose appendEntry writes to the harness's session, as pi's does. */
function fakePi(h) {
  const api = {
    tools: new Map(),
    commands: new Map(),
    handlers: new Map(),
    flags: new Map(),
    registerTool: (t) => api.tools.set(t.name, t),
    registerCommand: (n, o) => api.commands.set(n, o),
    registerFlag: (n, o) => api.flags.set(n, o.default),
    getFlag: (n) => api.flags.get(n),
    on: (e, fn) => api.handlers.set(e, [...(api.handlers.get(e) ?? []), fn]),
    appendEntry: (type, data) => h.sm.appendCustomEntry(type, data),
  };
  return api;
}

const textOf = (content) => (Array.isArray(content) ? content.filter((c) => c.type === "text").map((c) => c.text).join("") : "");

// pi 0.73 sends its agent's in-memory messages: appended as the session's
// are, and rebuilt from the session only by pi's own compact, tree
// navigation, session switch and resume (sync()). A host or extension that
// calls sessionManager.branch() or appendCompaction() itself changes the
// session, not them. The harness keeps that list beside the session on
// 0.73 (every message appended to the session is appended to it too).
const agentLists = new WeakMap();
function trackAppends(sm) {
  if (agentLists.has(sm)) return;
  agentLists.set(sm, { messages: [] });
  const append = sm.appendMessage.bind(sm);
  sm.appendMessage = (msg) => {
    const id = append(msg);
    agentLists.get(sm).messages.push(msg);
    return id;
  };
}

export class Harness {
  /**
   * contextBefore/contextAfter: other extensions' `context` handlers,
   * loaded before or after this package (pi runs them in load order).
   */
  constructor(cwd, sm = SessionManager.inMemory(cwd), { contextBefore = [], contextAfter = [] } = {}) {
    this.cwd = cwd;
    this.sm = sm;
    this.notes = [];
    this.pi = fakePi(this);
    this.reg = registerRead(this.pi, { env: {} });
    this.tool = this.pi.tools.get("read");
    this.contextHandlers = [...contextBefore, ...(this.pi.handlers.get("context") ?? []), ...contextAfter];
    trackAppends(sm);
    if (this.sm.getLeafId() === null) this.user("start");
    this.sync();
  }
  /** pi 0.73's agent messages rebuilt from the session (pi's own compact, /tree, resume). */
  sync() {
    agentLists.get(this.sm).messages = this.sm.buildSessionContext().messages.slice();
  }
  /**
   * The messages of the next request as the provider receives them: pi
   * 0.73's agent messages or pi 1.x's session context, through the
   * `context` handlers in load order (each gets the previous one's output).
   */
  async request() {
    let msgs = structuredClone(LINE === "1" ? this.sm.buildSessionContext().messages : agentLists.get(this.sm).messages);
    for (const fn of this.contextHandlers) {
      const r = await fn({ type: "context", messages: msgs }, this.ctx());
      if (r && Array.isArray(r.messages)) msgs = r.messages;
    }
    return msgs;
  }
  ctx() {
    return { cwd: this.cwd, sessionManager: this.sm, ui: { notify: (m, l) => this.notes.push([l, m]) }, model: undefined };
  }
  user(text = "go") {
    return this.sm.appendMessage({ role: "user", content: [{ type: "text", text }], timestamp: Date.now() });
  }
  /** Runs read under call id `id` (no entry appended); returns {content, details, isError, text}. */
  async exec(id, args) {
    try {
      const res = await this.tool.execute(id, args, undefined, undefined, this.ctx());
      return { ...res, isError: false, text: textOf(res.content) };
    } catch (err) {
      return { content: [{ type: "text", text: err.message }], details: {}, isError: true, text: err.message };
    }
  }
  /** Appends a read's result message; transform(content) may change what is stored (another extension). */
  append(id, res, transform) {
    const content = transform ? transform(res.content) : res.content;
    return this.sm.appendMessage({ role: "toolResult", toolCallId: id, toolName: "read", content, details: res.details, isError: res.isError, timestamp: Date.now() });
  }
  /** The model's read: its call appended, the tool run, the result appended. Returns the result with entryId. */
  async read(args, { transform } = {}) {
    if (typeof args === "string") args = { path: args };
    const id = appendToolCall(this.sm, "read", args);
    const res = await this.exec(id, args);
    const entryId = this.append(id, res, transform);
    return { ...res, entryId, callId: id };
  }
  async command(name, args) {
    await this.pi.commands.get(name).handler(args, this.ctx());
  }
}

/** pi's own read of the same arguments. */
export async function piRead(cwd, args) {
  const r = await createReadToolDefinition(cwd).execute("base", args, undefined, undefined, { cwd });
  return { ...r, text: textOf(r.content) };
}

/** The mode of a result's record (undefined: pi's own read). */
export const modeOf = (r) => r.details?.readcache?.mode;
