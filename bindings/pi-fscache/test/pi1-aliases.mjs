// Imported first (`node --import ./test/pi1-aliases.mjs`) when the suites
// run on pi 1.x (PI_LINE=1): the package's sources import
// `@mariozechner/pi-coding-agent` and `typebox`, which pi 1.x's extension
// loader maps onto itself (dist/core/extensions/loader.js, getAliases: the
// old scope's names, pi-ai's root as its compat view, pi's own typebox).
// Tests import the sources directly, without that loader: this hook makes
// the same mapping, so that what the tests run is what pi 1.x loads.
// (module.registerHooks: Node >= 22.15; pi 1.x needs 22.19.) The hosts
// themselves live in test/hosts/ (test/hosts.mjs, imported first).
import "./hosts.mjs";
import { registerHooks } from "node:module";

const pi = import.meta.resolve("@earendil-works/pi-coding-agent");
const MAP = new Map([
  ["@mariozechner/pi-coding-agent", "@earendil-works/pi-coding-agent"],
  ["@mariozechner/pi-agent-core", "@earendil-works/pi-agent-core"],
  ["@mariozechner/pi-tui", "@earendil-works/pi-tui"],
  ["@mariozechner/pi-ai", "@earendil-works/pi-ai/compat"],
  ["@mariozechner/pi-ai/compat", "@earendil-works/pi-ai/compat"],
  ["typebox", "typebox"],
  ["typebox/compile", "typebox/compile"],
  ["typebox/value", "typebox/value"],
]);

registerHooks({
  resolve(specifier, context, next) {
    const to = MAP.get(specifier);
    if (to === undefined) return next(specifier, context);
    // Resolved from pi's own package, as its loader resolves them.
    return next(to, { ...context, parentURL: pi });
  },
});
