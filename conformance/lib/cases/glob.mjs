import { call, show, F } from "./util.mjs";

const BASIC_PATTERNS = [
  // normalisation: trim, empty -> *, backslash -> /, **/ prefix rule
  "", "   ", "\t*.md\n", " *.txt ", "*", "**", "**/*", "***", "**/", "*/", "**.txt", "a**", "**a", "a**b",
  "*.txt", "*.TXT", "*.md", "**/*.txt", "**/*.md", "**/**/*.ts",
  "src/*.go", "src/*", "src/**", "src/**/*", "src/**/*.ts", "src/**/**/w.ts", "src/", "src/**/", "src/*/",
  "src\\*.go", "src\\lib\\*.ts", "src\\**", "\\*.txt", "/src/*.go", "./src/*.go", "src//main.go", "/*.txt", "*\\",
  // brace unions (exact unions of plain names are not made recursive)
  "*.{js,ts}", "*.{js,{ts,tsx}}", "{a,b}.txt", "{a.txt,b.txt}", "{a.txt,c.md,nope}", "{a.txt}", "{src,docs}",
  "{src/main.go,docs/a.txt}", "{a.txt,src/a.txt}", "{a,b}*", "{*.md,*.go}", "{main.go,util.go}", "{x1.js,x?.js}",
  "{.env,a.txt}", "{src,docs}/**/*.md", "{src/**,docs}/*.md", "{{a,b}.txt,c.md}", "{ a.txt , b.txt }",
  "{}", "{,}", "{a,}.txt", "{a.txt,}",
  // unbalanced braces
  "{", "{a", "*.{js", "a{b{c", "{{a,b}", "}", "*.txt}", "{a,b}}", "{a.txt,b.txt", "src/{lib",
  // wildcards and classes
  "?.txt", "??.txt", "x?.js", "x??.js", "?", "[ab].txt", "[a-c].txt", "[!a].txt", "[^a].txt", "[!a-b]*.txt",
  "[ab]*", "*.[jt]s", "*.[!m]*", "[[]*", "[]]*", "[]", "[a-]*.txt", "[-a]*.txt", "x[0-9].js", "x[0-9][0-9].js",
  "[[:alpha:]].txt", "*.[tT][xX][tT]",
  // names, case, hidden, directories
  "main.go", "src/main.go", "MAIN.GO", "*.GO", ".env", ".*", "**/.*", "*/.*", ".hidden/*", "**/.hidden/**",
  "**/lib/**", "**/testdata/**", "**/testdata", "testdata", "lib", "deep/*", "**/deep/*.js", "*/lib/*",
  "node_modules", "node_modules/**", "**/node_modules/**", "*.js", "**/*.js", "**/pkg/*", "*node_modules*",
  "Makefile", "makefile", "*file", "empty_dir", "empty_dir/*", "empty_dir/**", "log/*", "*.log", "-dash.txt",
  "*dash*", "*.b.*", "a.b.c", "a.*",
];

const NAMES_PATTERNS = [
  "*", "**", "* *", "*space*", " leading-space.txt", "trailing-space.txt ", "*space.txt ", "br{ace}.txt",
  "br[{]ace[}].txt", "q?mark.txt", "q[?]mark.txt", "star*.txt", "star[*].txt", "[[]bracket].txt", "[bracket].txt",
  "back\\slash.txt", "back*", "ü*", "*ü*", "ünïcödé.txt", "?nïcödé.txt", "日本語.md", "日*", "???.md", "emoji?.txt",
  "emoji*.txt", "*😀*", "A.txt", "a.txt", "[A-Z].txt", "[a-z].txt", "comma,name.txt", "{comma,name.txt}",
  "{a,b}.txt", "[{]a,b[}].txt", "!bang.txt", "[!]bang.txt", "#hash.txt", "*\t*", "new?line.txt", "a*", "a/**",
  "a/*", "*/*", "**/*.txt", "café.txt", "cafe\u0301.txt", "caf?.txt", "caf??.txt", "caf*.txt", "a?b", "[!a]*",
  "{a b,a}/*", "{a,b}/*", "[{]a,b[}]/*", "[[]x]/*", "ä.txt", "[ä].txt", "[à-å].txt", "~*", "_*", "Z", "z",
  "{a.txt,b.txt,x.txt}", "{A.txt,a.txt}",
];

