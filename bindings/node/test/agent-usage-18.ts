// Type-level usage of what pi-natives 18.2 added, as the agent writes it
// (checked by `make typecheck`, never run): listWorkspace at start-up, grep's
// maxCountPerFile and skippedOversized, aborts recognised by name.
import { grep, listWorkspace, GrepOutputMode } from "fscache-native";
import type { GlobMatch, GrepResult, ListWorkspaceOptions, ListWorkspaceResult } from "fscache-native";

export async function startup(cwd: string, signal: AbortSignal): Promise<string[]> {
  const options: ListWorkspaceOptions = { path: cwd, maxDepth: 3, collectAgentsMd: true, timeoutMs: 5000, signal };
  const result: ListWorkspaceResult = await listWorkspace(options);
  const tree: GlobMatch[] = result.entries;
  const lines = tree.map((e) => `${e.path} ${e.fileType} ${e.mtime ?? 0} ${e.size ?? "-"}`);
  const agents: string[] = result.agentsMdFiles;
  if (result.truncated) lines.push("(truncated)");
  return [...lines, ...agents];
}

export async function search(cwd: string, signal: AbortSignal): Promise<number> {
  try {
    const r: GrepResult = await grep({ pattern: "TODO", path: cwd, maxCount: 100, maxCountPerFile: 5, mode: GrepOutputMode.Content, signal });
    const skipped: number | undefined = r.skippedOversized;
    return r.totalMatches + (skipped ?? 0);
  } catch (err) {
    if (err instanceof Error && err.name === "AbortError") return -1;
    throw err;
  }
}

// @ts-expect-error maxDepth is required
void listWorkspace({ path: "." });
// @ts-expect-error maxCountPerFile is a number
void grep({ pattern: "x", path: ".", maxCountPerFile: "1" });
