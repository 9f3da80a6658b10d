// Where the tests' pi hosts live (issue 49): test/hosts/ is a package of its
// own (package.json and lock file; `make pi-deps` runs npm ci there), which
// holds pi 0.73.1 and 1.6.0, their pi-ai, typebox and jsdiff. It is outside
// the package's own module resolution (bindings/pi-fscache/node_modules holds
// only fscache-native), so that a pi that loads the package from this
// directory (`pi install ./bindings/pi-fscache`) is never shadowed by a test
// host. This resolve hook sends those names, imported by the tests and by
// the package's sources when the tests load them, to test/hosts/: installed
// by test/hosts.mjs on both lines (`node --import ./test/hosts.mjs`, which
// test/pi1-aliases.mjs imports first on pi 1.x).
import { fileURLToPath } from "node:url";

/** test/hosts/, the hosts' package directory. */
export const HOSTS_DIR = fileURLToPath(new URL("./hosts/", import.meta.url));
const HOSTS = new URL("./hosts/package.json", import.meta.url).href;
const HOST_NAMES = /^(@mariozechner\/|@earendil-works\/|typebox(\/|$)|diff(\/|$))/;

/**
 * A module.register / module.registerHooks resolve hook: a host's name
 * imported from outside a node_modules is resolved from test/hosts/ (what
 * the hosts import among themselves resolves as npm laid it out).
 */
export function resolve(specifier, context, next) {
  if (HOST_NAMES.test(specifier) && !String(context.parentURL ?? "").includes("/node_modules/")) {
    return next(specifier, { ...context, parentURL: HOSTS });
  }
  return next(specifier, context);
}
