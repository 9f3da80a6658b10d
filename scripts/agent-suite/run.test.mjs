// run.test.mjs: run.sh end to end on a made-up monorepo, with fake `bun` and
// `npm` (node --test scripts/agent-suite/run.test.mjs). Checks what run.sh
// decides, not the agent's tests: which published pi-natives both sides get
// (the tree's version, or PI_NATIVES), that an install is redone when that
// version changes, whose addon lands in packages/natives/native/, and how a
// file the snapshot lacks stops the run or is taken from REV's history
// (FILL_MISSING).
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

const runSh = fileURLToPath(new URL("./run.sh", import.meta.url));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agent-suite-run-"));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const write = (file, text, mode = 0o644) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { mode });
};
const MODELS = "packages/catalog/src/models.json";

// The fake npm: installs each dependency of ./package.json as a directory
// under node_modules (a version of @oh-my-pi/pi-natives also gets its
// linux-x64 addon package, the addon's text naming the version) and logs
// every install's package.json to $FAKE_NPM_LOG, one JSON a line.
const fakeNpm = `#!/usr/bin/env node
const fs = require("node:fs"), path = require("node:path");
if (process.argv[2] !== "install") process.exit(1);
const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
fs.appendFileSync(process.env.FAKE_NPM_LOG, JSON.stringify(pkg) + "\\n");
if (/"18\\.0\\.404"/.test(JSON.stringify(pkg))) {
  console.error("npm error 404 No match found for version 18.0.404");
  process.exit(1);
}
for (const [name, spec] of Object.entries(pkg.dependencies)) {
  const dir = path.join("node_modules", name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, spec }));
  const version = spec.replace(/^npm:@oh-my-pi\\/pi-natives@/, "");
  if (name === "@oh-my-pi/pi-natives" && !spec.startsWith("file:")) {
    const leaf = path.join("node_modules", "@oh-my-pi", "pi-natives-linux-x64");
    fs.mkdirSync(leaf, { recursive: true });
    fs.writeFileSync(path.join(leaf, "pi_natives.linux-x64-modern.node"), "addon " + version + "\\n");
  }
}
`;

// The fake bun (bash: run.sh starts it a dozen times a run): --version;
// install (the workspace's node_modules/@oh-my-pi); -e (run.sh's check of
// which side the agent loads: "overlay" when its @oh-my-pi/pi-natives
// resolves into side-overlay/, with the addon when packages/natives/native/
// has one); test (a JUnit report of one passing test named after the addon
// the workspace has).
const fakeBun = `#!/usr/bin/env bash
root=$PWD
until [[ -d $root/packages/natives || $root == / ]]; do root=$(dirname "$root"); done
addon=$root/packages/natives/native/pi_natives.linux-x64-modern.node
case $1 in
--version) echo 1.4.5 ;;
install) mkdir -p node_modules/@oh-my-pi ;;
-e)
	side=real have=addon-missing
	[[ $(realpath "$root/node_modules/@oh-my-pi/pi-natives") == */side-overlay/* ]] && side=overlay
	[[ -f $addon ]] && have=addon-ok
	echo "$side 5 $have" ;;
test)
	for a in "$@"; do [[ $a == --reporter-outfile=* ]] && out=\${a#--reporter-outfile=}; done
	name=$(<"$addon")
	{
		echo '<?xml version="1.0" encoding="UTF-8"?>'
		echo '<testsuites name="bun test" tests="1">'
		echo '  <testsuite name="f" tests="1">'
		printf '    <testcase name="%s" classname="d" time="0.001" />\\n' "$name"
		echo '  </testsuite>'
		echo '</testsuites>'
	} >"$out" ;;
*) exit 1 ;;
esac
`;

let gitDir;
let firstModels; // the commit whose models.json the snapshot keeps
const bin = path.join(tmp, "bin");
const dist = path.join(tmp, "dist");
const npmLog = path.join(tmp, "npm.log");

before(() => {
  write(path.join(bin, "npm"), fakeNpm, 0o755);
  write(path.join(tmp, "fake-bun"), fakeBun, 0o755);
  write(path.join(dist, "fscache-pi-natives-0.1.0.tgz"), "");
  // The monorepo: pi-natives 18.0.0 (no addon, as the tree has none), a
  // module using its glob and a test of it; models.json in two commits, the
  // second's blob then removed, as a snapshot leaves out files of 4 MiB.
  const repo = path.join(tmp, "repo");
  write(path.join(repo, "package.json"), '{"private":true,"workspaces":["packages/*"]}\n');
  write(path.join(repo, "packages/natives/package.json"), '{"name":"@oh-my-pi/pi-natives","version":"18.0.0"}\n');
  write(path.join(repo, "packages/natives/native/index.js"), "export const glob = () => [];\n");
  write(path.join(repo, "packages/coding-agent/package.json"), '{"name":"@oh-my-pi/pi-coding-agent","version":"18.0.0"}\n');
  write(path.join(repo, "packages/coding-agent/src/find.ts"), 'import { glob } from "@oh-my-pi/pi-natives";\nexport const find = glob;\n');
  write(path.join(repo, "packages/coding-agent/test/find.test.ts"), 'import { find } from "../src/find";\n');
  write(path.join(repo, MODELS), '{"old":{}}\n');
  const git = (...args) =>
    execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args], { encoding: "utf8" }).trim();
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "one");
  firstModels = git("rev-parse", "HEAD");
  write(path.join(repo, MODELS), '{"new":{}}\n');
  git("commit", "-qam", "two");
  git("tag", "v18.0.0");
  const blob = git("rev-parse", `v18.0.0:${MODELS}`);
  fs.rmSync(path.join(repo, ".git", "objects", blob.slice(0, 2), blob.slice(2)));
  gitDir = path.join(repo, ".git");
});

