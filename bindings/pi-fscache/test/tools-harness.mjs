// Shared by the tools tests and bench: a PATH with Debian's fd and rg made
// usable by pi 0.73.1's built-in find and grep, set before pi is imported.
//
// pi looks for `fd` (or `fdfind`) and `rg` on PATH (tools-manager.js
// getToolPath) after its own bin dir; PI_OFFLINE=1 keeps it from
// downloading, PI_CODING_AGENT_DIR points its bin dir at an empty place.
// Debian bookworm's fd 8.6 does not know `--no-require-git` (fd >= 8.7),
// which pi passes: the `fd` put first on PATH is a script that drops it and
// runs fdfind. fd 8.6 thus applies .gitignore files inside git repositories
// only, as rg and fscache do (docs/pi-tools.md).
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

function which(cmd) {
  try {
    return execFileSync("sh", ["-c", `command -v ${cmd}`], { encoding: "utf8" }).trim() || null;
  } catch {
    return null;
  }
}

/** Sets up PATH and pi's environment; returns {dir, fd, rg} or throws naming what is missing. */
export function setupBuiltinTools() {
  const fd = which("fdfind") ?? which("fd");
  const rg = which("rg");
  if (!fd || !rg) {
    throw new Error(
      `pi-fscache tools tests need fd and rg on PATH (Debian: apt-get install fd-find ripgrep; make test-pi-tools installs them): fd=${fd} rg=${rg}`,
    );
  }
  const dir = mkdtempSync(path.join(tmpdir(), "pi-tools-"));
  const bin = path.join(dir, "bin");
  mkdirSync(bin);
  const shim = path.join(bin, "fd");
  writeFileSync(
    shim,
    `#!/bin/sh
# pi's find runs the newest fd (>= 8.7), which knows --no-require-git; this
# is ${fd}, which may not: the flag is dropped.
n=$#
while [ "$n" -gt 0 ]; do a=$1; shift; n=$((n-1)); [ "$a" = "--no-require-git" ] || set -- "$@" "$a"; done
exec ${fd} "$@"
`,
  );
  chmodSync(shim, 0o755);
  process.env.PATH = `${bin}:${path.dirname(rg)}:${process.env.PATH}`;
  process.env.PI_OFFLINE = "1";
  process.env.PI_CODING_AGENT_DIR = path.join(dir, "agent");
  return { dir, fd, rg };
}

/** Runs a tool definition's execute: {text, details} or {error}. */
export async function run(def, params, cwd) {
  try {
    const r = await def.execute("call", params, undefined, undefined, { cwd });
    return { text: r.content.map((c) => c.text).join("\n"), details: r.details };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}
