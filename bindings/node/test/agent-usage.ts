// Type check only (`make typecheck`): calls written the way the coding agent
// calls @oh-my-pi/pi-natives, importing from this package by name instead.
// Compiled with `tsc --noEmit` against index.d.ts; never run.
import {
  FileType,
  fuzzyFind,
  glob,
  grep,
  GrepOutputMode,
  invalidateFsScanCache,
  type ContextLine,
  type FuzzyFindMatch,
  type FuzzyFindOptions,
  type FuzzyFindResult,
  type GlobMatch,
  type GlobOptions,
  type GlobResult,
  type GrepMatch,
  type GrepOptions,
  type GrepResult,
} from "fscache-native";

// find tool: sorted by mtime, capped, cancellable, progress through onMatch.
export async function find(
  pattern: string,
  searchPath: string,
  opts: { hidden?: boolean; gitignore?: boolean; limit: number; timeoutMs: number },
  signal?: AbortSignal,
  onUpdate?: (lines: string[]) => void,
): Promise<string[]> {
  const timeoutSignal = AbortSignal.timeout(opts.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeoutSignal]) : timeoutSignal;
  const partial: string[] = [];
  const result: GlobResult = await glob(
    {
      pattern,
      path: searchPath,
      hidden: opts.hidden ?? true,
      maxResults: opts.limit,
      sortByMtime: true,
      gitignore: opts.gitignore ?? true,
      signal: combined,
    },
    (err, match) => {
      if (err) return;
      partial.push(match.fileType === FileType.Dir ? `${match.path}/` : match.path);
      onUpdate?.(partial);
    },
  );
  const matches: GlobMatch[] = [...result.matches].sort((a, b) => (b.mtime ?? 0) - (a.mtime ?? 0));
  const sizes: Array<number | undefined> = matches.map((m) => m.size);
  void sizes;
  return matches.map((m) => (m.fileType === FileType.Dir ? `${m.path}/` : m.path));
}

// Directory listing with a type filter and a timeout, no callback.
export async function listDirs(root: string): Promise<number> {
  const options: GlobOptions = { pattern: "*", path: root, fileType: FileType.Dir, recursive: false, cache: true };
  const r = await glob(options, null);
  const r2 = await glob({ pattern: "**/*.ts", path: root, includeNodeModules: false, timeoutMs: 5_000 }, undefined);
  return r.totalMatches + r2.totalMatches;
}

// @-mention autocomplete: fuzzyFind with the shared scan cache.
export async function autocomplete(query: string, cwd: string, signal?: AbortSignal): Promise<FuzzyFindMatch[]> {
  const options: FuzzyFindOptions = { query, path: cwd, hidden: false, gitignore: true, cache: true, maxResults: 20, signal };
  const result: FuzzyFindResult = await fuzzyFind(options);
  return result.matches.filter((m) => m.score > 0 && (m.isDirectory || !m.path.endsWith("/")));
}

// search tool: content mode with context, then count mode.
export async function search(pattern: string, cwd: string, signal?: AbortSignal): Promise<string> {
  const options: GrepOptions = {
    pattern,
    path: cwd,
    glob: "*.ts",
    type: "ts",
    ignoreCase: true,
    multiline: false,
    hidden: true,
    gitignore: true,
    cache: false,
    maxCount: 100,
    offset: 0,
    contextBefore: 2,
    contextAfter: 2,
    maxColumns: 500,
    mode: GrepOutputMode.Content,
    signal,
    timeoutMs: 10_000,
  };
  const seen: GrepMatch[] = [];
  const result: GrepResult = await grep(options, (error: Error | null, match: GrepMatch) => {
    if (error === null) seen.push(match);
  });
  const lines: string[] = [];
  for (const m of result.matches) {
    const before: ContextLine[] = m.contextBefore ?? [];
    for (const c of before) lines.push(`${m.path}-${c.lineNumber}-${c.line}`);
    lines.push(`${m.path}:${m.lineNumber}:${m.line}${m.truncated ? " [truncated]" : ""}`);
    for (const c of m.contextAfter ?? []) lines.push(`${m.path}-${c.lineNumber}-${c.line}`);
  }
  const counts = await grep({ pattern, path: cwd, mode: GrepOutputMode.Count });
  const total = counts.matches.reduce((n, m) => n + (m.matchCount ?? 0), 0);
  const files = await grep({ pattern, path: cwd, mode: GrepOutputMode.FilesWithMatches, context: 1 });
  lines.push(`${total} matches in ${result.filesWithMatches}/${result.filesSearched} files (${files.totalMatches})`);
  if (result.limitReached) lines.push("(limit reached)");
  return lines.join("\n");
}

// After an edit: drop cached scans under the touched path, or everything.
export function afterWrite(filePath?: string): void {
  const nothing: void = invalidateFsScanCache(filePath);
  invalidateFsScanCache(null);
  invalidateFsScanCache();
  return nothing;
}

// The enums are values at run time and types.
export const dirKind: FileType = FileType.Dir;
export const modes: GrepOutputMode[] = [GrepOutputMode.Content, GrepOutputMode.Count, GrepOutputMode.FilesWithMatches];

// Misuse is a compile error.
// @ts-expect-error pattern is required
void glob({ path: "." });
// @ts-expect-error maxResults is a number
void glob({ pattern: "*", path: ".", maxResults: "10" });
// @ts-expect-error mode is a GrepOutputMode, not any string
void grep({ pattern: "x", path: ".", mode: "lines" });
// @ts-expect-error fuzzyFind takes no callback
void fuzzyFind({ query: "x", path: "." }, () => {});
// @ts-expect-error the path is a string
invalidateFsScanCache(5);
