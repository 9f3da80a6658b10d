/*
 * Types of the overlay: every declaration of the real @oh-my-pi/pi-natives
 * (installed beside it as @oh-my-pi/pi-natives-real), so code written against
 * pi-natives type-checks unchanged. glob, fuzzyFind, grep,
 * invalidateFsScanCache, listWorkspace, FileType and GrepOutputMode keep
 * pi-natives' declarations (fscache's are field for field the same, and its
 * enums have the same values); cacheStats is fscache's addition.
 *
 * index.d.cts, for `require` callers, is this file copied when the package
 * is staged (build/stage-npm.mjs).
 */
export * from "@oh-my-pi/pi-natives-real";
export { cacheStats } from "fscache-native";
export type { CacheStats } from "fscache-native";
