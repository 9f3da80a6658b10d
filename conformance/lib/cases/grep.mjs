import { call, show, F } from "./util.mjs";
import { BIN_OFFSETS } from "../fixtures.mjs";

const PATTERNS = [
  "foo", "Foo", "FOO", "^foo", "foo$", "foo\\s*$", "^$", "^\\s*$", "bar", "\\bfoo\\b", "foo|bar", "zzz", ".", "(?i)foo",
  "o{2}", "a{2}", "${x}", "\\$\\{x\\}", "foo(", "foo(bar", "(unbalanced", "end)", "balanced (a)", "{}", "x{1,3}", "{a}",
  "p{L}", "\\p{L}+", "\\p{Greek}+", "\\p{Cyrillic}", "\\p{Han}", "\\w+ünder", "\\d+", "[[:alpha:]]+x", "\\x{1F600}",
  "😀", "é", "e\u0301", "Straße", "ß", "(?i)strasse", "ǅ", "\\.", "a.b.c", "a\\.b", "back\\\\slash", "\\t", "\\r", "\\r$",
  "bar\\r", "$", "^", "", " ", "  ", "TODO:", "//", "\\bfoo", "foo\\b", "[^\\x00-\\x7F]", "\\W", "\\S+\\s+\\S+",
  "x{500}", "foo.*$", "\\u{1F600}", "(?x) f o o", "[a-c]{2,}", "\\s+$", "\\A", "\\z", "fo+", "f.o", "(?U)f.*o",
  "{", "}", "{1}", "a{", "a{1", "a{1,", "{,2}", "\\{", "\\}", "(foo)(bar", "foo)", "((foo)", "[(]", "\\(", "()",
  "\\p{Lu}\\p{Ll}+", "\\P{L}+", "[\\p{Greek}&&\\p{Lu}]+", "\\x41", "\\N", "a{2}{3}",
];

