import { call, F } from "../cases/util.mjs";

// grep maxCountPerFile (content mode; count and filesWithMatches ignore it). Combinations with
// maxCount are not here: 18.2.3's maxCount stops the search early, fscache keeps 14.9.9's
// totals (docs/compat.md, "pi-natives 18.2").
export function maxCountPerFileCases() {
  const out = [];
  const g = (name, options, more) => out.push(call(`maxCountPerFile/${name}`, "grep", options, more));
  const trees = [["gr", "foo"], ["gr", "o"], ["lim", "x"], ["names", "a"], ["sorted", "e"], ["gr_types", "e"]];
  for (const [root, pattern] of trees) {
    for (const k of [0, 1, 2, 3, 100]) {
      g(`${root} ${pattern} k=${k}`, { pattern, path: F(root), maxCountPerFile: k });
      g(`${root} ${pattern} k=${k} count`, { pattern, path: F(root), maxCountPerFile: k, mode: "count" });
      g(`${root} ${pattern} k=${k} filesWithMatches`, { pattern, path: F(root), maxCountPerFile: k, mode: "filesWithMatches" });
    }
    for (const k of [1, 2]) {
      g(`${root} ${pattern} k=${k} offset=1`, { pattern, path: F(root), maxCountPerFile: k, offset: 1 });
      g(`${root} ${pattern} k=${k} offset=3`, { pattern, path: F(root), maxCountPerFile: k, offset: 3 });
      g(`${root} ${pattern} k=${k} context=1`, { pattern, path: F(root), maxCountPerFile: k, context: 1 });
      g(`${root} ${pattern} k=${k} contextBefore=2`, { pattern, path: F(root), maxCountPerFile: k, contextBefore: 2 });
      g(`${root} ${pattern} k=${k} contextAfter=2 offset=1`, { pattern, path: F(root), maxCountPerFile: k, contextAfter: 2, offset: 1 });
      g(`${root} ${pattern} k=${k} ignoreCase`, { pattern: pattern.toUpperCase(), path: F(root), maxCountPerFile: k, ignoreCase: true });
      g(`${root} ${pattern} k=${k} onMatch`, { pattern, path: F(root), maxCountPerFile: k }, { onMatch: true });
    }
  }
  g("single file k=1", { pattern: "o", path: F("gr/a.txt"), maxCountPerFile: 1 });
  g("single file k=2 context", { pattern: "o", path: F("gr/a.txt"), maxCountPerFile: 2, context: 1 });
  g("k=1 glob filter", { pattern: "o", path: F("gr"), maxCountPerFile: 1, glob: "*.txt" });
  g("k=1 no match", { pattern: "zzzzzz", path: F("gr"), maxCountPerFile: 1 });
  g("k=-1", { pattern: "o", path: F("gr"), maxCountPerFile: -1 });
  g("k=1.7", { pattern: "o", path: F("gr"), maxCountPerFile: 1.7 });
  // Known differences (docs/compat.md, "pi-natives 18.2"): 18.2.3's maxCount stops the search
  // early, and its grep honours a .gitignore outside a repository (basic has one, no .git).
  g("differs k=1 maxCount=2", { pattern: "o", path: F("gr"), maxCountPerFile: 1, maxCount: 2 });
  g("differs k=2 maxCount=3 offset=1", { pattern: "o", path: F("gr"), maxCountPerFile: 2, maxCount: 3, offset: 1 });
  g("differs basic gitignore without repository", { pattern: "a", path: F("basic"), maxCountPerFile: 1 });
  return out;
}
