import { call } from "./util.mjs";

// A real tree: $(go env GOROOT)/src. Complete results are compared.
export function realTreeCases() {
  const S = "@@G@@/src";
  const out = [];
  const r = (name, fn, options, more = {}) => out.push({ ...call(`realtree/${name}`, fn, { path: S, ...options }, more), budgetMs: 20000 });
  r("glob *.go maxResults=200", "glob", { pattern: "*.go", maxResults: 200 });
  r("glob **/testdata/**", "glob", { pattern: "**/testdata/**" });
  r("glob *.go sortByMtime maxResults=50", "glob", { pattern: "*.go", sortByMtime: true, maxResults: 50 });
  r("glob net/http/*.go", "glob", { pattern: "net/http/*.go" });
  r("glob dirs", "glob", { pattern: "*", fileType: 2 });
  r("glob hidden dotfiles", "glob", { pattern: ".*", hidden: true });
  r("glob {go.mod,go.sum}", "glob", { pattern: "**/{go.mod,go.sum}" });
  r("glob all", "glob", { pattern: "**", hidden: true });
  r("glob cache twice 1", "glob", { pattern: "**/*_test.go", cache: true, maxResults: 300 });
  for (const q of ["main", "http/server", "sort", "zzzzqqq", "fmt/print.go", "strconv", "rt0_linux", "ioutil"])
    r(`fuzzyFind ${JSON.stringify(q)}`, "fuzzyFind", { query: q });
  r("fuzzyFind empty query", "fuzzyFind", { query: "", maxResults: 50 });
  r("fuzzyFind test maxResults=1000", "fuzzyFind", { query: "test", maxResults: 1000 });
  r("grep literal", "grep", { pattern: "func main(", maxCount: 20, offset: 5 });
  r("grep regex", "grep", { pattern: "func \\(\\w+ \\*?\\w*Reader\\) Read\\(", maxCount: 30, offset: 10 });
  r("grep regex count", "grep", { pattern: "TODO\\(\\w+\\)", mode: "count", type: "go" });
  r("grep files", "grep", { pattern: "Deprecated:", mode: "filesWithMatches", maxCount: 100, offset: 20 });
  r("grep context", "grep", { pattern: "ErrUseLastResponse", context: 2, path: S + "/net/http" });
  r("grep ignoreCase glob", "grep", { pattern: "copyright 2009", ignoreCase: true, glob: "**/fmt/*.go" });
  r("grep maxColumns", "grep", { pattern: "^\\s*//.{100,}", maxColumns: 80, maxCount: 40 });
  return out;
}
