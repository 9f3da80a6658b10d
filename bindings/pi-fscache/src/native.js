// The fscache engines, from the package `fscache-native` when it is
// installed (a packed pi-fscache depends on it), else from this checkout's
// bindings/node, which loads build/out/fscache.node (after `make build`).
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

function load() {
  const tried = [];
  try {
    return require("fscache-native");
  } catch (err) {
    tried.push(`fscache-native: ${err && err.message ? err.message.split("\n")[0] : err}`);
  }
  const checkout = fileURLToPath(new URL("../../node/index.cjs", import.meta.url));
  if (existsSync(checkout)) {
    try {
      return require(checkout);
    } catch (err) {
      tried.push(`${checkout}: ${err && err.message ? err.message : err}`);
    }
  } else {
    tried.push(`${checkout}: not found`);
  }
  throw new Error(
    `pi-fscache: cannot load fscache's native engines. Tried:\n  ${tried.join("\n  ")}\n` +
      "Install the package with npm (it depends on fscache-native), or in an fscache checkout run `make build` first.",
  );
}

/** The fscache-native module (glob, grep, listWorkspace, readCache, ...). */
export const native = load();
