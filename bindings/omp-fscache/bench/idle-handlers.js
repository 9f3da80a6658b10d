// The bench's third baseline (not part of the package): an extension with a
// `context` and a `tool_result` handler that change nothing. omp clones
// every outgoing message for a context handler (structuredClone in its
// extension runner) and deep-compares them after; with this loaded, omp's
// own read pays that too, so the package's latency over it is its own work.
export default function idleHandlers(pi) {
  pi.on("context", () => undefined);
  pi.on("tool_result", () => undefined);
}
