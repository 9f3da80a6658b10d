import { call, F } from "../cases/util.mjs";

// grep patterns with look-around and backreferences, which 18.x runs on PCRE2. The engine for
// them is the `regex` helper's work (internal/regex); until it is merged these fail on our
// side. Run alone: make conformance CONFORMANCE18_ARGS='--filter ^lookaround/'.
export function lookaroundCases() {
  const out = [];
  const g = (name, options, more) => out.push(call(`lookaround/${name}`, "grep", options, more));
  const pats = ["o(?=o)", "foo(?=bar)", "(?<!x)o", "(?<=a)b", "(?<=f)oo", "(?!x)o", "a(?!b)", "(\\w+) \\1", "(o)\\1",
    "(?<w>\\w)\\k<w>", "(?P<w>\\w)(?P=w)", "^(?=.*foo).*$", "(?<![a-z])\\d+", "\\b(\\w)\\w*\\1\\b"];
  for (const p of pats) {
    g(`${JSON.stringify(p)}`, { pattern: p, path: F("gr") });
    g(`${JSON.stringify(p)} ignoreCase`, { pattern: p, path: F("gr"), ignoreCase: true });
    g(`${JSON.stringify(p)} count`, { pattern: p, path: F("gr"), mode: "count" });
    g(`${JSON.stringify(p)} filesWithMatches`, { pattern: p, path: F("gr"), mode: "filesWithMatches" });
    g(`${JSON.stringify(p)} context=1`, { pattern: p, path: F("gr"), context: 1 });
    g(`${JSON.stringify(p)} multiline`, { pattern: p, path: F("gr"), multiline: true });
  }
  for (const [root, p] of [["basic", "content(?= of)"], ["basic", "(?<=content )of"], ["basic", "(\\w)\\1"], ["basic", "(?<!\\.)txt"],
    ["gr_types", "(?=\\w+\\()\\w+"], ["gr_types", "(['\"]).*?\\1"], ["lim", "x(?!x)"], ["names", "(?<=[a-z])[A-Z]"]]) {
    g(`${root} ${JSON.stringify(p)}`, { pattern: p, path: F(root) });
    g(`${root} ${JSON.stringify(p)} maxCountPerFile=1`, { pattern: p, path: F(root), maxCountPerFile: 1 });
    g(`${root} ${JSON.stringify(p)} context=2 offset=1`, { pattern: p, path: F(root), context: 2, offset: 1 });
  }
  g("single file lookahead", { pattern: "o(?=o)", path: F("gr/a.txt") });
  g("lookahead glob filter", { pattern: "o(?=o)", path: F("gr"), glob: "*.txt" });
  g("lookahead onMatch", { pattern: "o(?=o)", path: F("gr"), maxCount: 5 }, { onMatch: true });
  return out;
}
