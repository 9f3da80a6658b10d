// Imported first by every run of the suites and benches
// (`node --import ./test/hosts.mjs`; test/pi1-aliases.mjs imports it on pi
// 1.x): pi, pi-ai, typebox and jsdiff resolve from test/hosts/, the tests'
// own package, never from the package's node_modules (test/hosts-resolve.mjs
// says why). In-thread hooks where Node has them (module.registerHooks,
// Node >= 22.15), else module.register (Node 20).
import module from "node:module";
import { resolve } from "./hosts-resolve.mjs";

if (typeof module.registerHooks === "function") module.registerHooks({ resolve });
else module.register("./hosts-resolve.mjs", import.meta.url);
