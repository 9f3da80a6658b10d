// pi-fscache's find, grep and ls end to end (issue 36):
//   (a) what pi's edit and write tools change, and a file deleted, is seen
//       by the very next find and grep through the overrides, with the
//       built-in tools' text (fd and rg from the distribution on PATH);
//   (b) a real pi agent session: the package installed by the pinned CLI
//       (`pi install <dir>`, in a temporary HOME and agent dir), loaded by
//       pi's SDK (DefaultResourceLoader reading the settings the install
//       wrote), pi-ai's faux provider scripting the model to call find, grep
//       and ls, then edit and write, then find and grep again. fd and rg are
//       taken off PATH while the session runs, so pi's built-ins cannot
//       answer (shown: the built-in find fails then); the results are then
//       compared with the built-ins' with fd and rg back on PATH;
//   (c) the flags --no-fscache-tools/-find/-grep/-ls hand a call back to
//       pi's built-in tool.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { run, setupBuiltinTools } from "./tools-harness.mjs";

const env = setupBuiltinTools();
const { pi, piAi, createFauxSession, piCommand } = await import("./pi-line.mjs");
const { fauxAssistantMessage, fauxText, fauxToolCall } = piAi;
const { createFindOverride } = await import("../src/tools/find.js");
const { createGrepOverride } = await import("../src/tools/grep.js");
const { createLsOverride } = await import("../src/tools/ls.js");
const { default: registerTools, FLAGS } = await import("../src/tools/index.js");

const PKG = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const withTools = process.env.PATH;
const noTools = path.join(env.dir, "empty-bin");
fs.mkdirSync(noTools);

after(() => fs.rmSync(env.dir, { recursive: true, force: true }));

