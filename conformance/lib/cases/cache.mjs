// Cache sequences. Each case runs on a private fresh copy of the `cache` fixture (@@W@@, also
// the cwd), on each side, with the mutations performed by the runner between calls.
// Timing: defaults are TTL 1000 ms and empty-recheck 200 ms; calls without a sleep between
// them are a few ms apart, sleeps leave wide margins.

const W = (rel = "") => (rel ? `@@W@@/${rel}` : "@@W@@");
const glob = (options) => ({ op: "call", fn: "glob", options: { path: W(), ...options } });
const fuzzy = (options) => ({ op: "call", fn: "fuzzyFind", options: { path: W(), ...options } });
const grep = (options) => ({ op: "call", fn: "grep", options: { path: W(), ...options } });
const write = (path, content = "needle new\n", mtime) => ({ op: "write", path, content, ...(mtime !== undefined ? { mtime } : {}) });
const rm = (path) => ({ op: "rm", path });
const inv = (path) => (path === undefined ? { op: "invalidate" } : { op: "invalidate", path });
const sleep = (ms) => ({ op: "sleep", ms });

export function cacheCases() {
  const out = [];
  const seq = (id, steps, extra = {}) => out.push({ id: `cache/${id}`, fresh: "cache", steps, budgetMs: 5000, ...extra });
  const G = { pattern: "**", cache: true };

  seq("stale within TTL then cache=false then fresh", [glob(G), write("new.txt"), glob(G), glob({ ...G, cache: false }), glob(G)]);
  seq("cache=false does not fill the cache", [glob({ ...G, cache: false }), write("new.txt"), glob(G)]);
  seq("invalidate relative file", [glob(G), write("sub/new.txt"), inv("sub/new.txt"), glob(G)]);
  seq("invalidate absolute file", [glob(G), write("sub/new.txt"), inv(W("sub/new.txt")), glob(G)]);
  seq("invalidate deleted file", [glob(G), rm("a.txt"), glob(G), inv("a.txt"), glob(G)]);
  seq("invalidate deleted dir child", [glob(G), rm("sub"), inv("sub/c.txt"), glob(G)]);
  seq("invalidate deleted dir", [glob(G), rm("sub"), inv("sub"), glob(G)]);
  seq("invalidate nonexistent deep", [glob(G), write("new.txt"), inv("nope/deeper/x.txt"), glob(G)]);
  seq("invalidate root itself", [glob(G), write("new.txt"), inv(W()), glob(G)]);
  seq("invalidate root trailing slash", [glob(G), write("new.txt"), inv(W() + "/"), glob(G)]);
  seq("invalidate parent of root", [glob({ ...G, path: W("sub") }), write("sub/new.txt"), inv(W()), glob({ ...G, path: W("sub") })]);
  seq("invalidate sibling with common prefix", [glob({ ...G, path: W("sub") }), write("sub/new.txt"), inv(W("sub2")), inv(W("subx/f.txt")), glob({ ...G, path: W("sub") })]);
  seq("invalidate no argument", [glob(G), glob({ ...G, path: W("sub") }), write("sub/new.txt"), inv(), glob(G), glob({ ...G, path: W("sub") })]);
  seq("invalidate null", [glob(G), write("new.txt"), inv(null), glob(G)]);
  seq("invalidate empty string", [glob(G), write("new.txt"), inv(""), glob(G)]);
  seq("invalidate dot", [glob(G), write("new.txt"), inv("."), glob(G)]);
  seq("invalidate outside", [glob(G), write("new.txt"), inv("/nonexistent-fscache-conformance/x"), glob(G)]);
  seq("invalidate dotdot path", [glob(G), rm("a.txt"), inv("sub/../a.txt"), glob(G)]);
  seq("invalidate through symlink", [{ op: "symlink", path: "lnk", target: "sub" }, glob({ ...G, path: W("sub") }), write("sub/n.txt"), inv("lnk/n.txt"), glob({ ...G, path: W("sub") })]);
  seq("invalidate after chdir", [glob(G), write("sub/n.txt"), { op: "chdir", path: "sub" }, inv("n.txt"), glob(G)]);
  seq("invalidate one root of two", [glob({ ...G, path: W("sub") }), glob({ ...G, path: W("other") }), write("sub/n.txt"), write("other/n.txt"), inv("sub/n.txt"), glob({ ...G, path: W("sub") }), glob({ ...G, path: W("other") })]);
  seq("invalidate rename both sides", [glob(G), { op: "rename", from: "a.txt", to: "sub/z.txt" }, inv("a.txt"), glob(G), inv("sub/z.txt"), glob(G)]);
  seq("root through symlink shares entry", [{ op: "symlink", path: "lnk", target: "sub" }, glob({ ...G, path: W("lnk") }), write("sub/n.txt"), glob({ ...G, path: W("sub") })]);
  seq("relative root shares entry", [glob({ ...G, path: "sub" }), write("sub/n.txt"), glob({ ...G, path: W("sub") })]);

  // key partitioning
  seq("key hidden", [glob(G), write("new.txt"), glob({ ...G, hidden: true }), glob(G)]);
  seq("key gitignore", [glob(G), write("new.txt"), glob({ ...G, gitignore: false }), glob(G)]);
  seq("key node_modules", [glob(G), write("new.txt"), glob({ ...G, includeNodeModules: true }), glob({ ...G, pattern: "**/node_modules/**" }), glob(G)]);
  seq("key detail", [glob({ ...G, fileType: 1 }), write("new.txt", "x\n", 1_700_000_500_000), glob({ ...G, fileType: 1, sortByMtime: true }), glob({ ...G, fileType: 1 })]);
  seq("shared glob fuzzyFind", [glob(G), write("zebra.txt"), { op: "call", fn: "fuzzyFind", options: { query: "zebra", path: W(), cache: true } }, fuzzy({ query: "zebra", cache: false })]);
  seq("shared fuzzyFind glob", [fuzzy({ query: "a", cache: true }), write("zebra.txt"), glob(G)]);
  seq("shared glob grep", [glob({ ...G, hidden: true }), write("new.txt"), grep({ pattern: "needle", cache: true, mode: "filesWithMatches" }), grep({ pattern: "needle", mode: "filesWithMatches" })]);
  seq("shared grep glob", [grep({ pattern: "needle", cache: true }), write("new.txt"), glob({ ...G, hidden: true })]);
  seq("grep hidden=false shares glob default", [glob(G), write("new.txt"), grep({ pattern: "needle", cache: true, hidden: false, mode: "filesWithMatches" })]);
  seq("grep glob mentioning node_modules", [glob({ ...G, hidden: true }), write("node_modules/n.js"), grep({ pattern: "needle", cache: true, glob: "**/node_modules/**", mode: "filesWithMatches" })]);
  seq("follow_links sharing fuzzyFind then glob", [{ op: "symlink", path: "lnk", target: "sub" }, fuzzy({ query: "", cache: true, maxResults: 1000 }), glob(G)]);
  seq("follow_links sharing glob then fuzzyFind", [{ op: "symlink", path: "lnk", target: "sub" }, glob(G), fuzzy({ query: "", cache: true, maxResults: 1000 })]);
  seq("grep cache=false leaves entry", [glob({ ...G, hidden: true }), write("new.txt"), grep({ pattern: "needle", cache: false, mode: "filesWithMatches" }), glob({ ...G, hidden: true })]);
  seq("fuzzyFind cache=false leaves entry", [glob(G), write("zebra.txt"), fuzzy({ query: "zebra", cache: false }), glob(G)]);

  // cached metadata and content
  seq("cached mtime is stale", [glob({ ...G, fileType: 1, sortByMtime: true }), write("a.txt", "changed\n", 1_800_000_000_000), glob({ ...G, fileType: 1, sortByMtime: true }), inv("a.txt"), glob({ ...G, fileType: 1, sortByMtime: true })]);
  seq("grep reads fresh content from cached list", [grep({ pattern: "newword", cache: true }), write("a.txt", "newword\n"), grep({ pattern: "newword", cache: true })]);
  seq("grep cached list with deleted file", [grep({ pattern: "needle", cache: true }), rm("a.txt"), grep({ pattern: "needle", cache: true }), grep({ pattern: "needle", cache: true, mode: "count" })]);
  seq("grep cached list new file not seen", [grep({ pattern: "needle", cache: true, mode: "filesWithMatches" }), write("n.txt"), grep({ pattern: "needle", cache: true, mode: "filesWithMatches" })]);

  // empty-result recheck (FS_SCAN_EMPTY_RECHECK_MS, default 200)
  seq("empty recheck glob", [glob({ ...G, pattern: "*.new" }), write("a.new"), glob({ ...G, pattern: "*.new" }), sleep(400), glob({ ...G, pattern: "*.new" }), write("b.new"), glob({ ...G, pattern: "*.new" })]);
  seq("empty recheck glob fileType", [glob({ ...G, pattern: "*", fileType: 3 }), { op: "symlink", path: "lnk", target: "a.txt" }, sleep(400), glob({ ...G, pattern: "*", fileType: 3 })]);
  seq("empty recheck fuzzyFind", [fuzzy({ query: "zebra", cache: true }), write("zebra.txt"), fuzzy({ query: "zebra", cache: true }), sleep(400), fuzzy({ query: "zebra", cache: true })]);
  seq("no empty recheck for empty fuzzy query", [{ op: "mkdir", path: "e" }, fuzzy({ query: "", cache: true, path: W("e") }), write("e/f.txt"), sleep(400), fuzzy({ query: "", cache: true, path: W("e") }), fuzzy({ query: "f", cache: true, path: W("e") })]);
  seq("empty recheck grep empty candidates", [{ op: "mkdir", path: "e" }, grep({ pattern: "needle", cache: true, path: W("e") }), write("e/x.txt"), grep({ pattern: "needle", cache: true, path: W("e") }), sleep(400), grep({ pattern: "needle", cache: true, path: W("e") })]);
  seq("no recheck grep with candidates", [grep({ pattern: "needle", cache: true, glob: "*.zz" }), write("n.zz"), sleep(400), grep({ pattern: "needle", cache: true, glob: "*.zz" }), grep({ pattern: "needle", cache: true, glob: "*.txt", mode: "filesWithMatches" })]);
  seq("nonempty result no recheck", [glob({ ...G, pattern: "*.txt" }), write("n.txt"), sleep(400), glob({ ...G, pattern: "*.txt" })]);

  // environment policy (own runner processes)
  seq("ttl expiry", [glob(G), write("new.txt"), glob(G), sleep(700), glob(G)], { env: { FS_SCAN_CACHE_TTL_MS: "300" } });
  seq("ttl expiry fuzzyFind", [fuzzy({ query: "a", cache: true }), write("aa.txt"), fuzzy({ query: "a", cache: true }), sleep(700), fuzzy({ query: "a", cache: true })], { env: { FS_SCAN_CACHE_TTL_MS: "300" } });
  seq("ttl 0 bypasses cache", [glob(G), write("new.txt"), glob(G), fuzzy({ query: "new", cache: true })], { env: { FS_SCAN_CACHE_TTL_MS: "0" } });
  seq("max entries 1", [glob({ ...G, path: W("sub") }), glob({ ...G, path: W("other") }), write("sub/n.txt"), write("other/n.txt"), glob({ ...G, path: W("sub") }), glob({ ...G, path: W("other") })], { env: { FS_SCAN_CACHE_MAX_ENTRIES: "1" } });
  seq("max entries 1 by key", [glob(G), glob({ ...G, hidden: true }), write("new.txt"), glob(G), glob({ ...G, hidden: true })], { env: { FS_SCAN_CACHE_MAX_ENTRIES: "1" } });
  seq("max entries 2 oldest evicted", [glob({ ...G, path: W("sub") }), glob({ ...G, path: W("other") }), glob({ ...G, path: W("sub2") }), write("sub/n.txt"), write("other/n.txt"), write("sub2/n.txt"), glob({ ...G, path: W("other") }), glob({ ...G, path: W("sub2") }), glob({ ...G, path: W("sub") })], { env: { FS_SCAN_CACHE_MAX_ENTRIES: "2" } });
  seq("default max entries keeps two", [glob({ ...G, path: W("sub") }), glob({ ...G, path: W("other") }), write("sub/n.txt"), write("other/n.txt"), glob({ ...G, path: W("sub") }), glob({ ...G, path: W("other") })]);
  seq("recheck threshold large", [glob({ ...G, pattern: "*.new" }), write("a.new"), sleep(400), glob({ ...G, pattern: "*.new" })], { env: { FS_SCAN_EMPTY_RECHECK_MS: "100000" } });
  seq("recheck threshold 0", [glob({ ...G, pattern: "*.new" }), write("a.new"), glob({ ...G, pattern: "*.new" }), fuzzy({ query: "anew", cache: true })], { env: { FS_SCAN_EMPTY_RECHECK_MS: "0" } });
  seq("invalid env values use defaults", [glob(G), write("new.txt"), glob(G)], { env: { FS_SCAN_CACHE_TTL_MS: "abc", FS_SCAN_EMPTY_RECHECK_MS: "-5", FS_SCAN_CACHE_MAX_ENTRIES: "x" } });
  return out;
}
