// Seeded random cases: glob patterns, fuzzy queries and grep regexes built from small grammars
// over the fixtures' vocabulary. The seed is fixed, so the case list is the same on every run.
import { call, show, F } from "./util.mjs";

function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (arr) => arr[Math.floor(next() * arr.length)];
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  return { next, pick, int };
}

const GLOB_TOKENS = [
  "*", "*", "?", "**", "/", "/", "**/", "a", "b", "x", "src", "lib", "deep", "docs", "test", "txt", "md", "ts", "js", "go",
  ".", ".", "-", "_", "[ab]", "[!a]", "[a-z]", "[0-9]", "{a,b}", "{src,docs}", "{*.md,*.ts}", "{x1,x2}.js", "{", "}", "main",
  "util", "1", "0", "[.]", "[!.]*",
];

const BASIC_PATHS = ["a.txt", "ab.txt", "abc.txt", "a.b.c", "x1.js", "x10.js", "y.ts", "z.tsx", "-dash.txt", "Makefile", "c.md",
  "src/main.go", "src/util_test.go", "src/a.txt", "src/lib/x.ts", "src/lib/y.tsx", "src/lib/deep/z.js", "src/lib/deep/deeper/w.ts",
  "docs/readme.md", "docs/guide.markdown", "test/testdata/t1.txt", "test/testdata/sub/t2.txt", ".hidden/h.txt", ".env",
  "src/.secret.ts", "node_modules/pkg/index.js", "log/app.log", "empty_dir"];

/** A real path with parts replaced by wildcards, classes and braces: mostly matches something. */
function mutateGlob(r) {
  const segs = r.pick(BASIC_PATHS).split("/");
  const out = segs.map((seg) => {
    const k = r.int(0, 9);
    const chars = [...seg];
    const at = r.int(0, chars.length - 1);
    if (k === 0) return "*";
    if (k === 1) return "**";
    if (k === 2) { chars[at] = "?"; return chars.join(""); }
    if (k === 3) { chars[at] = `[${chars[at]}${r.pick(["x", "-z", "A"])}]`; return chars.join(""); }
    if (k === 4) { chars[at] = `[!${r.pick(["q", chars[at]])}]`; return chars.join(""); }
    if (k === 5) return `{${seg},${r.pick(["nope", "lib", "docs", "*.md"])}}`;
    if (k === 6) return chars.slice(0, at).join("") + "*";
    if (k === 7) return "*" + chars.slice(at).join("");
    return seg;
  });
  let start = r.int(0, Math.max(0, out.length - 1));
  if (r.next() < 0.5) start = 0;
  return out.slice(start).join("/");
}

function genGlob(r) {
  if (r.next() < 0.7) return mutateGlob(r);
  const n = r.int(1, 6);
  let s = "";
  for (let i = 0; i < n; i++) s += r.pick(GLOB_TOKENS);
  return s;
}

const FZ_WORDS = ["main", "button", "src", "components", "string", "utils", "docs", "api", "readme", "domain", "notes", "plan", "index",
  "abc", "a/b", "c/d", "e.txt", "group", "test", "über", "straße", "日本", "café", "space", "name"];

function genQuery(r) {
  let w = r.pick(FZ_WORDS);
  // drop, duplicate or swap characters, change case, add separators
  const chars = [...w];
  const ops = r.int(0, 3);
  for (let i = 0; i < ops && chars.length > 1; i++) {
    const k = r.int(0, 3);
    const at = r.int(0, chars.length - 1);
    if (k === 0) chars.splice(at, 1);
    else if (k === 1) chars.splice(at, 0, r.pick(["/", "_", "-", ".", " ", "x", "n"]));
    else if (k === 2) chars[at] = chars[at].toUpperCase();
    else if (at + 1 < chars.length) [chars[at], chars[at + 1]] = [chars[at + 1], chars[at]];
  }
  w = chars.join("");
  if (r.next() < 0.2) w += r.pick(["/", ".ts", " ", "/" + r.pick(FZ_WORDS)]);
  return w;
}

const RX_ATOMS = ["foo", "bar", "line", "match", "hit", "ctx", "é", "日本", "o", "a", ".", "\\w+", "\\d", "\\s", "[a-z]", "[A-Z]",
  "\\b", "(foo|bar)", "(?:x|y)", "\\p{L}", "[^ ]", " ", "1", "2", "\\.", "ß", "Σ"];
