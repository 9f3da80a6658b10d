// Sub-millisecond mtimes (fixture `mt`): pi-natives 18.2 reports glob's mtime as milliseconds
// with their fraction and sorts newest first on that float64, then by path; listWorkspace's
// mtimes too. Files 100 µs, a few µs, 300 ns and 1 ns apart, with limits (the bounded top N),
// the scan cache, type filters, onMatch, and a file changed between two calls.
import { call, show, F } from "../cases/util.mjs";

export function mtimeCases() {
  const out = [];
  const g = (name, pattern, o = {}, more) => out.push(call(`mtime/glob ${name} ${show(pattern)}`, "glob", { pattern, path: F("mt"), sortByMtime: true, ...o }, more));
  for (const p of ["many/*.txt", "us/*", "ns/*", "odd/*", "**", "*", "**/*.txt"])
    for (const maxResults of [undefined, 1, 2, 5, 12]) g(maxResults === undefined ? "all" : `maxResults=${maxResults}`, p, maxResults === undefined ? {} : { maxResults });
  g("maxResults=29", "many/*.txt", { maxResults: 29 });
  for (const cache of [false, true]) {
    g(`cache=${cache} maxResults=5`, "many/*.txt", { cache, maxResults: 5 });
    g(`cache=${cache}`, "**", { cache, hidden: true });
  }
  for (const fileType of [1, 2, 3]) {
    g(`fileType=${fileType}`, "**", { fileType });
    g(`fileType=${fileType} maxResults=4`, "**", { fileType, maxResults: 4 });
  }
  g("recursive=false maxResults=3", "*", { recursive: false, maxResults: 3 });
  // (with maxResults, onMatch gets the matches admitted to the top N as the walk runs, a
  // documented difference: docs/compat.md#glob-streams-onmatch-while-the-walk-runs)
  g("onMatch", "ns/*", {}, { onMatch: true });
  g("sortByMtime=false", "ns/*", { sortByMtime: false });
  // A file touched 50 µs after the newest, between two calls (each side has its own copy).
  const glob = (o) => ({ op: "call", fn: "glob", options: { pattern: "many/*.txt", path: "@@W@@", sortByMtime: true, ...o } });
  out.push({
    id: "mtime/glob touched between calls",
    fresh: "mt",
    steps: [glob({ maxResults: 3 }), { op: "write", path: "many/f03.txt", content: "changed\n", mtime: "1767225600.007950000" }, glob({ maxResults: 3 }), glob({})],
  });
  // listWorkspace: entries' mtimes (and the AGENTS.md files', whole milliseconds).
  for (const maxDepth of [1, 2, 3])
    for (const collectAgentsMd of [false, true])
      out.push(call(`mtime/listWorkspace maxDepth=${maxDepth}${collectAgentsMd ? " collectAgentsMd" : ""}`, "listWorkspace", { path: F("mt"), maxDepth, collectAgentsMd }));
  // fuzzyFind and grep carry no mtime; their order does not depend on it.
  out.push(call("mtime/fuzzyFind \"txt\"", "fuzzyFind", { query: "txt", path: F("mt"), maxResults: 20 }));
  out.push(call("mtime/grep \"f1\"", "grep", { pattern: "f1", path: F("mt") }));
  return out;
}
