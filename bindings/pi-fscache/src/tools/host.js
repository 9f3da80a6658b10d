// Which of pi's two known behaviours the host's built-in find, grep and ls
// have (issue 43). The package imports `@mariozechner/pi-coding-agent`,
// which is whichever pi hosts it: pi 0.73 itself, or pi 1.x, whose extension
// loader maps that name onto itself. pi 1.x rewrote the three tools
// (docs/pi-tools.md, "pi 0.73 and pi 1.x"); the overrides give the host's
// answers, so they ask the host's own tool definitions how they behave.
//
// The probes run each built-in's execute with custom operations (pi's hook
// for remote backends: the built-in then calls them instead of fd or the
// file system), so nothing is spawned, read or downloaded:
//   - find: asked for `limit: 0`, pi 1.x's find hands its glob 2 (the limit
//     clamped to 1, and one result past it, which tells "exactly N" apart
//     from "more than N"); pi 0.73's hands it 0.
//   - ls: asked for `limit: 0` of a directory of two entries, pi 1.x's ls
//     lists one and reports the limit; pi 0.73's answers "(empty
//     directory)". The path it is given, "/fscache-probe/../p/", reaches
//     the operations as "/p" when the host resolves paths as pi 1.x does
//     (absolute paths normalized, `file://` URLs taken), and as given when
//     as pi 0.73 does.
//   - grep has no such probe: its custom operations are asked nothing
//     before rg is found (or downloaded). Its behaviour is find's: pi 1.x
//     rewrote both in the same change (rg's --context, the limit proven by
//     one more match, globs rooted at the searched directory).
// A probe that fails or answers neither way gives pi 0.73's behaviour.
import { createFindToolDefinition, createLsToolDefinition } from "@mariozechner/pi-coding-agent";

/** pi 0.73's behaviour of every tool: what a host without pi 1.x's changes gets. */
export const LEGACY = Object.freeze({ find: "0.73", grep: "0.73", ls: "0.73", paths: "0.73" });

/** pi 1.x's behaviour of every tool. */
export const CURRENT = Object.freeze({ find: "1", grep: "1", ls: "1", paths: "1" });

const PROBE_DIR = "/fscache-probe/../p/";

/**
 * Probes find's definition factory (createFindToolDefinition's signature):
 * "1" when its execute asks its glob for one result past a limit clamped
 * to 1, "0.73" otherwise.
 */
export async function probeFind(createDefinition) {
  let asked;
  try {
    const def = createDefinition("/", {
      operations: {
        exists: async () => true,
        glob: async (_pattern, _searchPath, options) => {
          asked = options?.limit;
          return [];
        },
      },
    });
    await def.execute("fscache-probe", { pattern: "fscache-probe", path: "/", limit: 0 }, undefined, undefined, undefined);
  } catch {
    return "0.73";
  }
  return asked === 2 ? "1" : "0.73";
}

/**
 * Probes ls's definition factory: { ls, paths }, each "1" or "0.73" (see
 * the head of this file).
 */
export async function probeLs(createDefinition) {
  let seen;
  let text;
  try {
    const def = createDefinition("/", {
      operations: {
        exists: async (p) => {
          seen ??= p;
          return true;
        },
        stat: async () => ({ isDirectory: () => true }),
        readdir: async () => ["b", "a"],
      },
    });
    const r = await def.execute("fscache-probe", { path: PROBE_DIR, limit: 0 }, undefined, undefined, undefined);
    text = r?.content?.[0]?.text;
  } catch {
    return { ls: "0.73", paths: "0.73" };
  }
  return {
    ls: typeof text === "string" && /^a\/?\n\n\[1 entries limit reached/.test(text) ? "1" : "0.73",
    paths: seen === "/p" ? "1" : "0.73",
  };
}

/** Probes the given factories: { find, grep, ls, paths }. */
export async function probeHost({ createFind = createFindToolDefinition, createLs = createLsToolDefinition } = {}) {
  const find = await probeFind(createFind);
  const { ls, paths } = await probeLs(createLs);
  return Object.freeze({ find, grep: find, ls, paths });
}

let hostPromise;

/** The host pi's behaviour, probed once per process. */
export function hostBehaviour() {
  hostPromise ??= probeHost();
  return hostPromise;
}
