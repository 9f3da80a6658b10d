// pi's `read`, answered by fscache's read cache (seed 001).
//
// The engine (fscache-native's readCache) reads the file, hashes it, writes
// pi's exact text, a marker or a diff, and renders a stored version again
// (objectHash); this module holds only the session side (issue 48): what
// the model holds, line by line, in the messages it is sent (the shared
// judge, fscache-native/readcache-view, with pi's adapter in view.js; the
// last request from the `context` event and the in-flight overlay), the
// answer chosen from it (decide), the `context` handler that replaces a
// marker or diff whose base a request lacks, the commands and the
// readcache_refresh tool of §17, and the fall-back to pi's own read tool
// for whatever the engine does not serve (images, binaries, errors: §6,
// §14).
//
// Turned off by PI_FSCACHE_READ=0 (nothing of the read cache is registered:
// pi's read stays), or per run by pi's flag --no-fscache-read (the override
// answers with pi's own read; the context handler still judges the
// markers and diffs earlier reads sent).

import { existsSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { createReadToolDefinition } from "@mariozechner/pi-coding-agent";
import { Type } from "typebox";
import { CUSTOM_TYPE, MODES, invalidation, parseInvalidation, parseMeta, rangeOf, textHashOf } from "./replay.js";
import { ReadState } from "./state.js";
import { loadView, noticeOf, piAdapter, shownOf } from "./view.js";

export { CUSTOM_TYPE } from "./replay.js";

const FLAG = "no-fscache-read";
const OPEN_END = Number.MAX_SAFE_INTEGER;

/** Whether PI_FSCACHE_READ turns the read cache off ("0", "false", "off", "no"). */
export function disabledByEnv(env = process.env) {
  const v = env.PI_FSCACHE_READ;
  return typeof v === "string" && /^(0|false|off|no)$/i.test(v.trim());
}

let nativeLoad;
/** fscache-native, loaded on first use (a failure answers reads with pi's own read). */
function loadNative() {
  nativeLoad ??= import("../native.js").then(
    (m) => ({ native: m.native }),
    (err) => ({ error: err }),
  );
  return nativeLoad;
}

function errorWithCode(err) {
  return err && typeof err === "object" && typeof err.code === "string" ? err.code : undefined;
}

// Errors the engine reports as pi's read would (§14): they reach the model.
const USER_ERRORS = new Set(["invalid_range", "offset_beyond_eof", "not_regular"]);

function rethrow(err) {
  const e = new Error(err && err.message ? err.message : String(err));
  if (errorWithCode(err)) e.code = err.code;
  throw e;
}

// How the host's read counts a file's lines (issue 43), found by running
// its own read tool once on text in memory (its `operations` hook: no file
// is touched): 2,001 lines ending in "\n". pi 0.73 splits on "\n", so the
// trailing newline makes a last empty line (2002 in details.truncation);
// pi 1.x's streamed read does not count it (2001). The engine's
// details.truncation, markers and diff headers then count as the host's
// read does ("split" or "lines").
const PROBE_LINES = 2001;
let lineCountProbe;
async function hostLineCount(createReadToolDefinitionFn) {
  lineCountProbe ??= (async () => {
    const text = Buffer.from("x\n".repeat(PROBE_LINES));
    const operations = {
      readFile: async () => text,
      access: async () => undefined,
      detectImageMimeType: async () => undefined,
      createReadStream: async function* () {
        yield text;
      },
    };
    try {
      const tool = createReadToolDefinitionFn(process.cwd(), { operations });
      const r = await tool.execute("fscache-probe", { path: "probe.txt" });
      return r?.details?.truncation?.totalLines === PROBE_LINES ? "lines" : "split";
    } catch {
      return "split";
    }
  })();
  return lineCountProbe;
}

/** [start, end] of a read's lines: undefined for the whole file. */
function requestedRange(offset, limit) {
  if (offset === undefined && limit === undefined) return [undefined, undefined];
  const start = offset === undefined || offset < 1 ? 1 : Math.floor(offset);
  const end = limit === undefined ? Infinity : start + Math.max(0, Math.floor(limit)) - 1;
  return [start, end];
}

/**
 * Registers the read override, /readcache-status, /readcache-refresh and
 * the readcache_refresh tool on pi (an ExtensionAPI). Returns the state and
 * the tool definitions (for tests), or undefined when PI_FSCACHE_READ=0.
 *
 * options.native: the engine to use instead of fscache-native (tests).
 */
export default function registerRead(pi, options = {}) {
  if (disabledByEnv(options.env ?? process.env)) return undefined;
  const state = new ReadState();
  const getNative = options.native ? async () => ({ native: options.native }) : loadNative;
  let warned = false;

  const template = createReadToolDefinition(process.cwd());
  // pi 1.x's read declares an outputSchema and returns structuredContent
  // (the text, for programs calling the tool: codemode); 0.73's does neither.
  const structured = template.outputSchema !== undefined;
  const flagOff = () => {
    try {
      return typeof pi.getFlag === "function" && pi.getFlag(FLAG) === true;
    } catch {
      return false;
    }
  };
  if (typeof pi.registerFlag === "function") {
    pi.registerFlag(FLAG, { description: "answer read with pi's own read tool (no read cache)", type: "boolean", default: false });
  }

  async function baseline(toolCallId, args, signal, onUpdate, ctx) {
    const tool = createReadToolDefinition(ctx?.cwd ?? process.cwd());
    const clean = { path: args.path };
    if (args.offset !== undefined) clean.offset = args.offset;
    if (args.limit !== undefined) clean.limit = args.limit;
    return tool.execute(toolCallId, clean, signal, onUpdate, ctx);
  }

  // pi's adapter of the shared view, per session cwd (its memo of records
  // is kept across requests).
  const adapters = new Map();
  async function adapterFor(cwd) {
    const V = await loadView();
    let a = adapters.get(cwd);
    if (!a) {
      a = piAdapter(cwd, V);
      adapters.set(cwd, a);
      while (adapters.size > 8) adapters.delete(adapters.keys().next().value);
    }
    return { V, adapter: a };
  }

  /**
   * The answer to a model's read (issue 48): pi's text for the read, then
   * what the model holds of the file's name, line by line, in the messages
   * it will be sent (the last request and what the turn added since):
   *   - every line the read shows held, unchanged: a marker (for a
   *     truncated read, naming the lines shown, pi's notice kept);
   *   - a whole-file read whose lines from 1 the model holds at an earlier
   *     version: a diff against that version, when the engine finds one
   *     useful and the model's copy patched by it holds every line the
   *     read shows;
   *   - else the text.
   * The answer's record carries `held` (the lines of the version served
   * the model holds after it, with their digest), and a diff `base` (the
   * lines it stands on): the context handler checks both before each
   * request.
   */
  async function decide(serve, resolved, cwd, sm, tail) {
    const full = await serve({});
    if (!full || full.mode === "baseline" || !full.meta || typeof full.text !== "string") return full;
    const name = resolved.absPath;
    const { V, adapter } = await adapterFor(cwd);
    const shown = shownOf(full.text, full.meta.rangeStart, full.truncation?.firstLineExceedsLimit === true);
    const span = V.spanOf(shown);
    const held = span ? { start: span[0], end: span[1], digest: V.digestLines(shown) } : undefined;
    // whole: a read of the whole file (no range asked for): the model's
    // copy of the file becomes what it shows.
    const whole = resolved.offset === undefined && resolved.limit === undefined;
    const answer = (r, extra = {}) => ({ ...r, meta: { ...r.meta, name, whole, ...(held ? { held } : {}), ...(r.reason ? { reason: r.reason } : {}), ...extra } });
    if (!sm || !held) return answer(full);
    if (refreshed(sm, full.meta.pathKey, full.meta.scopeKey)) return answer({ ...full, reason: "refreshed" });
    const msgs = state.view(sm, tail);
    // Only this name's copy decides: the other files' reads are skipped
    // (their lines are never compared), so a read costs the lines of this
    // file's reads in the messages, not of every read.
    const copy = V.rebuild(msgs, V.onlyName(adapter, name));
    const hash = full.meta.servedHash;
    if (copy.holdsAll(name, shown)) {
      // Against the latest version the model was sent of this file, when
      // another: the engine then says that changes exist outside a range.
      const latest = latestVersion(msgs, name);
      let m = latest && latest !== hash && full.meta.scopeKey !== "full" ? await serve({ [full.meta.scopeKey]: latest }) : undefined;
      if (m?.mode !== "unchanged_range") m = await serve({ [full.meta.scopeKey]: hash });
      if ((m?.mode === "unchanged" || m?.mode === "unchanged_range") && m.meta?.servedHash === hash) {
        let text = m.text;
        if (full.truncation?.truncated) {
          // The lines shown, not the range asked for; pi's notice kept.
          const total = /(\d+)(?: lines)?\]$/.exec(m.text)?.[1] ?? String(full.meta.totalLines);
          const notice = noticeOf(full.text);
          text = `[readcache: unchanged in lines ${span[0]}-${span[1]} of ${total}]${notice ? `\n\n${notice}` : ""}`;
        }
        return answer({ ...m, text, truncation: undefined }, { bytes: Buffer.byteLength(text, "utf8") });
      }
      return answer(full);
    }
    // Text: "full_fallback" when the model held some of these lines (at
    // another text), "full" when none.
    const fallback = () => {
      const c = copy.lines(name);
      if (!c || !shown.some(([n]) => c.has(n))) return answer(full);
      const baseHash = latestVersion(msgs, name);
      return answer({ ...full, mode: "full_fallback", reason: "not_held", meta: { ...full.meta, mode: "full_fallback", ...(baseHash ? { baseHash } : {}) } });
    };
    if (full.meta.scopeKey !== "full") return fallback();
    const base = diffBase(msgs, copy, name, hash);
    if (!base) return fallback();
    const d = await serve({ full: base.hash });
    if (d?.mode === "diff" && d.meta?.servedHash === hash) {
      const trial = copy.clone();
      if (trial.applyDiff(name, V.parseUnifiedDiff(d.text)) && trial.holdsAll(name, shown)) {
        return answer(d, { base: { start: 1, end: base.end, digest: base.digest } });
      }
      return answer({ ...full, mode: "full_fallback", reason: "diff_not_held", meta: { ...full.meta, mode: "full_fallback", baseHash: base.hash } });
    }
    return d?.meta?.servedHash === hash && d.mode !== "diff" ? answer(d) : fallback();
  }

  /** The version of name the latest of this package's reads in msgs was served against. */
  function latestVersion(msgs, name) {
    for (let i = msgs.length - 1; i >= 0; i--) {
      const m = msgs[i];
      if (!m || m.role !== "toolResult" || m.toolName !== "read") continue;
      const meta = parseMeta(m.details);
      if (meta && meta.name === name) return meta.servedHash;
    }
    return undefined;
  }

  /**
   * The version a diff may stand on: the latest read of name in msgs whose
   * record says which lines from 1 of its version the model held after it
   * (held), when the copy still holds exactly those lines.
   */
  function diffBase(msgs, copy, name, current) {
    for (let i = msgs.length - 1; i >= 0; i--) {
      const m = msgs[i];
      if (!m || m.role !== "toolResult" || m.toolName !== "read") continue;
      const meta = parseMeta(m.details);
      const h = meta?.held;
      if (!meta || meta.name !== name || !h || h.start !== 1 || meta.servedHash === current) continue;
      if (copy.digest(name, 1, h.end) === h.digest) return { hash: meta.servedHash, end: h.end, digest: h.digest };
    }
    return undefined;
  }

  /**
   * Whether a refresh (§17) of this scope is pending on sm's branch: an
   * invalidation entry overlapping it with no read that sent its text
   * since (a marker in between does not count).
   */
  function refreshed(sm, pathKey, scopeKey) {
    const r = rangeOf(scopeKey) ?? [1, Infinity];
    const whole = scopeKey === "full";
    const within = (s) => {
      const q = rangeOf(s) ?? [1, Infinity];
      return q[0] <= r[0] && r[1] <= q[1];
    };
    const overlaps = (s) => {
      const q = rangeOf(s) ?? [1, Infinity];
      return q[0] <= r[1] && r[0] <= q[1];
    };
    const branch = sm.getBranch();
    for (let i = branch.length - 1; i >= 0; i--) {
      const e = branch[i];
      const inv = parseInvalidation(e);
      if (inv) {
        // a refreshed range blocks the reads of ranges that overlap it, not
        // the whole file's (whose refresh is its own)
        if (inv.pathKey === pathKey && (inv.scopeKey === "full" || (!whole && overlaps(inv.scopeKey)))) return true;
        continue;
      }
      if (e?.type !== "message" || e.message?.role !== "toolResult" || e.message.toolName !== "read") continue;
      const meta = parseMeta(e.message.details);
      if (meta && meta.pathKey === pathKey && (meta.mode === "full" || meta.mode === "full_fallback") && within(meta.scopeKey)) return false;
    }
    return false;
  }

  // The text a marker or diff stood for, memoized per call.
  const restored = new Map();
  const RESTORED_MAX = 256;
  /**
   * The message to send instead of a marker or diff whose base the request
   * no longer holds: pi's read text of that read at the version it was
   * served against (from the object store), else, when that version is
   * gone, a notice that the text is not available (never a marker).
   */
  async function restore(native, m, args, cwd, lineCount, V) {
    const meta = parseMeta(m.details);
    const memo = restored.get(m.toolCallId);
    let text;
    if (memo && meta && memo.hash === meta.servedHash) text = memo.text;
    else if (meta && native && args && typeof args.path === "string") {
      const opts = { path: args.path, cwd, pathKey: meta.pathKey, lineCount };
      if (typeof options.storeDir === "string") opts.storeDir = options.storeDir;
      if (Number.isSafeInteger(args.offset)) opts.offset = args.offset;
      if (Number.isSafeInteger(args.limit)) opts.limit = args.limit;
      for (const extra of [{ objectHash: meta.servedHash }, { noStore: true }]) {
        try {
          const r = await native.readCache({ ...opts, ...extra });
          if (r && (r.mode === "full" || r.mode === "full_fallback") && r.meta?.servedHash === meta.servedHash && typeof r.text === "string") {
            text = r.text;
            break;
          }
        } catch {
          // an engine without objectHash, a store without the object: next
        }
      }
      if (text !== undefined) {
        restored.set(m.toolCallId, { hash: meta.servedHash, text });
        while (restored.size > RESTORED_MAX) restored.delete(restored.keys().next().value);
      }
    }
    if (text === undefined) {
      const note = `[readcache: the text this read answered with is no longer in the conversation and could not be restored; read ${args?.path ?? "the file"} again to see it]`;
      return { ...m, content: [{ type: "text", text: note }], details: { readcacheLost: true } };
    }
    const shown = shownOf(text, meta.rangeStart, false);
    const span = V.spanOf(shown);
    const readcache = { ...meta, mode: "full", restoredFrom: meta.mode, bytes: Buffer.byteLength(text, "utf8"), textHash: textHashOf(text) };
    delete readcache.baseHash;
    delete readcache.base;
    if (span) readcache.held = { start: span[0], end: span[1], digest: V.digestLines(shown) };
    else delete readcache.held;
    return { ...m, content: [{ type: "text", text }], details: { ...m.details, readcache } };
  }

  /**
   * pi's `context` event (before every request, both lines): every marker
   * or diff whose base the messages about to be sent do not hold is
   * replaced by the text it stands for; the result is what the next read
   * decides against.
   */
  async function onContext(event, ctx) {
    const messages = event?.messages;
    if (!Array.isArray(messages)) return undefined;
    const sm = ctx?.sessionManager;
    const cwd = ctx?.cwd ?? process.cwd();
    const loaded = await getNative();
    const native = loaded.native;
    const lineCount = await hostLineCount(createReadToolDefinition);
    const { V, adapter } = await adapterFor(cwd);
    let out;
    try {
      out = await V.judge(messages, { ...adapter, replace: (m, _rec, args) => restore(native, m, args, cwd, lineCount, V) });
    } catch (err) {
      // Never send a marker unchecked: every one of this package's markers
      // and diffs becomes the notice.
      ctx?.ui?.notify?.(`pi-fscache: read cache check failed (${err?.message ?? err}); its markers are withheld`, "warning");
      const withheld = messages.map((m) => {
        const meta = m && m.role === "toolResult" ? parseMeta(m.details) : undefined;
        if (!meta || meta.mode === "full" || meta.mode === "full_fallback") return m;
        return { ...m, content: [{ type: "text", text: "[readcache: this read's text could not be checked; read the file again to see it]" }], details: { readcacheLost: true } };
      });
      out = { messages: withheld, replaced: 1 };
    }
    if (sm) state.request(sm, out.messages);
    return out.replaced > 0 ? { messages: out.messages } : undefined;
  }
  pi.on("context", onContext);

  async function execute(toolCallId, params, signal, onUpdate, ctx) {
    if (flagOff()) return baseline(toolCallId, params, signal, onUpdate, ctx);
    const loaded = await getNative();
    if (!loaded.native || typeof loaded.native.readCache !== "function") {
      if (!warned) {
        warned = true;
        const why = loaded.error ? loaded.error.message : "fscache-native has no readCache";
        ctx?.ui?.notify?.(`pi-fscache: read cache off (${why.split("\n")[0]})`, "warning");
      }
      return baseline(toolCallId, params, signal, onUpdate, ctx);
    }
    const native = loaded.native;
    const cwd = ctx?.cwd ?? process.cwd();
    const { path, offset, limit } = params;
    if (signal?.aborted) throw new Error("Operation aborted");
    // A fractional or non-finite offset or limit: pi's own arithmetic (and
    // notices) for it, which the engine's integers would not reproduce.
    const odd = (n) => n !== undefined && !Number.isSafeInteger(n);
    if (typeof path !== "string" || odd(offset) || odd(limit)) return baseline(toolCallId, params, signal, onUpdate, ctx);

    let resolved;
    try {
      resolved = await native.readCacheResolve({ path, cwd, offset, limit });
    } catch (err) {
      if (USER_ERRORS.has(errorWithCode(err))) rethrow(err);
      return baseline(toolCallId, params, signal, onUpdate, ctx);
    }

    const sm = ctx?.sessionManager;
    const hasSession = sm && typeof sm.getBranch === "function";
    // A program's call (pi 1.x's ctx.executeTool) or one no visible message
    // made: pi's text, nothing recorded (issues 44, 49).
    let nested = false;
    let tail;
    try {
      // the assistant message that issued the call, within 256 entries of
      // the leaf (sibling calls' results may come between)
      tail = hasSession ? (await loadView()).issuingTail(sm, toolCallId, 256) : undefined;
      nested = hasSession && !tail;
    } catch {
      nested = true;
    }
    const lineCount = await hostLineCount(createReadToolDefinition);
    const serve = (b, noStore = false) => native.readCache({ path, cwd, offset, limit, pathKey: resolved.pathKey, bases: b, signal, lineCount, noStore });
    if (nested) {
      // A program gets the engine's text of pi's read (the same bytes, and
      // details.truncation as pi sets it), without the store (noStore) and
      // with no details.readcache: nothing anchors on it. The engine streams
      // a file over maxFileBytes, holding only what it shows, where pi 0.73
      // would load the whole file (a 1 GB file: +1 GB, then an error). A
      // FIFO or device (which pi's read would block on) is refused with the
      // engine's error, as for the model's reads (§14); what the engine
      // does not serve (images, binaries, excluded files) is pi's own read.
      let text;
      try {
        text = await serve({}, true);
      } catch (err) {
        const code = errorWithCode(err);
        if (code === "cancelled" || signal?.aborted) throw new Error("Operation aborted");
        if (USER_ERRORS.has(code)) rethrow(err);
        return baseline(toolCallId, params, signal, onUpdate, ctx);
      }
      if (!text || text.mode === "baseline" || typeof text.text !== "string") {
        const args = text && text.mode === "baseline" ? { path: text.path ?? path, offset: text.offset, limit: text.limit } : params;
        return baseline(toolCallId, args, signal, onUpdate, ctx);
      }
      const answer = { content: [{ type: "text", text: text.text }], details: text.truncation ? { truncation: text.truncation } : undefined };
      if (structured) answer.structuredContent = text.text;
      return answer;
    }
    let result;
    try {
      result = await decide(serve, resolved, cwd, hasSession ? sm : undefined, tail);
    } catch (err) {
      const code = errorWithCode(err);
      if (code === "cancelled" || signal?.aborted) throw new Error("Operation aborted");
      if (USER_ERRORS.has(code)) rethrow(err);
      return baseline(toolCallId, params, signal, onUpdate, ctx);
    }
    if (!result || result.mode === "baseline" || typeof result.text !== "string") {
      const args = result && result.mode === "baseline" ? { path: result.path ?? path, offset: result.offset, limit: result.limit } : params;
      return baseline(toolCallId, args, signal, onUpdate, ctx);
    }
    const details = {};
    if (result.truncation) details.truncation = result.truncation;
    if (result.meta) {
      // textHash: what the model is shown; a result whose visible content no
      // longer hashes to it (a context edit, another extension) anchors nothing.
      details.readcache = { ...result.meta, textHash: textHashOf(result.text) };
      if (hasSession) {
        const content = [{ type: "text", text: result.text }];
        state.record(sm, { role: "toolResult", toolName: "read", toolCallId, content, details, isError: false });
      }
    }
    const answer = { content: [{ type: "text", text: result.text }], details };
    if (structured) answer.structuredContent = result.text;
    return answer;
  }

  // Reads run one at a time, in the order pi starts them (the source order
  // of an assistant message's tool calls): a sibling read answered against
  // the overlay then always comes after the read whose text it relies on.
  let queue = Promise.resolve();
  function executeInOrder(...args) {
    const run = queue.then(() => execute(...args));
    queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  // pi's own definition (name, parameters, description, renderers, and on
  // pi 1.x outputSchema and constrainedSampling) with execute replaced.
  pi.registerTool({ ...template, execute: executeInOrder });

  // §17: the persistent invalidation of a path's scope.
  async function refresh(pathArg, offset, limit, ctx) {
    const loaded = await getNative();
    if (!loaded.native) throw new Error(`pi-fscache: the read cache is off: ${loaded.error?.message ?? "no engine"}`);
    const cwd = ctx?.cwd ?? process.cwd();
    const r = await loaded.native.readCacheResolve({ path: pathArg, cwd, offset, limit });
    let scopeKey = "full";
    if (r.offset !== undefined || r.limit !== undefined) {
      const [start, end] = requestedRange(r.offset, r.limit);
      scopeKey = `r:${start}:${end === Infinity ? OPEN_END : end}`;
    }
    const data = invalidation(r.pathKey, scopeKey);
    pi.appendEntry(CUSTOM_TYPE, data);
    state.clear();
    return data;
  }

  const describeScope = (s) => (s === "full" ? "the whole file" : `lines ${s.slice(2).replace(":", "-").replace(`-${OPEN_END}`, "-end")}`);

  pi.registerCommand("readcache-refresh", {
    description: "make the next read of a file (or of lines start-end) send its text again: /readcache-refresh <path> [start-end]",
    handler: async (args, ctx) => {
      const text = String(args ?? "").trim();
      // "<path> <start>[-<end>]"; a path that names a file as a whole wins (§5.2)
      const cwd = ctx?.cwd ?? process.cwd();
      const m = existsSync(resolvePath(cwd, text)) ? null : /^(.*\S)\s+([1-9][0-9]*)(?:-([1-9][0-9]*))?$/.exec(text);
      let pathArg = text;
      let offset;
      let limit;
      if (m) {
        pathArg = m[1];
        offset = Number(m[2]);
        const end = m[3] === undefined ? offset : Number(m[3]);
        if (end < offset) {
          ctx?.ui?.notify?.(`readcache-refresh: invalid range ${m[2]}-${m[3]}: the end is before the start`, "error");
          return;
        }
        limit = end - offset + 1;
      }
      if (!pathArg) {
        ctx?.ui?.notify?.("usage: /readcache-refresh <path> [start-end]", "error");
        return;
      }
      try {
        const data = await refresh(pathArg, offset, limit, ctx);
        ctx?.ui?.notify?.(`readcache: the next read of ${data.pathKey} (${describeScope(data.scopeKey)}) sends its text again`, "info");
      } catch (err) {
        ctx?.ui?.notify?.(`readcache-refresh: ${err.message}`, "error");
      }
    },
  });

  const refreshTool = {
    name: "readcache_refresh",
    label: "readcache refresh",
    description:
      "Make the next read of a file (or of a line range) return its full text instead of an unchanged marker or a diff. Use it when the file's earlier content is no longer reliable in your context.",
    promptSnippet: "Make the next read of a file send its full text again",
    promptGuidelines: ["Use readcache_refresh when a read returned an unchanged marker or a diff but you need the file's full text again."],
    parameters: Type.Object({
      path: Type.String({ description: "Path to the file (relative or absolute), as given to read" }),
      offset: Type.Optional(Type.Number({ description: "First line of the range to refresh (1-indexed)" })),
      limit: Type.Optional(Type.Number({ description: "Number of lines of the range to refresh" })),
    }),
    async execute(_toolCallId, params, _signal, _onUpdate, ctx) {
      const data = await refresh(params.path, params.offset, params.limit, ctx);
      return {
        content: [{ type: "text", text: `[readcache: refreshed ${params.path} (${describeScope(data.scopeKey)}); the next read returns its full text]` }],
        details: { readcacheRefresh: data },
      };
    },
  };
  pi.registerTool(refreshTool);

  pi.registerCommand("readcache-status", {
    description: "what the read cache trusts on this branch, the modes its reads were served with, and the object store",
    handler: async (_args, ctx) => {
      ctx?.ui?.notify?.(await status(ctx), "info");
    },
  });

  async function status(ctx) {
    const sm = ctx.sessionManager;
    const cwd = ctx?.cwd ?? process.cwd();
    const { V, adapter } = await adapterFor(cwd);
    // what the model holds: the last request sent, else the session's window
    const msgs = state.view(sm, undefined);
    const copy = V.rebuild(msgs, adapter);
    let held = 0;
    for (const c of copy.files.values()) held += c.size;
    const modes = Object.fromEntries(MODES.map((m) => [m, 0]));
    let reads = 0;
    let sent = 0;
    let saved = 0;
    const fullBytes = new Map(); // name -> bytes of the last text sent for it
    for (const m of msgs) {
      if (!m || m.role !== "toolResult" || m.toolName !== "read") continue;
      const meta = parseMeta(m.details);
      if (!meta) continue;
      reads++;
      modes[meta.mode]++;
      const bytes = Number.isFinite(meta.bytes) ? meta.bytes : 0;
      sent += bytes;
      const key = `${meta.name ?? meta.pathKey}\u0000${meta.scopeKey}`;
      if (meta.mode === "full" || meta.mode === "full_fallback") fullBytes.set(key, bytes);
      else if (fullBytes.has(key)) saved += Math.max(0, fullBytes.get(key) - bytes);
    }
    const lines = [];
    lines.push(`readcache: the model holds ${held} lines of ${copy.files.size} files in the messages it is sent`);
    lines.push(`reads in those messages: ${reads} (${MODES.map((m) => `${m} ${modes[m]}`).join(", ")})`);
    if (reads > 0) lines.push(`sent ${sent} bytes; markers and diffs saved about ${saved} bytes (~${Math.round(saved / 4)} tokens)`);
    const loaded = await getNative();
    if (loaded.native && typeof loaded.native.readCacheStore === "function") {
      try {
        const s = await loaded.native.readCacheStore({ dir: options.storeDir ?? `${ctx?.cwd ?? process.cwd()}/.pi/readcache` });
        lines.push(`object store ${s.dir}: ${s.objects} objects, ${s.bytes} bytes`);
      } catch (err) {
        lines.push(`object store: ${err.message}`);
      }
    } else if (loaded.error) {
      lines.push(`engine not loaded: ${loaded.error.message.split("\n")[0]}`);
    }
    return lines.join("\n");
  }

  // §12: correctness rests on the messages of each request alone; these
  // only drop what was sent and the overlay.
  for (const event of ["session_start", "session_compact", "session_tree", "session_shutdown"]) {
    pi.on(event, () => state.clear());
  }

  return { state, execute, refresh, status, refreshTool };
}