export function grepCases() {
  const out = [];
  const GR = F("gr");
  for (const p of PATTERNS) out.push(call(`grep/pattern ${show(p)}`, "grep", { pattern: p, path: GR }));

  const opt = (name, pattern, o, path = GR) => out.push(call(`grep/${name} ${show(pattern)}`, "grep", { pattern, path, ...o }));
  for (const p of ["foo", "straße", "STRASSE", "σας", "привет", "k", "ǆ", "istanbul", "i̇stanbul", "É", "ſ", "s", "\\p{Lu}", "[a-z]+ here", "FOO|bar"])
    opt("ignoreCase", p, { ignoreCase: true });
  opt("ignoreCase=false", "foo", { ignoreCase: false });
  for (const p of ["foo\\nbar", "^bar", "foo$", "^$", "(?s)foo.bar", "foo\\r\\nbar", "bar$", "^foo", "\\Afoo", "foo\\z", "o\\s+b"])
    opt("multiline", p, { multiline: true });
  opt("multiline ignoreCase", "^FOO", { multiline: true, ignoreCase: true });
  opt("hidden=false", "foo", { hidden: false });
  opt("gitignore=false", "foo", { gitignore: false });
  opt("gitignore=false hidden=false", "foo", { gitignore: false, hidden: false });
  opt("cache=true", "foo", { cache: true });
  opt("cache=true hidden=false", "foo", { cache: true, hidden: false });
  opt("cache=true glob", "foo", { cache: true, glob: "**/*.md" });
  opt("timeoutMs=60000", "foo", { timeoutMs: 60000 });
  out.push(call(`grep/live signal "foo"`, "grep", { pattern: "foo", path: GR }, { signal: "live" }));

  for (const g of ["*.txt", "*.md", "**/*.md", "sub/**", "*.{js,ts}", "{a.txt,b.txt}", "node_modules/**", "**/node_modules/**", "*.dat",
    ".hidden.txt", "a.txt", "sub/*.ts", "*.TXT", "sub", "*", "**", "", " ", "sub\\deep\\*", "d.ts", "{a.txt", ".*", ".hdir/*", "link*"])
    opt(`glob=${show(g)}`, "foo", { glob: g });
  for (const g of ["*.js", "**", "node_modules/**", "**/node_modules/**", "src/**", "*node_modules*"])
    opt(`nm glob=${show(g)}`, "needle", { glob: g, mode: "filesWithMatches" }, F("nm"));
  opt("nm no glob", "needle", { mode: "filesWithMatches" }, F("nm"));
  opt("nm cache", "needle", { mode: "filesWithMatches", cache: true }, F("nm"));
  opt("nm cache glob", "needle", { mode: "filesWithMatches", cache: true, glob: "**/node_modules/**" }, F("nm"));

  const TYPES = ["js", "ts", "json", "yaml", "yml", "toml", "md", "markdown", "py", "python", "rs", "rust", "go", "java", "kt", "kotlin",
    "c", "cpp", "cxx", "cs", "csharp", "php", "rb", "ruby", "sh", "bash", "zsh", "fish", "html", "css", "scss", "sass", "less", "xml",
    "docker", "dockerfile", "make", "makefile", "Dockerfile", ".js", "JS", ".JS", "txt", "README", "lock", "zzz", "Md", "d.ts", "",
    "js,ts", "*.js", "jsx", "mdx", "h", "hpp", "Rakefile", "gemspec"];
  for (const t of TYPES) opt(`type=${show(t)}`, "needle", { type: t, mode: "filesWithMatches" }, F("gr_types"));
  opt("type and glob", "needle", { type: "ts", glob: "sub/**", mode: "filesWithMatches" }, F("gr_types"));
  opt("type content", "needle", { type: "go" }, F("gr_types"));

  // output modes
  for (const mode of ["content", "count", "filesWithMatches"]) {
    for (const p of ["foo", "zzz", "needle", "o", "^", "\\bfoo\\b"]) opt(`mode=${mode}`, p, { mode });
    opt(`mode=${mode} lim`, "m", { mode }, F("lim"));
    opt(`mode=${mode} binary`, "foo", { mode, glob: "*.dat" });
    opt(`mode=${mode} binary tail`, "tail", { mode, glob: "*.dat" });
    opt(`mode=${mode} big`, "needle", { mode }, F("gr_big"));
    opt(`mode=${mode} ignoreCase`, "FOO", { mode, ignoreCase: true });
  }

  // offset / maxCount across files, in every mode
  for (const mode of ["content", "count", "filesWithMatches"])
    for (const maxCount of [undefined, 0, 1, 2, 4, 9])
      for (const offset of [undefined, 0, 1, 3, 8, 12]) {
        const o = { mode };
        if (maxCount !== undefined) o.maxCount = maxCount;
        if (offset !== undefined) o.offset = offset;
        opt(`limits mode=${mode} maxCount=${maxCount} offset=${offset}`, "m", o, F("lim"));
      }
  opt("limits with context", "m", { maxCount: 3, offset: 2, context: 1 }, F("lim"));
  opt("limits large offset", "foo", { offset: 1000 });
  opt("limits maxCount=1 per-file cap", "foo", { maxCount: 1 });

  // context
  const CTX = { glob: "ctx.txt" };
  for (const n of [0, 1, 2, 3, 10]) opt(`context=${n}`, "hit", { ...CTX, context: n });
  for (const [b, a] of [[1, 0], [0, 1], [2, 1], [1, 2], [3, 3], [0, 0], [5, 0], [0, 5]]) opt(`contextBefore=${b} contextAfter=${a}`, "hit", { ...CTX, contextBefore: b, contextAfter: a });
  opt("contextBefore=2 only", "hit", { ...CTX, contextBefore: 2 });
  opt("contextAfter=2 only", "hit", { ...CTX, contextAfter: 2 });
  opt("context=3 contextBefore=1", "hit", { ...CTX, context: 3, contextBefore: 1 });
  opt("context=3 contextAfter=0", "hit", { ...CTX, context: 3, contextAfter: 0 });
  opt("context=2 mode=count", "hit", { ...CTX, context: 2, mode: "count" });
  opt("context=2 mode=filesWithMatches", "hit", { ...CTX, context: 2, mode: "filesWithMatches" });
  opt("context=2 offset=2 maxCount=2", "hit", { ...CTX, context: 2, offset: 2, maxCount: 2 });
  opt("context=1 whitespace", "hit", { glob: "ctx-ws.txt", context: 2 });
  opt("context=2 crlf", "foo", { glob: "crlf.txt", context: 2 });
  opt("context=1 all files", "foo", { context: 1 });
  opt("context=1 maxColumns=5", "foo", { glob: "long.txt", context: 1, maxColumns: 5 });

  // maxColumns on ASCII and multibyte lines
  for (const n of [0, 1, 2, 3, 4, 5, 6, 7, 10, 20, 50, 503, 504, 505])
    opt(`maxColumns=${n}`, "foo", { glob: "long.txt", maxColumns: n });
  opt("maxColumns=8 unicode", ".", { glob: "unicode.txt", maxColumns: 8 });
  opt("maxColumns=3 all", "foo", { maxColumns: 3 });

  // line endings and special content
  for (const p of ["foo$", "bar$", "\\r", "foo bar", "^$", "end foo$", "baz$", "baz\\s$"]) opt("crlf", p, { glob: "crlf.txt" });
  for (const p of ["foo", "bar", "foo$"]) opt("cr-only", p, { glob: "cr-only.txt" });
  opt("nonl", "without newline$", { glob: "nonl.txt" });
  opt("only-newlines", "^$", { glob: "only-newlines.txt" });
  opt("empty-file", "^", { glob: "empty.txt" });
  for (const p of ["needle", "needle at end", "^a+$"]) opt("big", p, { maxCount: 5 }, F("gr_big"));
  opt("big count", "a", { mode: "count" }, F("gr_big"));

  // binary detection: where the first NUL is matters (a NUL in the first 64 KiB hides the file)
  const BP = F("bin_pos");
  for (const off of BIN_OFFSETS) {
    opt(`binary nul_at_${off} count`, "foo", { mode: "count" }, `${BP}/nul_at_${off}.dat`);
    opt(`binary nul_at_${off} content maxCount=2`, "foo", { maxCount: 2, offset: 1 }, `${BP}/nul_at_${off}.dat`);
  }
  opt("binary dir count", "foo", { mode: "count" }, BP);
  opt("binary dir files", "foo", { mode: "filesWithMatches" }, BP);
  opt("binary dir after-nul text", "after", { mode: "count" }, BP);
  opt("binary long first line", "foo", { mode: "count" }, `${BP}/nul_first_block_long_line.dat`);
  opt("binary nul last byte", "foo", { mode: "count" }, `${BP}/nul_last_byte.dat`);

  // single-file paths
  const file = (name, path, o = {}, cwd) => out.push({ ...call(`grep/single-file ${name}`, "grep", { pattern: o.pattern ?? "foo", path, ...o }), ...(cwd ? { cwd } : {}) });
  file("absolute", F("gr/a.txt"));
  file("relative", "gr/a.txt");
  file("relative dotdot", "./gr/../gr/a.txt");
  file("dot-relative in cwd", "./a.txt", {}, F("gr"));
  file("through symlink", F("gr/link_to_a"));
  file("binary", F("gr/bin.dat"));
  file("binary files mode", F("gr/bin.dat"), { mode: "filesWithMatches" });
  file("crlf", F("gr/crlf.txt"), { pattern: "foo$" });
  file("empty", F("gr/empty.txt"), { pattern: "^" });
  file("over 4MiB", F("gr_big/over4m.txt"), { pattern: "needle" });
  file("exactly 4MiB", F("gr_big/exact4m.txt"), { pattern: "needle" });
  file("count", F("gr/a.txt"), { mode: "count" });
  file("files", F("gr/a.txt"), { mode: "filesWithMatches" });
  file("glob filter not matching", F("gr/a.txt"), { glob: "*.md" });
  file("type filter not matching", F("gr/a.txt"), { type: "js" });
  file("hidden file hidden=false", F("gr/.hidden.txt"), { hidden: false });
  file("ignored file", F("gr/ignored.txt"));
  file("offset maxCount context", F("gr/b.txt"), { pattern: "match", offset: 2, maxCount: 3, context: 1 });
  file("cache", F("gr/a.txt"), { cache: true });
  file("onMatch", F("gr/a.txt"), {});
  out[out.length - 1].call.onMatch = true;

  // onMatch gets the final shaped matches
  const om = (name, pattern, o, path = GR) => out.push(call(`grep/onMatch ${name} ${show(pattern)}`, "grep", { pattern, path, ...o }, { onMatch: true }));
  om("content", "foo", {});
  om("offset maxCount", "m", { offset: 2, maxCount: 3 }, F("lim"));
  om("count", "m", { mode: "count" }, F("lim"));
  om("files", "m", { mode: "filesWithMatches", offset: 1 }, F("lim"));
  om("context", "hit", { glob: "ctx.txt", context: 1 });
  om("no match", "zzz", {});

  // links are not followed; unicode; relative root
  opt("links", "file|inner|deep", { mode: "filesWithMatches" }, F("links"));
  opt("links content", ".", {}, F("links"));
  opt("names", ".", { mode: "filesWithMatches" }, F("names"));
  opt("nonutf8", ".", {}, F("nonutf8"));
  opt("empty tree", ".", {}, F("empty"));
  out.push(call(`grep/root relative`, "grep", { pattern: "foo", path: "gr" }));
  out.push({ ...call(`grep/root dot`, "grep", { pattern: "foo", path: "." }), cwd: GR });
  out.push(call(`grep/root through symlink`, "grep", { pattern: "foo", path: F("gr/link_to_sub") }));

  // special files (a FIFO): own runner process, so a hang cannot take other cases with it
  const sp = (name, fn, options) => out.push({ ...call(`grep/special ${name}`, fn, options), proc: "special", callTimeoutMs: 10000, budgetMs: 12000 });
  sp("grep dir with fifo", "grep", { pattern: "needle", path: F("special") });
  sp("grep fifo path", "grep", { pattern: "needle", path: F("special/fifo") });
  sp("glob dir with fifo", "glob", { pattern: "**", path: F("special") });
  sp("glob dir with fifo hidden", "glob", { pattern: "*", path: F("special"), hidden: true, fileType: 3 });
  sp("fuzzyFind dir with fifo", "fuzzyFind", { query: "", path: F("special") });
  sp("grep cache dir with fifo", "grep", { pattern: "needle", path: F("special"), cache: true });
  return out;
}
