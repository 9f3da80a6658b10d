import { call, F } from "../cases/util.mjs";

export function listWorkspaceCases() {
  const out = [];
  const lw = (name, options, more) => out.push(call(`listWorkspace/${name}`, "listWorkspace", options, more));
  const roots = ["ws", "basic", "gi_repo", "gi_outer", "gi_nogit", "names", "nm", "links", "empty", "ws_many", "ws/src", "ws/pkg"];
  for (const root of roots) {
    for (const maxDepth of [0, 1, 2, 3, 6]) {
      lw(`${root} maxDepth=${maxDepth}`, { path: F(root), maxDepth });
      lw(`${root} maxDepth=${maxDepth} collectAgentsMd`, { path: F(root), maxDepth, collectAgentsMd: true });
    }
    lw(`${root} hidden`, { path: F(root), maxDepth: 4, hidden: true });
    lw(`${root} gitignore=false`, { path: F(root), maxDepth: 4, gitignore: false });
    lw(`${root} hidden gitignore=false collectAgentsMd`, { path: F(root), maxDepth: 2, hidden: true, gitignore: false, collectAgentsMd: true });
    lw(`${root} hidden collectAgentsMd deep`, { path: F(root), maxDepth: 9, hidden: true, collectAgentsMd: true });
  }
  // maxDepth as Node-API's u32 conversion reads it
  for (const maxDepth of [-1, 1.5, 2.9, 4294967296 + 1, 1e10])
    lw(`ws maxDepth=${maxDepth}`, { path: F("ws"), maxDepth, collectAgentsMd: true });
  lw("ws explicit defaults", { path: F("ws"), maxDepth: 3, hidden: false, gitignore: true, collectAgentsMd: false });
  lw("ws nulls", { path: F("ws"), maxDepth: 2, hidden: null, gitignore: null, collectAgentsMd: null });
  lw("ws timeoutMs large", { path: F("ws"), maxDepth: 3, timeoutMs: 60000 });
  lw("ws live signal", { path: F("ws"), maxDepth: 3 }, { signal: "live" });
  lw("relative root", { path: "ws", maxDepth: 2, collectAgentsMd: true });
  lw("relative root dot", { path: ".", maxDepth: 1 });
  lw("root with trailing slash", { path: F("ws") + "/", maxDepth: 2 });
  // errors
  lw("missing root", { path: F("does-not-exist"), maxDepth: 1 });
  lw("file root", { path: F("ws/a.txt"), maxDepth: 1 });
  lw("timeoutMs=0", { path: F("ws"), maxDepth: 1, timeoutMs: 0 });
  return out;
}
