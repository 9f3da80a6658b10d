// Case registry. A case is
//   { id, call: { fn, options, onMatch?, signal?, rawArgs? } }              one call, or
//   { id, steps: [ {op:"call"|"invalidate"|"write"|"rm"|"mkdir"|"rename"|"symlink"|"sleep"|"chdir", ...} ] }
// plus optional: env (runs in its own runner process per distinct env), fresh (name of a
// fixture built privately for this case on each side; cwd defaults to it, token @@W@@),
// cwd (default @@F@@), proc (isolation class: own runner process), budgetMs.
// The first path component of the id is the area.

import { globCases } from "./glob.mjs";
import { gitignoreCases } from "./gitignore.mjs";
import { fuzzyCases } from "./fuzzy.mjs";
import { grepCases } from "./grep.mjs";
import { cacheCases } from "./cache.mjs";
import { errorCases } from "./errors.mjs";
import { realTreeCases } from "./realtree.mjs";
import { generatedCases } from "./generated.mjs";

export function allCases() {
  return [...globCases(), ...gitignoreCases(), ...fuzzyCases(), ...grepCases(), ...cacheCases(), ...errorCases(), ...realTreeCases(), ...generatedCases()];
}
