import { call, show, F } from "./util.mjs";

export function errorCases() {
  const out = [];
  const e = (name, fn, options, more = {}) => out.push(call(`errors/${name}`, fn, options, more));
  for (const fn of ["glob", "fuzzyFind", "grep"]) {
    const base = fn === "glob" ? { pattern: "*" } : fn === "grep" ? { pattern: "x" } : { query: "x" };
    e(`${fn} missing root`, fn, { ...base, path: F("does-not-exist") });
    e(`${fn} missing relative root`, fn, { ...base, path: "does-not-exist/deeper" });
    e(`${fn} root below a file`, fn, { ...base, path: F("basic/a.txt/x") });
    e(`${fn} broken symlink root`, fn, { ...base, path: F("links/link_broken") });
    e(`${fn} symlink loop root`, fn, { ...base, path: F("links/loop_a") });
    e(`${fn} already-aborted signal`, fn, { ...base, path: F("basic") }, { signal: "aborted" });
    e(`${fn} timeoutMs=0`, fn, { ...base, path: F("basic") });
    out[out.length - 1].call.options.timeoutMs = 0;
  }
  e("glob file root", "glob", { pattern: "*", path: F("basic/a.txt") });
  e("glob file root via symlink", "glob", { pattern: "*", path: F("links/link_file") });
  e("fuzzyFind file root", "fuzzyFind", { query: "a", path: F("basic/a.txt") });
  e("glob maxResults=0 missing root", "glob", { pattern: "*", path: F("does-not-exist"), maxResults: 0 });
  e("glob maxResults=0 file root", "glob", { pattern: "*", path: F("basic/a.txt"), maxResults: 0 });
  e("glob maxResults=0 invalid pattern", "glob", { pattern: "[", path: F("basic"), maxResults: 0 });
  e("fuzzyFind maxResults=0 missing root", "fuzzyFind", { query: "a", path: F("does-not-exist"), maxResults: 0 });
  e("glob missing root invalid pattern", "glob", { pattern: "[", path: F("does-not-exist") });
  for (const p of ["[", "a[", "**/[", "[z-a]", "[a-", "{[}", "a/[b", "[!]", "[^]", "***/[x"])
    e(`glob invalid pattern ${show(p)}`, "glob", { pattern: p, path: F("basic") });
  e("grep invalid glob filter", "grep", { pattern: "x", path: F("gr"), glob: "[" });
  e("grep invalid glob filter single file", "grep", { pattern: "x", path: F("gr/a.txt"), glob: "[" });
  // Look-around and backreferences to groups that exist now run (checked against 18.2.3 in
  // cases18/lookaround.mjs); what neither engine accepts stays a Regex error.
  for (const p of ["[", "[a", "a**", "\\", "(?P<n>a)(?P<n>b)", "\\1", "x{2,1}", "\\p{Foo}",
    "(?<name", "*a", "+", "a{99999}", "\\k<n>", "(?i", "[z-a]", "\\Q", "(?z)", "\\8", "a{1}{2}"])
    e(`grep invalid regex ${show(p)}`, "grep", { pattern: p, path: F("gr") });
  e("grep invalid regex single file", "grep", { pattern: "[", path: F("gr/a.txt") });
  e("grep invalid regex missing root", "grep", { pattern: "[", path: F("does-not-exist") });
  e("grep invalid regex and invalid glob", "grep", { pattern: "[", path: F("gr"), glob: "[" });
  e("grep unbalanced paren retried", "grep", { pattern: "foo(bar", path: F("gr") });
  e("grep invalid regex after paren retry", "grep", { pattern: "foo([", path: F("gr") });
  e("grep invalid regex ignoreCase", "grep", { pattern: "[", path: F("gr"), ignoreCase: true });

  // argument validation (conversion errors thrown by the binding)
  e("args glob missing pattern", "glob", { path: F("basic") });
  e("args glob missing path", "glob", { pattern: "*" });
  e("args glob hidden not boolean", "glob", { pattern: "*", path: F("basic"), hidden: "yes" });
  e("args glob fileType out of range", "glob", { pattern: "*", path: F("basic"), fileType: 7 });
  e("args grep mode invalid", "grep", { pattern: "x", path: F("gr"), mode: "bogus" });
  e("args fuzzyFind missing query", "fuzzyFind", { path: F("fz") });
  e("args glob no options", "glob", null, { rawArgs: [] });
  e("args glob null options", "glob", null, { rawArgs: [null] });
  e("args invalidate number", "invalidateFsScanCache", null, { rawArgs: [42] });
  return out;
}
