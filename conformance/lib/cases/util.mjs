/** One-call case. */
export function call(id, fn, options, more = {}) {
  const { onMatch, signal, rawArgs, ...rest } = more;
  const c = { fn, options };
  if (onMatch) c.onMatch = true;
  if (signal) c.signal = signal;
  if (rawArgs) c.rawArgs = rawArgs;
  return { id, call: c, ...rest };
}

/** A short, readable, id-safe rendering of a value (patterns, queries). */
export function show(v) {
  return JSON.stringify(v);
}

export const F = (rel) => (rel ? `@@F@@/${rel}` : "@@F@@");