/** run.sh on WORK with ENV, from CWD; returns {status, out} (stdout and stderr). */
function run(work, env = {}, cwd = undefined) {
  fs.rmSync(npmLog, { force: true });
  const r = spawnSync("bash", [runSh, gitDir, "v18.0.0", work], {
    encoding: "utf8",
    cwd,
    env: {
      ...process.env,
      PATH: `${bin}:${process.env.PATH}`,
      BUN: path.join(tmp, "fake-bun"),
      DIST: dist,
      FAKE_NPM_LOG: npmLog,
      PI_NATIVES: "",
      FILL_MISSING: "",
      ALLOW_MISSING: "assets/* crates/*",
      FILES: "",
      SIDES: "real overlay",
      ...env,
    },
  });
  return { status: r.status, out: r.stdout + r.stderr };
}
const installs = () =>
  fs.existsSync(npmLog) ? fs.readFileSync(npmLog, "utf8").trim().split("\n").map((l) => JSON.parse(l)) : [];
const addon = (work) => fs.readFileSync(path.join(work, "src/packages/natives/native/pi_natives.linux-x64-modern.node"), "utf8");

test("a file the snapshot lacks stops the run, unless FILL_MISSING takes it from REV's history", () => {
  const work = path.join(tmp, "w-missing");
  const stopped = run(work);
  assert.equal(stopped.status, 2, stopped.out);
  assert.match(stopped.out, new RegExp(`lacks.*\\n  ${MODELS}\\n`));
  assert.match(stopped.out, /FILL_MISSING/);
  assert.equal(fs.existsSync(path.join(work, "src", MODELS)), false);

  const filled = run(work, { FILL_MISSING: "packages/catalog/src/*.json" });
  assert.equal(filled.status, 0, filled.out);
  assert.match(filled.out, new RegExp(`${MODELS} \\(not in the snapshot at v18.0.0\\) taken from ${firstModels}`));
  assert.equal(fs.readFileSync(path.join(work, "src", MODELS), "utf8"), '{"old":{}}\n');
  assert.equal(fs.readFileSync(path.join(work, "src/.filled"), "utf8"), `${MODELS}\t${firstModels}\n`);
  // Once filled, the file is there for later runs without FILL_MISSING.
  assert.equal(run(work).status, 0);
});

test("both sides get the tree's pi-natives by default, PI_NATIVES's when given, reinstalled when it changes", () => {
  const work = path.join(tmp, "w-natives");
  const env = { FILL_MISSING: MODELS };
  const tree = run(work, env);
  assert.equal(tree.status, 0, tree.out);
  assert.match(tree.out, /run\.sh: v18\.0\.0, pi-natives 18\.0\.0, bun 1\.4\.5, fscache overlay 0\.1\.0\n/);
  assert.deepEqual(
    installs().map((p) => p.dependencies),
    [
      { "@oh-my-pi/pi-natives": "18.0.0" },
      {
        "@oh-my-pi/pi-natives": `file:${dist}/fscache-pi-natives-0.1.0.tgz`,
        "@oh-my-pi/pi-natives-real": "npm:@oh-my-pi/pi-natives@18.0.0",
      },
    ],
  );
  assert.equal(addon(work), "addon 18.0.0\n");
  assert.match(tree.out, /differences: 0/);

  // BUN may be relative to where run.sh starts (it runs bun in other directories).
  const again = run(work, { ...env, BUN: "./fake-bun" }, tmp);
  assert.equal(again.status, 0, again.out);
  assert.deepEqual(installs(), [], "the same version is not installed again");

  const other = run(work, { ...env, PI_NATIVES: "18.0.3" });
  assert.equal(other.status, 0, other.out);
  assert.match(other.out, /pi-natives 18\.0\.3 \(PI_NATIVES; v18\.0\.0's packages\/natives is 18\.0\.0\)/);
  assert.deepEqual(
    installs().map((p) => Object.values(p.dependencies).at(-1)),
    ["18.0.3", "npm:@oh-my-pi/pi-natives@18.0.3"],
  );
  assert.equal(addon(work), "addon 18.0.3\n");
  // Both sides ran with that addon: the fake test is named after it.
  for (const side of ["real", "overlay"]) {
    const xml = fs.readFileSync(path.join(work, "results", side, "packages/coding-agent/test/find.test.ts.xml"), "utf8");
    assert.match(xml, /<testcase name="addon 18\.0\.3"/);
  }
  assert.match(other.out, /differences: 0/);
  // The overlay's pi-natives-real is the workspace's packages/natives.
  assert.equal(
    fs.realpathSync(path.join(work, "side-overlay/node_modules/@oh-my-pi/pi-natives-real")),
    fs.realpathSync(path.join(work, "src/packages/natives")),
  );
});

test("PI_NATIVES must be a version, and one on the registry", () => {
  const work = path.join(tmp, "w-bad");
  const r = run(work, { FILL_MISSING: MODELS, PI_NATIVES: "latest" });
  assert.equal(r.status, 2, r.out);
  assert.match(r.out, /PI_NATIVES wants a version, got "latest"/);
  assert.deepEqual(installs(), []);

  const unpublished = run(work, { PI_NATIVES: "18.0.404" });
  assert.equal(unpublished.status, 2, unpublished.out);
  assert.match(unpublished.out, /npm install in .*published failed: is @oh-my-pi\/pi-natives@18\.0\.404 on the registry\? \(PI_NATIVES picks another version\)/);
  assert.equal(installs().length, 1);
  assert.equal(fs.existsSync(path.join(work, "results")), false);
});
