// @oh-my-pi/pi-natives, served by fscache where fscache has the function.
//
// Every export of the real pi-natives (installed beside this package under
// the npm alias @oh-my-pi/pi-natives-real) is re-exported as it is, and the
// explicit exports below win over `export *` (an ESM rule): glob, fuzzyFind,
// grep, invalidateFsScanCache, listWorkspace, FileType and GrepOutputMode
// come from fscache, with the same names, options, results and enum values;
// cacheStats is fscache's own addition.
export * from "@oh-my-pi/pi-natives-real";
export {
  FileType,
  GrepOutputMode,
  cacheStats,
  fuzzyFind,
  glob,
  grep,
  invalidateFsScanCache,
  listWorkspace,
} from "fscache-native";