const RX_QUANT = ["", "", "", "+", "*", "?", "{2}", "{1,3}", "+?"];

const GR_LINES = ["foo bar", "Foo upper", "foofoo foo twice", "trailing foo", "  indented foo", "match line 10", "line 7",
  "Straße", "ΣΑΣ σας Σας", "Привет мир", "日本語テキスト", "émoji 😀 test", "word_with_ünder", "const x = `${x}`;", "foo(bar)",
  "a{2} literal", "function foo(", "x{1,3}", "balanced (a) (b)", "$dollar", "a.b.c", "// TODO: fix", "hit 12", "ctx 3"];

/** A piece of a real line with characters generalised: mostly matches something. */
function mutateRegex(r) {
  const line = [...r.pick(GR_LINES)];
  const a = r.int(0, line.length - 1);
  const b = r.int(a + 1, Math.min(line.length, a + 8));
  const esc = (c) => (/[\\^$.|?*+()[\]{}]/.test(c) ? "\\" + c : c);
  let s = "";
  for (const c of line.slice(a, b)) {
    const k = r.int(0, 11);
    if (k === 0) s += ".";
    else if (k === 1) s += /\p{L}/u.test(c) ? "\\w" : /\d/.test(c) ? "\\d" : /\s/.test(c) ? "\\s" : ".";
    else if (k === 2) s += esc(c) + r.pick(["+", "*", "?", "{1,2}"]);
    else if (k === 3) s += `[${esc(c)}${r.pick(["x", "0-9", "A-Z"])}]`;
    else s += esc(c);
  }
  return (r.next() < 0.15 ? "^" : "") + s + (r.next() < 0.1 ? "$" : "");
}

function genRegex(r) {
  if (r.next() < 0.65) return mutateRegex(r);
  let s = r.next() < 0.2 ? "^" : "";
  const n = r.int(1, 4);
  for (let i = 0; i < n; i++) {
    const atom = r.pick(RX_ATOMS);
    const q = r.pick(RX_QUANT);
    s += q && atom.length > 1 && !atom.startsWith("(") && !atom.startsWith("[") && !atom.startsWith("\\") ? `(?:${atom})${q}` : atom + q;
  }
  if (r.next() < 0.2) s += "$";
  return s;
}

export function generatedCases() {
  const out = [];
  const seen = new Set();
  const once = (key) => (seen.has(key) ? false : (seen.add(key), true));

  let r = rng(20240917);
  for (let i = 0; out.length < 120 && i < 1000; i++) {
    const p = genGlob(r);
    const o = { pattern: p, path: F("basic") };
    if (r.next() < 0.25) o.hidden = true;
    if (r.next() < 0.15) o.recursive = false;
    if (r.next() < 0.15) o.fileType = r.int(1, 2);
    const id = `glob/gen/${show(p)}${o.hidden ? " hidden" : ""}${o.recursive === false ? " nonrecursive" : ""}${o.fileType ? " fileType=" + o.fileType : ""}`;
    if (once(id)) out.push(call(id, "glob", o));
  }

  r = rng(7);
  const nFz = out.length + 70;
  for (let i = 0; out.length < nFz && i < 1000; i++) {
    const q = genQuery(r);
    const id = `fuzzy/gen/${show(q)}`;
    if (once(id)) out.push(call(id, "fuzzyFind", { query: q, path: F("fz"), maxResults: 20 }));
  }

  r = rng(99);
  const nRx = out.length + 90;
  for (let i = 0; out.length < nRx && i < 1000; i++) {
    const p = genRegex(r);
    const o = { pattern: p, path: F("gr") };
    if (r.next() < 0.3) o.ignoreCase = true;
    if (r.next() < 0.2) o.multiline = true;
    if (r.next() < 0.3) o.maxCount = r.int(1, 5);
    const id = `grep/gen/${show(p)}${o.ignoreCase ? " i" : ""}${o.multiline ? " m" : ""}${o.maxCount ? " max=" + o.maxCount : ""}`;
    if (once(id)) out.push(call(id, "grep", o));
  }
  return out;
}
