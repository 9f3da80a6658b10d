import { call, show, F } from "./util.mjs";

const FZ_QUERIES = [
  // empty and normalized-empty
  "", " ", "._-", "/", "\\", "..", " / ", "_",
  // exact basename / prefix / contains
  "main", "MAIN", " main ", "main.go", "Main.java", "mai", "ain", "domain", "index.ts", "readme.md", "plan",
  // subsequence with gaps
  "mn", "mngo", "btn", "bttn", "mainjava", "stringutils", "strutl", "m_a_i_n", "main_", "m-a-i-n", "xyz", "abc", "acb",
  "aaa", "ee", "ttt", "tsx",
  // path-style
  "src/comp", "src/components/button", "comp/btn", "sr/cm/bt", "docs/api", "api/readme", "docs/apireadme", "a/b/c",
  "abc/e", "a/e", "/main", "main/", "main/index", "src/", "s/c/b", "docs/api-reference.md", "a/b/c/d/e.txt", "abcde",
  "utils/string", "src\\components",
  // unicode and case folding
  "über", "ÜBER", "uber", "straße", "STRASSE", "strasse", "istanbul", "i̇stanbul", "İstanbul", "σας", "ΣΑΣ", "σασ",
  "日本", "本語", "日本語.txt", "café", "cafe", "cafe\u0301", "ａｂｃ", "abc.txt", "😀", "smile", "ﬁle", "file", "k", "k.txt",
  // misc
  "e.txt", "x", "zzz", "node", "index", "secret", "env", "ignored", "build", "empty", "space name", "x y", "xy",
];

export function fuzzyCases() {
  const out = [];
  const FZ = F("fz");
  for (const q of FZ_QUERIES) out.push(call(`fuzzy/fz/query ${show(q)}`, "fuzzyFind", { query: q, path: FZ }));
  const opt = (name, query, o, path = FZ) => out.push(call(`fuzzy/options/${name} ${show(query)}`, "fuzzyFind", { query, path, ...o }));
  for (const q of ["secret", "env", "", "hidden", "git"]) opt("hidden=true", q, { hidden: true });
  for (const q of ["ignored", "main", "", "build"]) opt("gitignore=false", q, { gitignore: false });
  opt("gitignore=false hidden", "", { gitignore: false, hidden: true, maxResults: 1000 });
  for (const n of [0, 1, 3, 1000]) {
    opt(`maxResults=${n}`, "main", { maxResults: n });
    opt(`maxResults=${n}`, "", { maxResults: n });
  }
  opt("maxResults=5", "a", { maxResults: 5 });
  opt("cache=true", "main", { cache: true });
  opt("cache=true empty query", "", { cache: true });
  opt("timeoutMs=60000", "main", { timeoutMs: 60000 });
  out.push(call(`fuzzy/options/live signal "main"`, "fuzzyFind", { query: "main", path: FZ }, { signal: "live" }));

  // more than 100 entries: default maxResults is 100, totalMatches counts all
  opt("default cap basic", "", {}, F("gi_nogit"));
  opt("default cap basic t", "t", {}, F("gi_nogit"));

  // link following: links to dirs are walked, links to files are files, broken links skipped,
  // cycles terminate
  const L = F("links");
  for (const q of ["", "inner", "deep", "file", "link", "broken", "loop", "self", "back", "outside", "readme", "hid", "x.txt", "chain", "empty", "dir", "link_dir/inner", "up_file"])
    opt("links", q, { maxResults: 1000 }, L);
  opt("links hidden", "", { maxResults: 1000, hidden: true }, L);
  opt("links hidden x", "x", { maxResults: 1000, hidden: true }, L);
  opt("links gitignore=false", "", { maxResults: 1000, gitignore: false }, L);

  for (const q of ["", "space", "ü", "caf", "emoji", "😀", "bracket", "{", "a", "b/c", "tab", "line", "~", "+"]) opt("names", q, { maxResults: 1000 }, F("names"));
  for (const q of ["", "main", "x", "util test", "src/lib", "deep", "txt", "node"]) opt("basic", q, { maxResults: 1000 }, F("basic"));
  for (const q of ["", "bad", "latin", "dir", "in"]) opt("nonutf8", q, {}, F("nonutf8"));
  for (const q of ["", "only", "nested"]) opt("empty", q, {}, F("empty"));
  for (const q of ["", "index", "node", "app"]) opt("nm", q, {}, F("nm"));
  out.push({ ...call(`fuzzy/root/relative`, "fuzzyFind", { query: "main", path: "fz" }) });
  out.push({ ...call(`fuzzy/root/dot`, "fuzzyFind", { query: "main", path: "." }), cwd: FZ });
  out.push(call(`fuzzy/root/through symlink`, "fuzzyFind", { query: "", path: F("links/link_dir"), maxResults: 1000 }));
  return out;
}
