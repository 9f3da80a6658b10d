import { call, F } from "../cases/util.mjs";

// Cancellation of the 18.2 additions; the message compared is "Aborted: ..." (18.2.3's napi
// status prefix "GenericFailure, " is stripped by the runner). An already-aborted signal is
// not here: 18.2.3 ignores it (docs/compat.md).
export function abortCases() {
  const out = [];
  out.push(call("abort/listWorkspace timeoutMs=0 collectAgentsMd", "listWorkspace", { path: F("ws"), maxDepth: 3, collectAgentsMd: true, timeoutMs: 0 }));
  out.push(call("abort/listWorkspace timeoutMs=0 missing root", "listWorkspace", { path: F("nope"), maxDepth: 3, timeoutMs: 0 }));
  out.push(call("abort/grep maxCountPerFile timeoutMs=0", "grep", { pattern: "o", path: F("gr"), maxCountPerFile: 1, timeoutMs: 0 }));
  out.push(call("abort/grep lookahead timeoutMs=0", "grep", { pattern: "o(?=o)", path: F("gr"), timeoutMs: 0 }));
  return out;
}
