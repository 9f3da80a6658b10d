// pi's `read`, answered by fscache's read cache (seed 001).
//
// The engine (fscache-native's readCache) reads the file, hashes it, picks
// the mode and writes the exact text; this module holds only the session
// side: which hashes the model has provably seen (the replay of §7 over the
// session branch, and the in-flight overlay), the commands and the
// readcache_refresh tool of §17, and the fall-back to pi's own read tool for
// whatever the engine does not serve (images, binaries, errors: §6, §14).
//
// Turned off by PI_FSCACHE_READ=0 (nothing of the read cache is registered:
// pi's read stays), or per run by pi's flag --no-fscache-read (the override
// answers with pi's own read).

import { existsSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { createReadToolDefinition } from "@mariozechner/pi-coding-agent";
import { Type } from "typebox";
import { CUSTOM_TYPE, MODES, invalidation, textHashOf } from "./replay.js";
import { ReadState } from "./state.js";

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

// How far back from the leaf a read's own call is looked for (sibling
// calls' results may come between it and the leaf).
const CALL_LOOKBACK = 256;

/**
 * Whether the assistant message that issued toolCallId is on sm's branch
 * near the leaf: pi appends the model's message before running its tools.
 * A call no assistant message issued is a program's (pi 1.x's
 * ctx.executeTool(), id "<parent id>/<n>", its result going back to the
 * calling tool, never into the transcript): it gets pi's text, never a
 * marker or a diff, and anchors nothing.
 */
function modelIssued(sm, toolCallId) {
  if (typeof toolCallId !== "string") return false;
  const issued = (e) =>
    e && e.type === "message" && e.message && e.message.role === "assistant" && Array.isArray(e.message.content) && e.message.content.some((c) => c && c.type === "toolCall" && c.id === toolCallId);
  if (typeof sm.getLeafId === "function" && typeof sm.getEntry === "function") {
    let id = sm.getLeafId();
    for (let steps = 0; id && steps < CALL_LOOKBACK; steps++) {
      const e = sm.getEntry(id);
      if (!e) return false;
      if (issued(e)) return true;
      id = e.parentId;
    }
    return false;
  }
  const branch = sm.getBranch();
  for (let i = branch.length - 1; i >= 0 && i >= branch.length - CALL_LOOKBACK; i--) if (issued(branch[i])) return true;
  return false;
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
    try {
      nested = hasSession && !modelIssued(sm, toolCallId);
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
    let bases = {};
    let known;
    if (hasSession) {
      try {
        const [start, end] = requestedRange(resolved.offset, resolved.limit);
        known = state.knowledge(sm);
        bases = known.bases(resolved.pathKey, start, end);
      } catch {
        bases = {}; // §14: a replay that fails trusts nothing
        known = undefined;
      }
    }

    let result;
    try {
      result = await serve(bases);
      // A marker standing on a full-scope anchor of which the model holds
      // only lines 1..known (a diff on a truncated read): served only when
      // what a read shows now lies within them, else the text.
      const m = result?.meta;
      if (known && m && (m.mode === "unchanged" || m.mode === "unchanged_range") && (m.scopeKey === "full" || bases[m.scopeKey] !== m.baseHash)) {
        const shown = known.shownOf(m.pathKey, m.baseHash);
        if (shown?.kind === "weak") {
          if (m.mode === "unchanged_range") {
            if (!(m.rangeEnd <= shown.known)) {
              const { full: _weak, ...rest } = bases;
              result = await serve(rest);
            }
          } else {
            const text = await serve({});
            const t = text?.truncation;
            const lines = t && t.truncated ? t.outputLines : text?.meta?.totalLines;
            if (!(lines <= shown.known)) result = text;
          }
        }
      }
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
    const k = state.replayed(ctx.sessionManager);
    const lines = [];
    lines.push(`readcache: ${k.paths.size} files, ${k.scopes} scopes trusted on this branch`);
    lines.push(`reads in the replay window: ${k.reads} (${MODES.map((m) => `${m} ${k.modes[m]}`).join(", ")})`);
    if (k.reads > 0) {
      lines.push(`sent ${k.servedBytes} bytes; markers and diffs saved about ${k.savedBytes} bytes (~${Math.round(k.savedBytes / 4)} tokens)`);
    }
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

  // §12: correctness rests on the replay alone; these only drop the
  // disposable memo and overlay.
  for (const event of ["session_start", "session_compact", "session_tree", "session_shutdown"]) {
    pi.on(event, () => state.clear());
  }

  return { state, execute, refresh, status, refreshTool };
}
