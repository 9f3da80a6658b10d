// Types of readcache-view.js (fscache's own: the read cache's judge of what
// the model is sent, shared by the agent packages; see its header).

/** [line number, text] of a line a read showed. */
export type ShownLine = [number, string]

/** A unified diff's hunk: old lines os..os+b-1 become new lines ns..ns+d-1; rows " x", "-x", "+x". */
export interface Hunk {
  os: number
  b: number
  ns: number
  d: number
  lines: string[]
}

/** What one read result means for the model's copy (an agent adapter's answer). */
export type ReadRecord =
  | { name: string; kind: "text"; shown: Iterable<ShownLine>; replace?: boolean }
  | { name: string; kind: "marker"; start: number; end: number; digest: string }
  | { name: string; kind: "diff"; baseStart: number; baseEnd: number; baseDigest: string; hunks: Hunk[] }
  | { name: string; kind: "opaque" }
  | { kind: "none" }

/** How an agent's messages are read: its read calls and what its results show. */
export interface ViewAdapter<M = any> {
  readCalls(assistantMessage: M): Array<{ id: string; args: unknown }>
  record(resultMessage: M, args: unknown): ReadRecord | undefined
  /** The message to send instead of a marker or diff that does not stand (the text it stands for). */
  replace?(resultMessage: M, record: ReadRecord, args: unknown): Promise<M>
  /** Whether two messages (of two requests) are the same message showing the same thing (Judge resumes on it; default: the same object). */
  same?(a: M, b: M): boolean
}

export declare class ModelCopy {
  lines(name: string): ReadonlyMap<number, string> | undefined
  learn(name: string, shown: Iterable<ShownLine>, options?: { replace?: boolean }): void
  applyDiff(name: string, hunks: Hunk[]): boolean
  forget(name: string): void
  digest(name: string, start: number, end: number): string | undefined
  holdsAll(name: string, shown: Iterable<ShownLine>): boolean
  prefix(name: string): number
  /** A deep copy of the given names' lines only. */
  subset(...names: string[]): ModelCopy
  clone(): ModelCopy
}

export declare function digestLines(shown: Iterable<ShownLine>): string | undefined
export declare function spanOf(shown: Iterable<ShownLine>): [number, number] | undefined
export declare function parseUnifiedDiff(text: string): Hunk[]
export declare function hunkSpan(hunks: Hunk[]): [number, number] | undefined
export declare function stands(copy: ModelCopy, record: ReadRecord): boolean
export declare function applyRecord(copy: ModelCopy, record: ReadRecord): void
/** adapter, with the records of names other than name left out. */
export declare function onlyName<A extends ViewAdapter>(adapter: A, name: string): A
export declare function rebuild<M>(messages: M[], adapter: ViewAdapter<M>, options?: { copy?: ModelCopy; onFalls?: (index: number, message: M, record: ReadRecord) => void }): ModelCopy
/** A session manager's tree, as pi's and omp's SessionManager expose it. */
export interface SessionTree {
  getLeafId(): string | null
  getEntry(id: string): { id: string; parentId: string | null; type: string; message?: unknown } | undefined
}
/** The entries from the assistant message that issued toolCallId to the leaf, or undefined (a program's call). */
export declare function issuingTail(sm: SessionTree, toolCallId: string, lookback?: number): Array<{ id: string; parentId: string | null; type: string; message?: any }> | undefined
/** judge() across the requests of one conversation, resumed where the last request's messages are a prefix of this one's (adapter.same). */
export declare class Judge {
  reset(): void
  judge<M>(messages: M[], adapter: ViewAdapter<M> & Required<Pick<ViewAdapter<M>, "replace">>): Promise<{ messages: M[]; replaced: number; copy: ModelCopy; resumedAt: number }>
}
export declare function judge<M>(messages: M[], adapter: Required<ViewAdapter<M>>): Promise<{ messages: M[]; replaced: number; copy: ModelCopy }>
