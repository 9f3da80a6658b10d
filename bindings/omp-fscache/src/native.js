// The fscache engine and the shared read-cache view, from the package
// `fscache-native` when it is installed (a packed omp-fscache depends on it),
// else from this checkout's bindings/node (which loads build/out/fscache.node
// after `make build`). Loaded lazily: a failure leaves omp's read as it is.
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);

function checkout(rel) {
  return fileURLToPath(new URL(`../../node/${rel}`, import.meta.url));
}

/** The fscache-native module (readCache, ...); throws with what was tried. */
export function loadNative() {
  const tried = [];
  try {
    return require("fscache-native");
  } catch (err) {
    tried.push(`fscache-native: ${err && err.message ? err.message.split("\n")[0] : err}`);
  }
  const p = checkout("index.cjs");
  if (existsSync(p)) {
    try {
      return require(p);
    } catch (err) {
      tried.push(`${p}: ${err && err.message ? err.message : err}`);
    }
  } else tried.push(`${p}: not found`);
  throw new Error(
    `omp-fscache: cannot load fscache's native engine. Tried:\n  ${tried.join("\n  ")}\n` +
      "Install the package with npm (it depends on fscache-native), or in an fscache checkout run `make build` first.",
  );
}

/** fscache-native/readcache-view (the model's copy and the judge), or the checkout's. */
export async function loadView() {
  try {
    return await import("fscache-native/readcache-view");
  } catch (err) {
    const p = checkout("readcache-view.js");
    if (existsSync(p)) return import(pathToFileURL(p).href);
    throw err;
  }
}
