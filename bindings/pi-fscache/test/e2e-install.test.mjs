// `pi install ./bindings/pi-fscache` with the pinned pi CLI of each line
// (test/pi-line.mjs: 0.73.1, 1.6.0), in a
// temporary HOME and PI_CODING_AGENT_DIR so that no real configuration is
// touched; then pi lists the package, its CLI loads the extension (the flag
// it registers shows in `pi --help`), and pi's resource loader, reading the
// settings the install wrote, loads the extension whose read answers.
import test from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PI_VERSION, pi, piCommand } from "./pi-line.mjs";
import { appendToolCall } from "./session-helpers.mjs";

const { DefaultResourceLoader, SessionManager, SettingsManager } = pi;

const PKG = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

test("e2e: pi install ./bindings/pi-fscache, then pi loads it", async (t) => {
  const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pi-fscache-home-")));
  t.after(() => fs.rmSync(home, { recursive: true, force: true }));
  const agentDir = path.join(home, ".pi", "agent");
  const env = { ...process.env, HOME: home, PI_CODING_AGENT_DIR: agentDir };
  delete env.PI_FSCACHE_READ;
  // pi's output, stdout and stderr (pi prints some of it, --version, on stderr)
  const pi = (...args) => {
    const [exe, ...piArgs] = piCommand(...args);
    const r = spawnSync(exe, piArgs, { cwd: path.dirname(path.dirname(PKG)), env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120000 });
    assert.equal(r.status, 0, `pi ${args.join(" ")}: exit ${r.status}\n${r.stdout}${r.stderr}`);
    return r.stdout + r.stderr;
  };

  assert.ok(pi("--version").includes(PI_VERSION), `pi --version is ${PI_VERSION}`);
  pi("install", "./bindings/pi-fscache");
  const settings = JSON.parse(fs.readFileSync(path.join(agentDir, "settings.json"), "utf8"));
  assert.equal(settings.packages.length, 1);
  assert.equal(path.resolve(agentDir, settings.packages[0]), PKG, "the settings name this directory");
  assert.match(pi("list"), new RegExp(PKG.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  assert.match(pi("--help"), /--no-fscache-read/, "pi's CLI loaded the extension");

  const cwd = path.join(home, "work");
  fs.mkdirSync(cwd);
  fs.writeFileSync(path.join(cwd, "hello.txt"), "hello\n");
  const loader = new DefaultResourceLoader({ cwd, agentDir, settingsManager: SettingsManager.create(cwd, agentDir) });
  await loader.reload();
  const ext = loader.getExtensions();
  assert.deepEqual(ext.errors, []);
  const mine = ext.extensions.find((e) => e.path === path.join(PKG, "index.js"));
  assert.ok(mine, "the installed package's extension is loaded from settings");
  assert.ok(mine.tools.has("read") && mine.tools.has("readcache_refresh"));
  assert.ok(mine.commands.has("readcache-status") && mine.commands.has("readcache-refresh"));
  const read = mine.tools.get("read").definition;
  const ctx = { cwd, sessionManager: SessionManager.inMemory(cwd), ui: { notify() {} } };
  // as pi runs it: the model's call is in the session before the tool runs
  // (a call no message issued is a program's, and gets pi's own read)
  const id = appendToolCall(ctx.sessionManager, "read", { path: "hello.txt" });
  const r = await read.execute(id, { path: "hello.txt" }, undefined, undefined, ctx);
  assert.equal(r.content[0].text, "hello\n");
  assert.equal(r.details.readcache.mode, "full");

  pi("remove", "./bindings/pi-fscache");
  assert.doesNotMatch(pi("--help"), /--no-fscache-read/, "removed");
});
