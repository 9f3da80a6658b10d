// Runs omp-fscache's suites as a user's omp would see the package: a
// temporary HOME, `omp plugin install <package dir>` with the hosts' omp
// CLI (test/hosts), then each suite (*.test.ts) on Bun with that HOME.
//
//   node test/run.mjs <bun> [suite.test.ts | path/to/script.ts ...] [-- args]
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.dirname(here);
// Arguments after "--" go to each script (the bench's options).
const all = process.argv.slice(2);
const dash = all.indexOf("--");
const [bun, ...suites] = dash >= 0 ? all.slice(0, dash) : all;
const extra = dash >= 0 ? all.slice(dash + 1) : [];
if (!bun) throw new Error("usage: node test/run.mjs <bun> [suites]");
const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "omp-fscache-home-")));
// omp's plugin installer runs `bun install` from PATH: the Bun given.
const env = { ...process.env, HOME: home, PATH: `${path.dirname(fs.realpathSync(bun))}:${process.env.PATH}` };
delete env.OMP_FSCACHE_READ;
const cli = path.join(here, "hosts/node_modules/@oh-my-pi/pi-coding-agent/src/cli.ts");
let status = 0;
try {
  const r = spawnSync(bun, [cli, "plugin", "install", pkg], { env, encoding: "utf8", timeout: 300000 });
  if (r.status !== 0) throw new Error(`omp plugin install ${pkg}: exit ${r.status}\n${r.stdout}\n${r.stderr}`);
  const list = (suites.length ? suites : fs.readdirSync(here).filter((f) => f.endsWith(".test.ts")).sort()).map((s) => (s.includes("/") ? path.resolve(s) : path.resolve(here, s)));
  for (const s of list) {
    console.log(`# ${path.basename(s)}`);
    const t = spawnSync(bun, [s, ...extra], { env, stdio: "inherit", timeout: 1800000 });
    if (t.status !== 0) {
      console.log(`# ${path.basename(s)}: FAILED (exit ${t.status}${t.signal ? `, ${t.signal}` : ""})`);
      status = 1;
    }
  }
} finally {
  fs.rmSync(home, { recursive: true, force: true });
}
process.exit(status);
