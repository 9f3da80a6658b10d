// Deterministic fixture trees for the differential conformance suite.
//
// Every fixture is built by a function from a name to a directory; the driver builds the
// shared (read-only) fixtures once, and the runner builds a fresh private copy for cases that
// mutate the filesystem (each side gets its own copy). All entries get explicit mtimes (set
// after creation, children before parents, links with lutimes) so that results carrying
// mtime are identical on both sides and across runs.

import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";

export const BASE_MS = 1_700_000_000_000;
export const BIN_OFFSETS = [0, 100, 8191, 8192, 32768, 65535, 65536, 65537, 65551, 65552, 100000, 131072, 200000];

function fnv(str) {
  let h = 0x811c9dc5;
  for (let i = 0; i < str.length; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Default mtime of an entry: a deterministic function of its relative path. */
export function defaultMtime(rel) {
  return BASE_MS + (fnv(rel) % 900_000_000);
}

/**
 * Set atime and mtime to `ms` (Node clamps negative times to "now": use touch(1) for those).
 * A string is seconds since the epoch with up to 9 decimals ("1767225600.005100001"), set to
 * the nanosecond with touch -d (utimes with a number of ms lands within a microsecond or so).
 */
export function setMtime(file, ms, isLink = false) {
  if (typeof ms === "string") {
    execFileSync("touch", [...(isLink ? ["-h"] : []), "-d", `@${ms}`, file.toString()]);
    return;
  }
  if (ms < 0) {
    const sec = Math.floor(ms / 1000);
    const ns = String(Math.round((ms - sec * 1000) * 1e6)).padStart(9, "0");
    execFileSync("touch", [...(isLink ? ["-h"] : []), "-d", `@${sec}.${ns}`, file.toString()]);
    return;
  }
  const t = ms / 1000;
  if (isLink) fs.lutimesSync(file, t, t);
  else fs.utimesSync(file, t, t);
}

class Tree {
  constructor(root) {
    this.root = root;
    this.mtimes = new Map(); // rel (latin1 string of bytes) -> ms
    fs.rmSync(root, { recursive: true, force: true });
    fs.mkdirSync(root, { recursive: true });
  }
  abs(rel) {
    if (Buffer.isBuffer(rel)) return Buffer.concat([Buffer.from(this.root + "/"), rel]);
    return path.join(this.root, rel);
  }
  key(rel) {
    return Buffer.isBuffer(rel) ? rel.toString("latin1") : Buffer.from(rel).toString("latin1");
  }
  parent(rel) {
    const b = Buffer.isBuffer(rel) ? rel : Buffer.from(rel);
    const i = b.lastIndexOf(0x2f);
    if (i > 0) fs.mkdirSync(Buffer.concat([Buffer.from(this.root + "/"), b.subarray(0, i)]), { recursive: true });
  }
  file(rel, content = "", opts = {}) {
    this.parent(rel);
    fs.writeFileSync(this.abs(rel), content);
    if (opts.mtime !== undefined) this.mtimes.set(this.key(rel), opts.mtime);
    return this;
  }
  dir(rel, opts = {}) {
    fs.mkdirSync(this.abs(rel), { recursive: true });
    if (opts.mtime !== undefined) this.mtimes.set(this.key(rel), opts.mtime);
    return this;
  }
  link(rel, target, opts = {}) {
    this.parent(rel);
    fs.symlinkSync(target, this.abs(rel));
    if (opts.mtime !== undefined) this.mtimes.set(this.key(rel), opts.mtime);
    return this;
  }
  fifo(rel) {
    this.parent(rel);
    execFileSync("mkfifo", [this.abs(rel)]);
    return this;
  }
  /** Set every mtime (explicit or default), children before their parent directory. */
  finish() {
    const visit = (absBuf, relKey) => {
      const st = fs.lstatSync(absBuf);
      if (st.isDirectory()) {
        for (const name of fs.readdirSync(absBuf, { encoding: "buffer" })) {
          const childAbs = Buffer.concat([absBuf, Buffer.from("/"), name]);
          visit(childAbs, relKey === "" ? name.toString("latin1") : relKey + "/" + name.toString("latin1"));
        }
      }
      if (relKey === "") return;
      const ms = this.mtimes.has(relKey) ? this.mtimes.get(relKey) : defaultMtime(relKey);
      setMtime(absBuf, ms, st.isSymbolicLink());
    };
    visit(Buffer.from(this.root), "");
    fs.utimesSync(this.root, BASE_MS / 1000, BASE_MS / 1000);
  }
}

const lines = (n, f) => Array.from({ length: n }, (_, i) => f(i + 1)).join("\n") + "\n";

// ---------------------------------------------------------------------------------------------
// Fixture definitions. `ctx.fixtures` is the absolute path of the shared fixtures directory
// (some fixtures need absolute link targets or config files naming absolute paths).

export const FIXTURES = {
  basic(t) {
    for (const f of ["a.txt", "b.txt", "c.md", "d.TXT", "ab.txt", "abc.txt", "a.b.c", "x1.js", "x2.js", "x10.js", "y.ts", "z.tsx", "-dash.txt", "Makefile"])
      t.file(f, `content of ${f}\n`);
    t.file("src/main.go", "package main\n");
    t.file("src/util.go", "package main\n");
    t.file("src/util_test.go", "package main\n");
    t.file("src/a.txt", "src a\n");
    t.file("src/lib/x.ts", "export const x = 1;\n");
    t.file("src/lib/y.tsx", "export const y = 2;\n");
    t.file("src/lib/deep/z.js", "z\n");
    t.file("src/lib/deep/deeper/w.ts", "w\n");
    t.file("docs/readme.md", "# readme\n");
    t.file("docs/guide.markdown", "guide\n");
    t.file("docs/a.txt", "docs a\n");
    t.file("test/testdata/t1.txt", "t1\n");
    t.file("test/testdata/sub/t2.txt", "t2\n");
    t.file("test/other/testdata.txt", "not testdata dir\n");
    t.file(".hidden/h.txt", "hidden\n");
    t.file(".env", "SECRET=1\n");
    t.file("src/.secret.ts", "secret\n");
    t.file(".config/app/settings.json", "{}\n");
    t.file("node_modules/pkg/index.js", "module.exports = 1;\n");
    t.file("node_modules/pkg/package.json", "{}\n");
    t.file("node_modules/.bin/tool", "#!/bin/sh\n");
    t.file("src/node_modules/inner/a.js", "inner\n");
    t.dir("empty_dir");
    t.file("log/app.log", "log\n");
    t.file(".gitignore", "*.log\n");
  },

  // listWorkspace (pi-natives 18.2): AGENTS.md at every depth, ignored files and directories,
  // hidden entries, node_modules, a nested repository.
  ws(t) {
    t.file(".git/HEAD", "ref: refs/heads/main\n");
    t.file(".gitignore", "ign/\nsrc/AGENTS.md\n*.log\nbuild\n");
    t.file("AGENTS.md", "root\n");
    t.file("README.md", "readme\n");
    t.file("a.txt", "a\n");
    t.file("a0", "a0\n");
    t.file("a/b", "ab\n");
    t.file("Z.md", "Z\n");
    t.file("_u", "u\n");
    t.file("x.log", "log\n");
    t.file(".env", "e\n");
    t.file(".hid/AGENTS.md", "h\n");
    t.file(".hid/x.txt", "h\n");
    t.file("src/AGENTS.md", "src\n");
    t.file("src/main.ts", "main\n");
    t.file("src/deep/AGENTS.md", "deep\n");
    t.file("src/deep/er/file.ts", "f\n");
    t.file("src/deep/er/est/AGENTS.md", "est\n");
    t.file("src/deep/er/est/x/AGENTS.md", "x\n");
    t.file("src/deep/er/est/x/y/AGENTS.md", "y\n");
    t.file("src/agents.md", "lower\n");
    t.file("ign/AGENTS.md", "ign\n");
    t.file("ign/keep.txt", "k\n");
    t.file("node_modules/pkg/AGENTS.md", "nm\n");
    t.file("pkg/node_modules/AGENTS.md", "nm2\n");
    t.file("pkg/AGENTS.md", "pkg\n");
    t.file("pkg/build/AGENTS.md", "b\n");
    t.file("pkg/sub/.gitignore", "AGENTS.md\n*.txt\n");
    t.file("pkg/sub/AGENTS.md", "s\n");
    t.file("pkg/sub/n.txt", "n\n");
    t.file("pkg/sub/m.md", "m\n");
    t.file("agdir/AGENTS.md/inner.txt", "dir named AGENTS.md\n");
    t.file("nested/.git/HEAD", "ref: refs/heads/main\n");
    t.file("nested/.gitignore", "*.tmp\n");
    t.file("nested/AGENTS.md", "n\n");
    t.file("nested/x.tmp", "t\n");
    t.file("nested/y.txt", "y\n");
    t.file("été/AGENTS.md", "u\n");
    t.dir("empty");
    // .DS_Store: dropped by name, file or directory (with its AGENTS.md)
    t.file(".DS_Store", "ds\n");
    t.file("src/.DS_Store", "ds\n");
    t.file("dsdir/.DS_Store/AGENTS.md", "ds\n");
    t.file("dsdir/x.DS_Store", "ds\n");
  },
  // more AGENTS.md files than the cap of 200
  ws_many(t) {
    for (let i = 1; i <= 230; i++) t.file(`d${i}/AGENTS.md`, `${i}\n`);
    for (let i = 1; i <= 5; i++) t.file(`d${i}/s/AGENTS.md`, `s${i}\n`);
  },

  names(t) {
    const names = [
      "file with space.txt", " leading-space.txt", "trailing-space.txt ", "br{ace}.txt", "q?mark.txt",
      "star*.txt", "[bracket].txt", "back\\slash.txt", "ünïcödé.txt", "日本語.md", "emoji😀.txt",
      "a.txt", "a-b", "a0", "A.txt", "B.txt", "comma,name.txt", "{a,b}.txt", "!bang.txt", "#hash.txt",
      "tab\tname.txt", "new\nline.txt", "Z", "_under", "~tilde", "a.b", "a+b", "café.txt",
      "cafe\u0301.txt", "ä.txt", "b.txt", "x.txt",
    ];
    for (const n of names) t.file(n, n + "\n");
    t.file("a/b.txt", "a/b\n");
    t.file("a/c/d.txt", "a/c/d\n");
    t.file("a b/c.txt", "space dir\n");
    t.file("{a,b}/x.txt", "brace dir\n");
    t.file("[x]/y.txt", "bracket dir\n");
  },

  nonutf8(t) {
    t.file(Buffer.from([0x62, 0x61, 0x64, 0xff, 0x2e, 0x74, 0x78, 0x74]), "bad utf8 name\n"); // bad\xff.txt
    t.file(Buffer.from([0x6c, 0x61, 0x74, 0x69, 0x6e, 0xe9, 0x2e, 0x74, 0x78, 0x74]), "latin1 name\n"); // latin\xe9.txt
    t.file("good.txt", "good\n");
    t.file("zz.txt", "zz\n");
    t.dir(Buffer.from([0x64, 0x69, 0x72, 0xc3]));
    t.file(Buffer.from([0x64, 0x69, 0x72, 0xc3, 0x2f, 0x69, 0x6e, 0x2e, 0x74, 0x78, 0x74]), "in bad dir\n");
  },

  links(t, ctx) {
    t.file("file.txt", "file\n");
    t.file("dir/inner.txt", "inner\n");
    t.file("dir/sub/deep.txt", "deep\n");
    t.file(".hid/x.txt", "hidden target\n");
    t.link("link_file", "file.txt");
    t.link("link_dir", "dir");
    t.link("link_broken", "does-not-exist");
    t.link("link_self", ".");
    t.link("dir/back", "..");
    t.link("loop_a", "loop_b");
    t.link("loop_b", "loop_a");
    t.link("chain1", "chain2");
    t.link("chain2", "file.txt");
    t.link(".hidden_link", "dir");
    t.link("link_to_hidden", ".hid");
    t.link("link_outside", path.join(ctx.fixtures, "basic", "docs"));
    t.link("link_outside_file", path.join(ctx.fixtures, "basic", "c.md"));
    t.link("sub2/up_file", "../file.txt");
    t.link("link_empty", "empty");
    t.dir("empty");
  },

  sorted(t) {
    const T = BASE_MS;
    t.file("f1.txt", "1\n", { mtime: T + 3000 });
    t.file("f2.txt", "22\n", { mtime: T + 3000 });
    t.file("f3.txt", "333\n", { mtime: T + 1000 });
    t.file("aa.txt", "aa\n", { mtime: T + 3000 });
    t.dir("d", { mtime: T + 5000 });
    t.file("d/f4.txt", "4444\n", { mtime: T + 3000 });
    t.file("d/f5.txt", "55555\n", { mtime: T + 9000 });
    t.file("z.txt", "z\n", { mtime: T + 9000 });
    t.link("link_f", "f1.txt", { mtime: T + 7000 });
    t.link("link_d", "d", { mtime: T + 3000 });
    t.link("link_broken", "nowhere", { mtime: T + 3000 });
    t.file("epoch.txt", "epoch\n", { mtime: 0 });
    t.file("frac.txt", "frac\n", { mtime: T + 1234.5678 });
    t.file("frac2.txt", "frac2\n", { mtime: T + 1234.9 });
    t.file("future.txt", "future\n", { mtime: 4102444800000 });
    t.file("empty.txt", "", { mtime: T + 3000 });
    t.dir("e", { mtime: T + 3000 });
    t.file(".hidden.txt", "h\n", { mtime: T + 99000 });
  },

  // Sub-millisecond mtimes (pi-natives 18.2 reports and sorts on the fraction; mtimes as
  // "sec.nanoseconds" strings, set exactly). many/: 100 µs apart, f29 the newest; us/: a few
  // µs apart, newest first not in path order; ns/: 1 ns apart (one float64 of ms: a tie) and
  // 300 ns apart (not); odd/: the epoch, 1 ns after it, before it, a link and a directory with
  // their own sub-ms times; AGENTS.md files (listWorkspace's collectAgentsMd: whole ms).
  mt(t) {
    const S = 1767225600; // 2026-01-01T00:00:00Z
    const at = (ns) => `${S + Math.floor(ns / 1e9)}.${String(ns % 1e9).padStart(9, "0")}`;
    for (let i = 0; i < 30; i++) t.file(`many/f${String(i).padStart(2, "0")}.txt`, `f${i}\n`, { mtime: at(5_000_000 + i * 100_000) });
    t.dir("many", { mtime: at(1_000_000) });
    const us = ["k", "c", "x", "a", "q", "m", "b", "z", "e", "h"];
    us.forEach((n, i) => t.file(`us/${n}.txt`, `${n}\n`, { mtime: at(123_000_000 + i * 3_000 + (i % 3)) }));
    t.file("us/same.txt", "same\n", { mtime: at(123_000_000 + 9 * 3_000 + 1_000) });
    t.dir("us", { mtime: at(123_004_500) });
    const ns = [["n0", 5_100_000], ["n1", 5_100_001], ["n2", 5_099_999], ["n3", 5_100_300], ["n4", 5_099_700], ["n5", 5_100_000]];
    for (const [n, v] of ns) t.file(`ns/${n}.txt`, `${n}\n`, { mtime: at(v) });
    t.dir("ns", { mtime: at(5_100_150) });
    t.file("odd/epoch.txt", "e\n", { mtime: "0" });
    t.file("odd/epoch1ns.txt", "e\n", { mtime: "0.000000001" });
    t.file("odd/before1ns.txt", "b\n", { mtime: "-0.000000001" });
    t.file("odd/before.txt", "b\n", { mtime: "-1.5" });
    t.file("odd/late.txt", "l\n", { mtime: "4102444800.000000007" });
    t.file("odd/frac.txt", "f\n", { mtime: at(999_999_999) });
    t.link("odd/link", "frac.txt", { mtime: at(555_555_555) });
    t.dir("odd/d", { mtime: at(444_444_444) });
    t.file("odd/d/AGENTS.md", "a\n", { mtime: at(777_777_777) });
    t.file("odd/old/AGENTS.md", "a\n", { mtime: "-1.5" });
    t.file("AGENTS.md", "root\n", { mtime: at(333_333_333) });
    t.file("us/AGENTS.md", "us\n", { mtime: at(123_001_500) });
  },

  sorted_neg(t) {
    t.file("pre1970.txt", "old\n", { mtime: -86_400_000 });
    t.file("post.txt", "new\n", { mtime: BASE_MS });
    t.file("pre1970b.txt", "old\n", { mtime: -1500 });
  },

  ...giFixtures(),

  fz(t) {
    const files = [
      "main.go", "Main.java", "domain.ts", "mainframe.txt", "m_a_i_n.txt", "remain/notes.txt",
      "main/index.ts", "maintenance/plan.md", "src/components/Button.tsx", "src/components/button.css",
      "src/components/ButtonGroup.tsx", "src/utils/string-utils.ts", "src/utils/stringUtils.test.ts",
      "docs/api/README.md", "docs/api-reference.md", "Über.txt", "straße.md", "İstanbul.txt", "ΣΑΣ.txt",
      "日本語.txt", "café.txt", "cafe\u0301.txt", ".hidden/secret.txt", ".env", "node_modules/main/index.js",
      "a/b/c/d/e.txt", "abc.txt", "a-b-c.txt", "a.b.c.txt", "xaxbxc.txt", "ignored_main.txt", "build/main.o",
      "x y/space name.txt", "fullwidth/ＡＢＣ.txt", "emoji/😀smile.txt", "ﬁle.txt", "K.txt",
    ];
    for (const f of files) t.file(f, f + "\n");
    t.dir("empty_main_dir");
    t.dir("a/b/c/d/emptydir");
    t.file(".git/HEAD", "ref: refs/heads/main\n");
    t.file(".gitignore", "ignored_*\nbuild/\n");
  },

  gr(t) {
    t.file("a.txt", [
      "foo bar", "Foo upper", "FOO shout", "foofoo foo twice", "nothing here", "trailing foo   \t",
      "bar baz", "  indented foo", "end",
    ].join("\n") + "\n");
    t.file("b.txt", lines(30, (i) => ([3, 5, 6, 10, 20, 21, 22, 30].includes(i) ? `match line ${i}` : `line ${i}`)));
    t.file("crlf.txt", "foo\r\nbar\r\nfoo bar\r\nbaz \r\n\r\nend foo\r\n");
    t.file("cr-only.txt", "foo\rbar\rfoo\r");
    t.file("bin.dat", Buffer.from("foo\0bar foo\nfoo again\n"));
    t.file("bin-late.dat", Buffer.concat([Buffer.from(lines(5000, (i) => `text foo ${i}`)), Buffer.from([0]), Buffer.from("tail foo\n")]));
    t.file("unicode.txt", [
      "Straße", "STRASSE", "ΣΑΣ σας Σας", "Привет мир", "ПРИВЕТ", "日本語テキスト", "émoji 😀 test",
      "ǅ titlecase", "e\u0301 combining", "café", "Ⅻ roman", "Kelvin K sign", "ſ long s", "İstanbul",
      "digits ٣٤٥ arabic-indic", "word_with_ünder", "tab\there", "nbsp\u00a0here",
    ].join("\n") + "\n");
    t.file("long.txt", [
      "x".repeat(500) + " foo",
      "foo " + "é".repeat(100),
      "foo " + "日本".repeat(60),
      "foo " + "😀".repeat(50),
      "foo short",
      "ab" + "é".repeat(20) + " foo",
      "foo" + " ".repeat(40),
      "foo\u00a0".repeat(10),
    ].join("\n") + "\n");
    t.file("code.js", [
      "const x = `${x}`;", "foo(bar)", "a{2} literal", "aa", "{} braces", "function foo(", "p{L} text",
      "x{1,3}", "value = {a}", "(unbalanced", "balanced (a) (b)", "$dollar", "back\\slash", "a.b.c",
      "tabs\tand spaces", "return foo;  ", "// TODO: fix", "end)",
    ].join("\n") + "\n");
    t.file("ctx.txt", lines(20, (i) => ([1, 4, 6, 7, 12, 20].includes(i) ? `hit ${i}` : `ctx ${i}`)));
    t.file("ctx-ws.txt", ["hit a", "   ", "ctx trailing   ", "", "hit b\t", "\t\t", "after"].join("\n") + "\n");
    t.file("empty.txt", "");
    t.file("nonl.txt", "foo without newline");
    t.file("only-newlines.txt", "\n\n\n");
    t.file("sub/deep/c.md", "foo in markdown\nanother line\n");
    t.file("sub/d.ts", "export const foo = 1;\n");
    t.file(".hidden.txt", "foo hidden\n");
    t.file(".hdir/h.txt", "foo in hidden dir\n");
    t.file("ignored.txt", "foo ignored\n");
    t.file("node_modules/m/index.js", "foo in node_modules\n");
    t.file(".git/HEAD", "ref: refs/heads/main\n");
    t.file(".gitignore", "ignored.txt\n");
    t.link("link_to_a", "a.txt");
    t.link("link_to_sub", "sub");
  },

  lim(t) {
    t.file("f1.txt", "m 1\nx\nm 2\nm 3\n");
    t.file("f2.txt", "none\n");
    t.file("f3.txt", lines(10, (i) => (i % 2 ? `m ${i}` : `x ${i}`)));
    t.file("f4.txt", "x\nm only\n");
    t.file("sub/f5.txt", "m a\nm b\n");
    t.file("sub/f6.txt", "mm m twice\n");
  },

  gr_big(t) {
    const MiB4 = 4 * 1024 * 1024;
    const mk = (n) => {
      const head = Buffer.from("needle at start\n");
      const body = Buffer.alloc(n - head.length - 16, "a");
      for (let i = 99; i < body.length; i += 100) body[i] = 0x0a;
      return Buffer.concat([head, body, Buffer.from("\nneedle at end\n").subarray(0, 16)]);
    };
    t.file("exact4m.txt", mk(MiB4));
    t.file("over4m.txt", mk(MiB4 + 1));
    t.file("under4m.txt", mk(MiB4 - 1));
    t.file("small.txt", "needle small\n");
  },

  // a NUL at various offsets around the reader's 64 KiB first block
  bin_pos(t) {
    const line = (i) => `text foo ${String(i).padStart(6, "0")}\n`; // 16 bytes
    for (const off of BIN_OFFSETS) {
      let s = "";
      for (let i = 0; s.length < off + 64; i++) s += line(i);
      t.file(`nul_at_${off}.dat`, Buffer.concat([Buffer.from(s.slice(0, off)), Buffer.from([0]), Buffer.from(s.slice(off)), Buffer.from("after foo\n".repeat(10))]));
    }
    t.file("nul_first_block_long_line.dat", Buffer.concat([Buffer.from("foo " + "x".repeat(70000) + "\n"), Buffer.from([0]), Buffer.from("foo\n")]));
    t.file("nul_last_byte.dat", Buffer.concat([Buffer.from(line(1).repeat(5000)), Buffer.from([0])]));
  },

  gr_types(t) {
    const exts = ["js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "json", "jsonc", "json5", "yaml", "yml", "toml",
      "md", "markdown", "mdx", "py", "pyi", "rs", "go", "java", "kt", "kts", "c", "h", "cpp", "cc", "cxx", "hpp", "hxx",
      "hh", "cs", "csx", "php", "phtml", "rb", "rake", "gemspec", "sh", "bash", "zsh", "fish", "html", "htm", "css",
      "scss", "sass", "less", "xml", "txt", "lock", "JS", "Md", "d.ts"];
    for (const e of exts) t.file(`f.${e}`, `needle ${e}\n`);
    for (const n of ["Dockerfile", "dockerfile", "DOCKERFILE", "Dockerfile.dev", "x.Dockerfile", "Makefile", "makefile",
      "GNUmakefile", "Makefile.am", "README", "js", "noext", "sub/Dockerfile", "sub/inner.ts", "sub/makefile", "Rakefile", "Gemfile"])
      t.file(n, `needle ${n}\n`);
  },

  special(t) {
    t.file("a.txt", "needle\n");
    t.fifo("fifo");
    t.file("sub/b.txt", "needle b\n");
  },

  nm(t) {
    t.file("node_modules/a/index.js", "needle\n");
    t.file("node_modules/a/node_modules/b/index.js", "needle\n");
    t.file("src/node_modules/c/x.js", "needle\n");
    t.file("src/app.js", "needle\n");
    t.file("node_modules_backup/y.js", "needle\n");
    t.file("my_node_modules.txt", "needle\n");
    t.file("node_modules.txt", "needle\n");
  },

  empty(t) {
    t.dir("only_dir");
    t.dir("only_dir/nested");
  },

  cache(t) {
    t.file("a.txt", "alpha needle\n");
    t.file("b.md", "bravo\n");
    t.file("sub/c.txt", "charlie needle\n");
    t.file("sub/d.ts", "delta\n");
    t.file(".hidden.txt", "hidden needle\n");
    t.file("node_modules/m.js", "module needle\n");
    t.file("other/o.txt", "other needle\n");
    t.file("sub2/e.txt", "echo\n");
    t.file("subx/f.txt", "foxtrot\n");
  },

  // git config: global excludes
  xdg(t) {
    t.file("git/ignore", "global-ignored.txt\n*.gbl\n");
  },
  home_cfg(t, ctx) {
    t.file(".gitconfig", `[core]\n\texcludesFile = ${path.join(ctx.fixtures, "home_cfg", "my-excludes")}\n`);
    t.file("my-excludes", "cfg-ignored.txt\n");
  },
  gi_global(t) {
    t.file(".git/HEAD", "ref: refs/heads/main\n");
    for (const f of ["global-ignored.txt", "x.gbl", "cfg-ignored.txt", "keep.txt", "sub/global-ignored.txt"]) t.file(f, "needle\n");
    t.file(".gitignore", "!sub/global-ignored.txt\n");
  },
  gi_global_norepo(t) {
    for (const f of ["global-ignored.txt", "x.gbl", "cfg-ignored.txt", "keep.txt"]) t.file(f, "needle\n");
  },
};

function giCommon(t, { git }) {
  const gitignore = [
    "# a comment line",
    "*.log",
    "!keep.log",
    "/anchored.txt",
    "build/",
    "docs/**/*.tmp",
    "**/cachedir",
    "\\#hash.txt",
    "\\!bang.txt",
    "trailing.txt   ",
    "escaped-space.txt\\ ",
    "[abc]-class.txt",
    "sub/inner-anchored.txt",
    "*.o",
    "!important.o",
    "vendor/**",
    "!vendor/keep/",
    "a/**/b.txt",
    "dironly/",
    "notdir/",
    "?q.txt",
    "*~",
    "/rootonly/",
    "   # not a comment? leading spaces",
    "",
    "ignored-dir",
    "!ignored-dir/reinclude.txt",
    "**/deepglob/**/x.txt",
    "star\\*.txt",
    "UPPER.TXT",
  ].join("\n") + "\n";
  t.file(".gitignore", gitignore);
  const files = [
    "a.log", "keep.log", "x.txt", "anchored.txt", "sub/anchored.txt", "build/out.js", "src/build/out.js", "other/build",
    "docs/x.tmp", "docs/a/b/y.tmp", "docs/z.txt", "cachedir/c.txt", "deep/cachedir/d.txt", "#hash.txt", "!bang.txt",
    "trailing.txt", "escaped-space.txt ", "escaped-space.txt", "a-class.txt", "d-class.txt", "sub/inner-anchored.txt",
    "deep/sub/inner-anchored.txt", "main.o", "important.o", "vendor/lib.js", "vendor/keep/k.js", "a/b.txt",
    "a/x/y/b.txt", "a/x/c.txt", "dironly/f.txt", "notdir", "1q.txt", "q.txt", "backup.txt~", "rootonly/r.txt",
    "nested/rootonly/r.txt", "excluded-by-info.txt", "info-anchored/i.txt", "sub/info-anchored/i.txt",
    "sub/a.txt", "sub/keep-me.txt", "sub/only-here.md", "sub/deeper/only-here.md", "sub/deeper/b.txt", "sub/x.md",
    "ignored-by-dotignore.txt", "important.log", "sub2/r.md", "sub2/r.txt", ".hidden-file.txt", ".hiddendir/h.txt",
    "node_modules/pkg/i.js", "neg/n.log", "neg/m.o", "ignored-dir/reinclude.txt", "ignored-dir/other.txt",
    "p/deepglob/q/x.txt", "p/deepglob/x.txt", "star*.txt", "starx.txt", "UPPER.TXT", "upper.txt",
    "   # not a comment? leading spaces",
  ];
  for (const f of files) t.file(f, `needle ${f}\n`);
  t.file("sub/.gitignore", "*.txt\n!keep-me.txt\n/only-here.md\n");
  t.file(".ignore", "ignored-by-dotignore.txt\n!important.log\n");
  t.file("sub2/.ignore", "*.md\n");
  t.file("neg/.gitignore", "!*.log\n");
  if (git === "dir") {
    t.file(".git/HEAD", "ref: refs/heads/main\n");
    t.file(".git/config", "[core]\n\tbare = false\n");
    t.file(".git/info/exclude", "excluded-by-info.txt\n/info-anchored/\n");
  } else if (git === "file") {
    t.file(".git", "gitdir: ../somewhere/else\n");
  }
}

function giFixtures() {
  return {
    gi_repo: (t) => giCommon(t, { git: "dir" }),
    gi_nogit: (t) => giCommon(t, { git: null }),
    gi_gitfile: (t) => giCommon(t, { git: "file" }),
    gi_outer(t) {
      t.file(".ignore", "outer-dotignored.txt\n");
      t.file(".gitignore", "outer-gitignored.txt\n");
      t.file("repo/.git/HEAD", "ref: refs/heads/main\n");
      t.file("repo/.gitignore", "*.gen\n/top-only.txt\nsub/anch.txt\n/sub/deep/anch2.txt\ndeep/\n");
      for (const f of ["x.gen", "top-only.txt", "outer-dotignored.txt", "outer-gitignored.txt", "keep.txt"]) t.file("repo/" + f, "needle\n");
      for (const f of ["x.gen", "top-only.txt", "anch.txt", "keep.txt", "outer-dotignored.txt", "outer-gitignored.txt",
        "deep/anch2.txt", "deep/other.txt", "sub/anch.txt", "local.txt", "deeper/local.txt"]) t.file("repo/sub/" + f, "needle\n");
      t.file("repo/sub/.gitignore", "local.txt\n");
      t.file("repo/nested/.git/HEAD", "ref: refs/heads/main\n");
      t.file("repo/nested/.gitignore", "n.tmp\n");
      for (const f of ["x.gen", "n.tmp", "keep.txt", "outer-dotignored.txt"]) t.file("repo/nested/" + f, "needle\n");
      for (const f of ["outer-dotignored.txt", "outer-gitignored.txt", "p.txt"]) t.file("plain/" + f, "needle\n");
    },
  };
}

/** Build fixture `name` at `dir` (removing anything there first). */
export function buildFixture(name, dir, ctx) {
  const fn = FIXTURES[name];
  if (!fn) throw new Error(`unknown fixture ${name}`);
  const t = new Tree(dir);
  fn(t, ctx);
  t.finish();
  return dir;
}

/** Fixtures that are built once and shared read-only by both sides. */
export const SHARED = Object.keys(FIXTURES).filter((n) => n !== "cache");

export function buildShared(fixturesDir) {
  fs.mkdirSync(fixturesDir, { recursive: true });
  const ctx = { fixtures: fixturesDir };
  for (const name of SHARED) buildFixture(name, path.join(fixturesDir, name), ctx);
}