export function globCases() {
  const out = [];
  const B = F("basic");
  for (const p of BASIC_PATTERNS) out.push(call(`glob/basic/pattern ${show(p)}`, "glob", { pattern: p, path: B }));
  for (const p of NAMES_PATTERNS) out.push(call(`glob/names/pattern ${show(p)}`, "glob", { pattern: p, path: F("names") }));

  // options, alone and combined
  const opt = (name, pattern, o, path = B) => out.push(call(`glob/options/${name} ${show(pattern)}`, "glob", { pattern, path, ...o }));
  for (const p of ["*", "**/*.txt", ".*", "**/.*", "*.ts", "**/*.json", "*.secret*"]) opt("hidden", p, { hidden: true });
  for (const p of ["*", ".*"]) opt("hidden=false explicit", p, { hidden: false });
  for (const p of ["*", "*.log", "**"]) opt("gitignore=false", p, { gitignore: false });
  opt("gitignore=false hidden", "**", { gitignore: false, hidden: true });
  for (const p of ["*.js", "**/*.js", "node_modules/**", "**/index.js", "*"]) opt("includeNodeModules=true", p, { includeNodeModules: true });
  for (const p of ["*.js", "node_modules/**", "**/node_modules/**", "node_modules", "*node_modules*"]) opt("includeNodeModules=false", p, { includeNodeModules: false });
  opt("includeNodeModules hidden", "**", { includeNodeModules: true, hidden: true });
  for (const p of ["*.txt", "*", "src/*", "**/*.ts", "{a.txt,b.txt}", "a.txt", "*.{js,ts}", "**", "src/**", "lib", "node_modules/**"]) opt("recursive=false", p, { recursive: false });
  opt("recursive=true explicit", "*.ts", { recursive: true });
  for (const ft of [1, 2, 3]) {
    for (const p of ["*", "**"]) opt(`fileType=${ft}`, p, { fileType: ft });
    for (const p of ["*", "**", "link*", "**/back"]) opt(`fileType=${ft} links`, p, { fileType: ft }, F("links"));
    opt(`fileType=${ft} links hidden`, "*", { fileType: ft, hidden: true }, F("links"));
    opt(`fileType=${ft} sorted sortByMtime`, "*", { fileType: ft, sortByMtime: true }, F("sorted"));
  }
  for (const n of [0, 1, 2, 5, 1000]) {
    opt(`maxResults=${n}`, "*", { maxResults: n });
    opt(`maxResults=${n}`, "**/*.txt", { maxResults: n });
  }
  opt("maxResults=3 fileType=2", "**", { maxResults: 3, fileType: 2 });
  opt("maxResults=2 hidden", ".*", { maxResults: 2, hidden: true });
  opt("cache=true", "**/*.ts", { cache: true });
  opt("cache=true sortByMtime", "*", { cache: true, sortByMtime: true }, F("sorted"));
  opt("timeoutMs=60000", "**", { timeoutMs: 60000 });
  out.push(call(`glob/options/live signal "**"`, "glob", { pattern: "**", path: B }, { signal: "live" }));
  opt("all options", "**/*.ts", { hidden: true, gitignore: false, includeNodeModules: true, recursive: true, fileType: 1, maxResults: 4, sortByMtime: true, cache: false });

  // sortByMtime: ties are stable in path order, links carry their own mtime, missing mtime counts as 0
  const S = F("sorted");
  for (const p of ["*", "**", "*.txt", "d/*", "link*", "{f1.txt,f2.txt,aa.txt}"]) opt("sortByMtime", p, { sortByMtime: true }, S);
  for (const n of [1, 2, 3, 4, 5, 0]) opt(`sortByMtime maxResults=${n}`, "**", { sortByMtime: true, maxResults: n }, S);
  opt("sortByMtime hidden", "*", { sortByMtime: true, hidden: true }, S);
  opt("sortByMtime=false", "*", { sortByMtime: false }, S);
  opt("sortByMtime pre-1970", "*", { sortByMtime: true }, F("sorted_neg"));
  opt("sortByMtime links", "*", { sortByMtime: true }, F("links"));
  opt("sortByMtime basic", "**", { sortByMtime: true, hidden: true, gitignore: false, includeNodeModules: true }, B);

  // links are never followed by glob
  for (const p of ["*", "**", "**/inner.txt", "link_dir/*", "link_dir/**", "dir/back/*", ".*"]) opt("links", p, {}, F("links"));
  opt("links hidden", "**", { hidden: true }, F("links"));

  // onMatch: every accepted match is delivered (compared as a multiset)
  const om = (name, pattern, o, path = B) => out.push(call(`glob/onMatch/${name} ${show(pattern)}`, "glob", { pattern, path, ...o }, { onMatch: true }));
  om("plain", "*", {});
  om("recursive", "**/*.ts", {});
  om("maxResults=2", "**", { maxResults: 2 });
  om("fileType=1 links", "*", { fileType: 1 }, F("links"));
  om("sortByMtime maxResults=3", "**", { sortByMtime: true, maxResults: 3 }, S);
  om("no match", "*.nothing", {});

  // node_modules fixture
  const NM = F("nm");
  for (const p of ["*.js", "**/*.js", "**", "node_modules/**", "**/node_modules/**", "node_modules", "*node_modules*", "node_modules*", "src/**"]) opt("nm", p, {}, NM);
  for (const p of ["**", "*.js"]) opt("nm includeNodeModules=true", p, { includeNodeModules: true }, NM);
  opt("nm includeNodeModules=false", "**/node_modules/**", { includeNodeModules: false }, NM);

  // other trees
  for (const p of ["*", "**", "*.txt", "bad*", "dir*/*"]) opt("nonutf8", p, {}, F("nonutf8"));
  opt("nonutf8 sortByMtime", "**", { sortByMtime: true }, F("nonutf8"));
  for (const p of ["*", "**", "**/*"]) opt("empty", p, {}, F("empty"));
  opt("empty fileType=1", "**", { fileType: 1 }, F("empty"));

  // roots: relative (cwd is the fixtures dir unless set), trailing slash, through a symlink
  const root = (name, path, cwd, pattern = "*.go") => out.push({ ...call(`glob/root/${name}`, "glob", { pattern, path }), ...(cwd ? { cwd } : {}) });
  root("relative", "basic");
  root("relative ./", "./basic");
  root("relative trailing slash", "basic/");
  root("relative dotdot", "basic/src/..");
  root("relative double slash", "basic//src");
  root("dot", ".", F("basic"));
  root("empty path", "", F("basic"));
  root("relative child", "src", F("basic"));
  root("relative up", "../basic/src", F("basic/docs"));
  root("absolute trailing slash", F("basic/"));
  root("through symlink", F("links/link_dir"), null, "**");
  root("through symlink relative", "link_dir", F("links"), "**");
  root("symlink to outside", F("links/link_outside"), null, "*");
  return out;
}
