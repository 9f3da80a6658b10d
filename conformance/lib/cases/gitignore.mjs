import { call, show, F } from "./util.mjs";

// Ignore-rule semantics, observed through glob (full listings), grep (filesWithMatches) and
// fuzzyFind (empty query). gi_repo has a .git dir, gi_nogit none, gi_gitfile a `.git` file.
export function gitignoreCases() {
  const out = [];
  for (const fx of ["gi_repo", "gi_nogit", "gi_gitfile"]) {
    const P = F(fx);
    for (const hidden of [false, true])
      for (const gitignore of [true, false])
        out.push(call(`gitignore/${fx}/glob ** hidden=${hidden} gitignore=${gitignore}`, "glob", { pattern: "**", path: P, hidden, gitignore }));
    out.push(call(`gitignore/${fx}/grep files`, "grep", { pattern: "needle", path: P, mode: "filesWithMatches" }));
    out.push(call(`gitignore/${fx}/grep files hidden=false`, "grep", { pattern: "needle", path: P, mode: "filesWithMatches", hidden: false }));
    out.push(call(`gitignore/${fx}/fuzzyFind all`, "fuzzyFind", { query: "", path: P, maxResults: 1000 }));
    out.push(call(`gitignore/${fx}/glob fileType=1 hidden`, "glob", { pattern: "**", path: P, hidden: true, fileType: 1 }));
  }
  // targeted patterns in the repository
  const R = F("gi_repo");
  for (const p of ["*.log", "**/b.txt", "vendor/**", "**/inner-anchored.txt", "**/only-here.md", "*.o", "**/r.txt", "**/x.txt", "#*", "!*", "*class.txt", "*q.txt", "*~", "escaped*", "trailing*", "star*", "*.TXT", "upper.*", "**/cachedir/**", "docs/**", "neg/*", "ignored-dir/*", "sub/**", "sub2/*", "**/*.tmp", "*comment*"])
    out.push(call(`gitignore/gi_repo/pattern ${show(p)}`, "glob", { pattern: p, path: R, hidden: true }));

  // roots below the repository root: ancestor ignore files still apply, anchored rules are
  // relative to the directory of the file that holds them; the root itself is never filtered
  const roots = ["gi_repo/sub", "gi_repo/sub/deeper", "gi_repo/docs", "gi_repo/vendor", "gi_repo/vendor/keep", "gi_repo/ignored-dir",
    "gi_repo/build", "gi_repo/neg", "gi_repo/nested", "gi_repo/a", "gi_repo/sub2", "gi_nogit/sub", "gi_nogit/sub2",
    "gi_outer", "gi_outer/repo", "gi_outer/repo/sub", "gi_outer/repo/sub/deep", "gi_outer/repo/nested", "gi_outer/plain"];
  for (const r of roots) {
    out.push(call(`gitignore/root ${r}/glob **`, "glob", { pattern: "**", path: F(r), hidden: true }));
    out.push(call(`gitignore/root ${r}/grep files`, "grep", { pattern: "needle", path: F(r), mode: "filesWithMatches" }));
  }
  out.push(call(`gitignore/root gi_outer/repo/sub/fuzzyFind`, "fuzzyFind", { query: "", path: F("gi_outer/repo/sub"), maxResults: 1000 }));
  out.push({ ...call(`gitignore/root relative gi_outer/repo/sub`, "glob", { pattern: "**", path: "sub" }), cwd: F("gi_outer/repo") });
  out.push({ ...call(`gitignore/root relative .. from sub`, "glob", { pattern: "**", path: ".." }), cwd: F("gi_outer/repo/sub") });

  // global excludes: $XDG_CONFIG_HOME/git/ignore, and core.excludesFile from ~/.gitconfig.
  // They apply only inside a repository. Each env runs in its own runner process.
  const envs = {
    xdg: { XDG_CONFIG_HOME: "@@F@@/xdg" },
    gitconfig: { HOME: "@@F@@/home_cfg", XDG_CONFIG_HOME: "@@F@@/home_cfg" },
  };
  for (const [name, env] of Object.entries(envs)) {
    for (const fx of ["gi_global", "gi_global_norepo"]) {
      out.push({ ...call(`gitignore/global ${name}/${fx}/glob **`, "glob", { pattern: "**", path: F(fx), hidden: true }), env });
      out.push({ ...call(`gitignore/global ${name}/${fx}/grep files`, "grep", { pattern: "needle", path: F(fx), mode: "filesWithMatches" }), env });
      out.push({ ...call(`gitignore/global ${name}/${fx}/fuzzyFind`, "fuzzyFind", { query: "", path: F(fx) }), env });
    }
    out.push({ ...call(`gitignore/global ${name}/gi_global/glob gitignore=false`, "glob", { pattern: "**", path: F("gi_global"), gitignore: false }), env });
  }
  // and the same trees with the default (empty) HOME: nothing global applies
  for (const fx of ["gi_global", "gi_global_norepo"]) out.push(call(`gitignore/global none/${fx}/glob **`, "glob", { pattern: "**", path: F(fx), hidden: true }));
  return out;
}