function write(root, rel, content) {
  const p = path.join(root, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const sortedLines = (s) => s.split("\n").sort();

// the built-in's answer with fd and rg on PATH, the override's, compared:
// same text (find: fd sorts; grep: rg's file order varies, so as sets of
// lines), same details
async function same(kind, params, cwd, ours) {
  const builtin = { find: pi.createFindToolDefinition, grep: pi.createGrepToolDefinition, ls: pi.createLsToolDefinition }[kind](cwd);
  const saved = process.env.PATH;
  process.env.PATH = withTools;
  let b;
  try {
    b = await run(builtin, params, cwd);
  } finally {
    process.env.PATH = saved;
  }
  const o = ours ?? (await run({ find: createFindOverride, grep: createGrepOverride, ls: createLsOverride }[kind](cwd), params, cwd));
  const label = `${kind} ${JSON.stringify(params)}`;
  assert.equal(b.error, undefined, `${label}: the built-in failed: ${b.error}`);
  assert.equal(o.error, undefined, `${label}: ours failed: ${o.error}`);
  if (kind === "grep") assert.deepEqual(sortedLines(o.text), sortedLines(b.text), `${label}: lines`);
  else assert.equal(o.text, b.text, `${label}: text`);
  assert.deepEqual(o.details, b.details, `${label}: details`);
  return o.text;
}

test("(a) pi's edit and write, and a deletion, are seen by the next find and grep", async () => {
  const repo = path.join(env.dir, "edits");
  const cwd = path.join(repo, "work");
  fs.mkdirSync(path.join(repo, ".git"), { recursive: true });
  write(cwd, "src/app.ts", "export const needle = 1;\nexport const other = 2;\n");
  write(cwd, "src/util.go", "package util\n\n// needle in go\nfunc F() {}\n");
  write(cwd, "README.md", "# readme\nneedle with trailing spaces   \n");
  write(cwd, "old.txt", "needle to be deleted\n");
  const edit = pi.createEditToolDefinition(cwd);
  const writeTool = pi.createWriteToolDefinition(cwd);
  const ctx = { cwd };
  // Files settle for 2 s, so that an edit of the same size is one that
  // only a read of the file (not its size or a racy mtime) can tell.
  await sleep(2100);
  process.chdir(cwd);

  let t;
  for (let i = 0; i < 3; i++) {
    // the first call of a root walks, the second starts watching it, the third is served by the watched scan
    t = await same("grep", { pattern: "needle" }, cwd);
    await same("find", { pattern: "*.ts" }, cwd);
  }
  assert.match(t, /^README\.md:2: needle with trailing spaces {3}$/m, "rg's line as it is: trailing white space kept");

  // an edit of the same size
  await edit.execute("e1", { path: "src/app.ts", edits: [{ oldText: "needle = 1", newText: "needle = 7" }] }, undefined, undefined, ctx);
  t = await same("grep", { pattern: "needle" }, cwd);
  assert.match(t, /^src\/app\.ts:1: export const needle = 7;$/m);
  assert.doesNotMatch(t, /needle = 1/);
  t = await same("grep", { pattern: "needle = 7", path: "src/app.ts" }, cwd);
  assert.equal(t, "app.ts:1: export const needle = 7;");

  // an edit that moves the line and adds trailing white space
  await edit.execute("e2", { path: "src/util.go", edits: [{ oldText: "// needle in go\n", newText: "\n\n// needle moved\t \n" }] }, undefined, undefined, ctx);
  t = await same("grep", { pattern: "needle" }, cwd);
  assert.match(t, /^src\/util\.go:5: \/\/ needle moved\t $/m);
  t = await same("grep", { pattern: "needle", context: 1 }, cwd);
  assert.match(t, /^src\/util\.go-4- $/m);

  // a file written by pi's write tool: found and searched at once
  await writeTool.execute("w1", { path: "src/new/fresh.ts", content: "export const needle = 'fresh';\n" }, undefined, undefined, ctx);
  t = await same("find", { pattern: "*.ts" }, cwd);
  assert.equal(t, "src/app.ts\nsrc/new/fresh.ts");
  t = await same("grep", { pattern: "needle" }, cwd);
  assert.match(t, /^src\/new\/fresh\.ts:1: export const needle = 'fresh';$/m);
  t = await same("grep", { pattern: "fresh", glob: "*.ts" }, cwd);
  assert.equal(t, "src/new/fresh.ts:1: export const needle = 'fresh';");

  // a file deleted: gone from both
  t = await same("find", { pattern: "*.txt" }, cwd);
  assert.equal(t, "old.txt");
  fs.rmSync(path.join(cwd, "old.txt"));
  t = await same("find", { pattern: "*.txt" }, cwd);
  assert.equal(t, "No files found matching pattern");
  t = await same("grep", { pattern: "deleted" }, cwd);
  assert.equal(t, "No matches found");

  // a file replaced by one of the same size and content but another line
  // order, written by pi's write tool right after a grep read it
  t = await same("grep", { pattern: "other" }, cwd);
  await writeTool.execute("w2", { path: "src/app.ts", content: "export const other = 2;\nexport const needle = 7;\n" }, undefined, undefined, ctx);
  t = await same("grep", { pattern: "other" }, cwd);
  assert.equal(t, "src/app.ts:1: export const other = 2;");
});

test("(b) a pi session with the package installed by `pi install` answers find, grep and ls through fscache", async (t) => {
  const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pi-fscache-tools-home-")));
  t.after(() => fs.rmSync(home, { recursive: true, force: true }));
  const agentDir = path.join(home, ".pi", "agent");
  const childEnv = { ...process.env, PATH: withTools, HOME: home, PI_CODING_AGENT_DIR: agentDir };
  for (const k of ["PI_FSCACHE_TOOLS", "PI_FSCACHE_FIND", "PI_FSCACHE_GREP", "PI_FSCACHE_LS"]) delete childEnv[k];
  const cli = (...args) => {
    const [exe, ...piArgs] = piCommand(...args);
    const r = spawnSync(exe, piArgs, { cwd: home, env: childEnv, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120000 });
    assert.equal(r.status, 0, `pi ${args.join(" ")}: exit ${r.status}\n${r.stdout}${r.stderr}`);
    return r.stdout + r.stderr;
  };
  cli("install", PKG);
  const settings = JSON.parse(fs.readFileSync(path.join(agentDir, "settings.json"), "utf8"));
  assert.equal(settings.packages.length, 1);
  assert.equal(path.resolve(agentDir, settings.packages[0]), PKG, "the settings name this directory");
  const help = cli("--help");
  for (const flag of Object.values(FLAGS)) assert.match(help, new RegExp(`--${flag}\\b`), `pi --help lists --${flag}`);

  const cwd = path.join(home, "work");
  write(cwd, "src/app.ts", "export const needle = 1;\n");
  write(cwd, "src/lib/util.ts", "// needle in util\nexport {};\n");
  write(cwd, "src/main.go", "package main\n\n// needle in go  \nfunc main() {}\n");
  write(cwd, "README.md", "# needle\n");

  const settingsManager = pi.SettingsManager.create(cwd, agentDir);
  const resourceLoader = new pi.DefaultResourceLoader({ cwd, agentDir, settingsManager });
  await resourceLoader.reload();
  const loaded = resourceLoader.getExtensions();
  assert.deepEqual(loaded.errors, []);
  const mine = loaded.extensions.find((e) => e.path === path.join(PKG, "index.js"));
  assert.ok(mine, "the installed package's extension is loaded from the settings pi install wrote");
  for (const name of ["find", "grep", "ls"]) assert.ok(mine.tools.has(name), `the package registers ${name}`);

  const script = [];
  const sessionManager = pi.SessionManager.inMemory(cwd);
  const { session, faux } = await createFauxSession(t, {
    provider: "faux-tools",
    models: [{ id: "scripted", contextWindow: 200000, maxTokens: 4096 }],
    cwd,
    agentDir,
    settingsManager,
    resourceLoader,
    sessionManager,
    tools: ["read", "bash", "edit", "write", "find", "grep", "ls"],
  });
  faux.setResponses(
    Array.from({ length: 50 }, () => () => {
      const step = script.shift();
      assert.ok(step, "the model was called more often than scripted");
      return step;
    }),
  );
  const call = (name, args) => fauxAssistantMessage(fauxToolCall(name, args), { stopReason: "toolUse" });
  assert.equal(session.getToolDefinition("find").execute.name, "fscacheFind");
  assert.equal(session.getToolDefinition("grep").execute.name, "fscacheGrep");
  assert.equal(session.getToolDefinition("ls").execute.name, "fscacheLs");

  const results = (name) =>
    sessionManager
      .getBranch()
      .filter((e) => e.type === "message" && e.message.role === "toolResult" && e.message.toolName === name)
      .map((e) => ({ text: e.message.content.map((c) => c.text ?? "").join(""), details: e.message.details, isError: e.message.isError }));
  const last = (name) => {
    const r = results(name).at(-1);
    assert.ok(r, `a ${name} result`);
    assert.equal(r.isError, false, `${name}: ${r.text}`);
    return r;
  };

  // fd and rg off PATH while the session runs: pi's built-ins cannot answer
  process.env.PATH = noTools;
  try {
    const b = await run(pi.createFindToolDefinition(cwd), { pattern: "*.ts" }, cwd);
    assert.ok(b.error, "pi's built-in find fails without fd");
    const g = await run(pi.createGrepToolDefinition(cwd), { pattern: "needle" }, cwd);
    assert.ok(g.error, "pi's built-in grep fails without rg");

    script.push(
      call("find", { pattern: "*.ts" }),
      call("grep", { pattern: "needle" }),
      call("ls", { path: "src" }),
      call("grep", { pattern: "needle", glob: "*.go", context: 1 }),
      fauxAssistantMessage(fauxText("found them")),
    );
    await session.prompt("find the TypeScript files, grep for needle, list src");
  } finally {
    process.env.PATH = withTools;
  }
  const find1 = last("find");
  assert.equal(find1.text, "src/app.ts\nsrc/lib/util.ts");
  await same("find", { pattern: "*.ts" }, cwd, find1);
  const [grep1, grepGo] = results("grep");
  assert.equal(grep1.isError, false, grep1.text);
  await same("grep", { pattern: "needle" }, cwd, grep1);
  assert.equal(grepGo.text, "src/main.go-2- \nsrc/main.go:3: // needle in go  \nsrc/main.go-4- func main() {}");
  await same("grep", { pattern: "needle", glob: "*.go", context: 1 }, cwd, grepGo);
  const ls1 = last("ls");
  assert.equal(ls1.text, "app.ts\nlib/\nmain.go");
  await same("ls", { path: "src" }, cwd, ls1);

  // pi's edit and write in the session, then find and grep again
  process.env.PATH = noTools;
  try {
    script.push(
      call("edit", { path: "src/app.ts", edits: [{ oldText: "needle = 1", newText: "needle = 2" }] }),
      call("write", { path: "src/lib/added.ts", content: "export const needle = 'added';\n" }),
      call("find", { pattern: "*.ts" }),
      call("grep", { pattern: "needle" }),
      fauxAssistantMessage(fauxText("edited")),
    );
    await session.prompt("change the needle, add a file, look again");
  } finally {
    process.env.PATH = withTools;
  }
  assert.match(fs.readFileSync(path.join(cwd, "src/app.ts"), "utf8"), /needle = 2/);
  const find2 = last("find");
  assert.equal(find2.text, "src/app.ts\nsrc/lib/added.ts\nsrc/lib/util.ts");
  await same("find", { pattern: "*.ts" }, cwd, find2);
  const grep2 = last("grep");
  assert.match(grep2.text, /^src\/app\.ts:1: export const needle = 2;$/m);
  assert.match(grep2.text, /^src\/lib\/added\.ts:1: export const needle = 'added';$/m);
  assert.doesNotMatch(grep2.text, /needle = 1/);
  await same("grep", { pattern: "needle" }, cwd, grep2);

  cli("remove", PKG);
  assert.doesNotMatch(cli("--help"), /--no-fscache-find/, "removed");
});

test("(c) --no-fscache-tools, --no-fscache-find and --no-fscache-grep hand the call to pi's built-in", async () => {
  const cwd = path.join(env.dir, "flags");
  write(cwd, "a.ts", "needle\n");
  const fake = { flags: new Map(), tools: new Map() };
  fake.registerFlag = (name, o) => fake.flags.set(name, o.default);
  fake.getFlag = (name) => fake.flags.get(name);
  fake.registerTool = (def) => fake.tools.set(def.name, def);
  fake.on = () => {};
  registerTools(fake, {});
  assert.deepEqual([...fake.flags.keys()].sort(), Object.values(FLAGS).sort());
  assert.ok(Object.values(FLAGS).every((f) => fake.flags.get(f) === false), "all off by default");
  const find = fake.tools.get("find");
  const grep = fake.tools.get("grep");
  const ls = fake.tools.get("ls");
  // without fd and rg, only the overrides can answer
  process.env.PATH = noTools;
  try {
    const answered = async () => ({
      find: (await run(find, { pattern: "*.ts" }, cwd)).error === undefined,
      grep: (await run(grep, { pattern: "needle" }, cwd)).error === undefined,
    });
    assert.deepEqual(await answered(), { find: true, grep: true });
    fake.flags.set(FLAGS.find, true);
    assert.deepEqual(await answered(), { find: false, grep: true }, "--no-fscache-find: pi's find (no fd here)");
    fake.flags.set(FLAGS.find, false);
    fake.flags.set(FLAGS.grep, true);
    assert.deepEqual(await answered(), { find: true, grep: false }, "--no-fscache-grep: pi's grep (no rg here)");
    fake.flags.set(FLAGS.grep, false);
    fake.flags.set(FLAGS.tools, true);
    assert.deepEqual(await answered(), { find: false, grep: false }, "--no-fscache-tools: both");
    fake.flags.set(FLAGS.tools, false);
  } finally {
    process.env.PATH = withTools;
  }
  fake.flags.set(FLAGS.ls, true);
  assert.equal((await run(ls, {}, cwd)).text, "a.ts");
  // the environment's switches: none registered, so no flag either
  const bare = { flags: new Map(), tools: new Map(), on() {} };
  bare.registerFlag = (name, o) => bare.flags.set(name, o.default);
  bare.registerTool = (def) => bare.tools.set(def.name, def);
  registerTools(bare, { PI_FSCACHE_TOOLS: "0" });
  assert.equal(bare.tools.size, 0);
  assert.equal(bare.flags.size, 0);
  registerTools(bare, { PI_FSCACHE_GREP: "off" });
  assert.deepEqual([...bare.tools.keys()].sort(), ["find", "ls"]);
  assert.ok(!bare.flags.has(FLAGS.grep));
});
