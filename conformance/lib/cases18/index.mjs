// Cases for what pi-natives 18.2 added (listWorkspace, grep maxCountPerFile, look-around and
// backreference patterns, aborts) or changed (sub-millisecond mtimes: mtime.mjs, id prefix
// `mtime/`), run against @oh-my-pi/pi-natives-linux-x64@18.2.3 by `make conformance` (driver
// --suite 18). Look-around cases live in lookaround.mjs (id prefix
// `lookaround/`): run them alone with CONFORMANCE18_ARGS='--filter ^lookaround/'.
import { listWorkspaceCases } from "./listworkspace.mjs";
import { maxCountPerFileCases } from "./maxcountperfile.mjs";
import { abortCases } from "./abort.mjs";
import { lookaroundCases } from "./lookaround.mjs";
import { mtimeCases } from "./mtime.mjs";

export function allCases18() {
  return [...listWorkspaceCases(), ...maxCountPerFileCases(), ...abortCases(), ...lookaroundCases(), ...mtimeCases()];
}
