// ESM entry of fscache. The implementation is index.cjs (one copy of the
// addon and of its state, whether the package is imported or required).
import impl from "./index.cjs";

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
