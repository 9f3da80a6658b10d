// ESM entry of fscache. The implementation is index.cjs (one copy of the
// addon and of its state, whether the package is imported or required).
// It is loaded with require, not imported: importing a CommonJS module makes
// Node's ES loader parse its source for named exports first, 3 ms of a
// 7 ms import here (the whole import is 4 ms this way).
import { createRequire } from "node:module";

const impl = createRequire(import.meta.url)("./index.cjs");

export const FileType = impl.FileType;
export const GrepOutputMode = impl.GrepOutputMode;
export const fuzzyFind = impl.fuzzyFind;
export const glob = impl.glob;
export const grep = impl.grep;
export const invalidateFsScanCache = impl.invalidateFsScanCache;
export const listWorkspace = impl.listWorkspace;
export const readCache = impl.readCache;
export const readCacheResolve = impl.readCacheResolve;
export const readCacheStore = impl.readCacheStore;
export const version = impl.version;
export const cacheStats = impl.cacheStats;
