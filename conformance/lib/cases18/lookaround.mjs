import { call, F } from "../cases/util.mjs";

// grep patterns with look-around and backreferences, which 18.x runs on PCRE2. The engine for
// them is the `regex` helper's work (core/grep/search); until it is merged these fail on our
// side. Run alone: make conformance CONFORMANCE18_ARGS='--filter ^lookaround/'.
export function lookaroundCases() {
  const out = [];
  const g = (name, options, more) => out.push(call(`lookaround/${name}`, "grep", options, more));
  const pats = ["o(?=o)", "foo(?=bar)", "(?<!x)o", "(?<=a)b", "(?<=f)oo", "(?!x)o", "a(?!b)", "(\\w+) \\1", "(o)\\1",
    "(?<w>\\w)\\k<w>", "(?P<w>\\w)(?P=w)", "^(?=.*foo).*$", "(?<![a-z])\\d+", "\\b(\\w)\\w*\\1\\b"];
  for (const p of pats) {
    g(`${JSON.stringify(p)}`, { pattern: p, path: F("gr") });
    g(`${JSON.stringify(p)} ignoreCase`, { pattern: p.toUpperCase(), path: F("gr"), ignoreCase: true });
    g(`${JSON.stringify(p)} count`, { pattern: p, path: F("gr"), mode: "count" });
    g(`${JSON.stringify(p)} filesWithMatches`, { pattern: p, path: F("gr"), mode: "filesWithMatches" });
    g(`${JSON.stringify(p)} context=1`, { pattern: p, path: F("gr"), context: 1 });
    g(`${JSON.stringify(p)} multiline`, { pattern: p, path: F("gr"), multiline: true });
  }
  return out;
}
