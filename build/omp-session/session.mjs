// build/omp-session/session.mjs - a scripted oh-my-pi session through omp's own
// tools, recording everything the model receives.
//
//   bun session.mjs OUT.json WORKDIR
//
// Run by Bun from a project where `@oh-my-pi/pi-coding-agent` is installed
// (build/omp-session/run.sh copies it there), once with the real
// `@oh-my-pi/pi-natives` and once with the overlay installed under that name;
// build/omp-session/compare.mjs compares the two recordings.
//
// For each mtime spacing (1 s, 1 ms, 100 µs) it makes a tree under
// WORKDIR/<spacing> (run.sh gives both sides the same WORKDIR) whose files
// and directories have distinct mtimes that far apart, in an order unrelated
// to their paths (so a sort by mtime and a sort by path give different
// answers, and a tie shows): 70 paths, among them 30 files in one directory
// (limits, the tree's per-directory cap, grep's 20-file pages), hidden and
// gitignored ones, AGENTS.md files, node_modules, a directory 5 deep. Then it creates an omp session there with the SDK
// (`createAgentSession`): pi-ai's mock provider as the model
// (`createMockModel`, as omp's own tests do), tools `find` (omp's legacy
// name, canonicalized to its `glob` tool), `grep`, `read` and `write`,
// setting `includeWorkspaceTree` on (omp's `listWorkspace` tree in the
// system prompt). The model is a script, SCRIPT below, one tool call per turn:
// every option of omp's glob and grep tools that reaches pi-natives
// (patterns, paths and path lists, limits, hidden, gitignore, case, skip,
// line ranges, multiline, and the grep.contextBefore/After settings), a
// `read` of directories (listWorkspace again), and a `write` followed by a
// glob and a grep (omp invalidates pi-natives' scan cache after a write).
//
// Recorded, per spacing: the system prompt (workspace tree extracted too)
// and each tool result as the provider receives it (its role, tool name,
// isError and content: what a real provider would serialize), with WORKDIR
// and today's date replaced by placeholders. It fails when a call goes
// unanswered or the prompt has no workspace tree.
import fs from "node:fs";
import path from "node:path";
import { createMockModel } from "@oh-my-pi/pi-ai/providers/mock";
import { AuthStorage, createAgentSession, SessionManager, Settings } from "@oh-my-pi/pi-coding-agent";

const [out, workdir] = process.argv.slice(2);
if (!out || !workdir) {
	console.error("usage: bun session.mjs OUT.json WORKDIR");
	process.exit(2);
}

/** The spacings between consecutive mtimes, in nanoseconds. */
const SPACINGS = [
	["1s", 1_000_000_000n],
	["1ms", 1_000_000n],
	["100us", 100_000n],
];
/** 2026-01-01T00:00:00Z: old enough that the read tool's relative ages ("11mo ago") hold all day. */
const BASE_NS = 1_767_225_600_000_000_000n;

// ------------------------------------------------------------------- the tree

const lines = (n, f) => Array.from({ length: n }, (_, i) => f(i)).join("\n") + "\n";

/** Relative path -> content. Directories are implied. */
function treeFiles() {
	const files = {
		".gitignore": "ignored/\n*.log\n",
		".env": "TOKEN=x # TODO rotate\n",
		".hidden/secret.txt": "TODO hidden\nneedle\n",
		"AGENTS.md": "# Rules\nTODO: keep tests green\n",
		"README.md": "Project TODO list\nalpha\nbeta\n",
		"debug.log": "TODO in a log (gitignored)\n",
		"ignored/skip.txt": "TODO ignored\nneedle\n",
		"node_modules/dep/index.js": "// TODO in node_modules\n",
		"src/AGENTS.md": "# src rules\n",
		"src/a.ts": lines(12, (i) => (i % 4 === 1 ? `// TODO item ${i}` : `const a${i} = ${i};`)),
		"src/b.ts": "export function b() {\n\t// todo: lower case\n\treturn 1;\n}\n",
		"src/c.ts": "fn main() {}\nfn helper(x) {}\n// Todo mixed\n",
		"src/Straße.ts": "// STRASSE und Straße und straße\n",
		"src/lib/util.ts": "// TODO util\nexport const u = 1;\n",
		"src/lib/deep/deeper/deepest/x.ts": "// TODO deep\n",
		"src/lib/deep/y.ts": "alpha\nbeta\ngamma\n",
		"tests/a.test.ts": "// TODO test a\nalpha\n",
		"tests/b.test.ts": "needle in tests\n",
		"pkg/tests/c.test.ts": "// TODO pkg test\n",
		"pkg/index.md": "TODO pkg docs\n",
		"docs/read me.md": "TODO with a space in the name\n",
		"docs/guide.txt": lines(8, (i) => `guide line ${i}${i === 4 ? " TODO" : ""}`),
		"hot.txt": lines(30, (i) => `hit ${i}`),
		"long.txt": `LONGLINE ${"x".repeat(600)} end\nshort LONGLINE\n`,
		"crlf.txt": "TODO crlf one\r\nsecond\r\nTODO crlf three\r\n",
		"bin.dat": "TODO\0binary\0",
	};
	for (let i = 0; i < 30; i++) files[`many/f${String(i).padStart(2, "0")}.txt`] = `needle ${i}\n`;
	return files;
}

/** Every path of the tree (files and directories, not the root), in a fixed order unrelated to path order. */
function mtimeOrder(files) {
	const all = new Set();
	for (const f of Object.keys(files)) {
		const parts = f.split("/");
		for (let i = 1; i <= parts.length; i++) all.add(parts.slice(0, i).join("/"));
	}
	// A fixed permutation (a multiplicative hash of the sorted index) spreads
	// neighbours in path order far apart in time.
	const sorted = [...all].sort();
	return sorted.map((p, i) => [p, (i * 37 + 11) % 101]).sort((a, b) => a[1] - b[1]).map(([p]) => p);
}

/** Writes the tree under root with mtimes BASE + rank * step (newest: the last in mtimeOrder). */
function makeTree(root, step) {
	fs.rmSync(root, { recursive: true, force: true });
	const files = treeFiles();
	for (const [rel, content] of Object.entries(files)) {
		fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
		fs.writeFileSync(path.join(root, rel), content);
	}
	fs.mkdirSync(path.join(root, ".git"));
	fs.writeFileSync(path.join(root, ".git", "HEAD"), "ref: refs/heads/main\n");
	const order = mtimeOrder(files);
	// Deepest first, so setting a file's time never disturbs its directory's.
	const ranked = order.map((p, rank) => [p, rank]).sort((a, b) => b[0].split("/").length - a[0].split("/").length);
	for (const [rel, rank] of ranked) {
		const ns = BASE_NS + BigInt(rank) * step;
		// A Date sets whole milliseconds exactly; seconds as a double (the
		// sub-millisecond spacing) land within a quarter microsecond (its
		// precision at 2026), a far cry from 100 µs.
		const t = ns % 1_000_000n === 0n ? new Date(Number(ns / 1_000_000n)) : Number(ns) / 1e9;
		fs.utimesSync(path.join(root, rel), t, t);
	}
	return order;
}

// ----------------------------------------------------------------- the script

const call = (name, args, settings) => ({ name, args, settings });

/** One tool call per model turn; `settings` are applied just before the call. */
const SCRIPT = [
	// glob: patterns, paths, limits, hidden, gitignore (always sorted by mtime, newest first)
	call("glob", { path: "**/*.ts" }),
	call("glob", { path: "*.txt" }),
	call("glob", { path: "many/*.txt", limit: 5 }),
	call("glob", { path: "many/*.txt", limit: 1 }),
	call("glob", { path: "many" }),
	call("glob", { path: "src" }),
	call("glob", { path: "src/lib/**" }),
	call("glob", { path: "**/tests" }),
	call("glob", { path: "src/**/*.ts; tests/**/*.ts" }),
	call("glob", { path: "**/*.{md,txt}" }),
	call("glob", { path: "**/f2?.txt" }),
	call("glob", { path: "many/f[0-1]*.txt", limit: 7 }),
	call("glob", { path: "**/*.TS" }),
	call("glob", { path: "." }),
	call("glob", { path: ".", hidden: false }),
	call("glob", { path: ".", gitignore: false }),
	call("glob", { path: "**/*.txt", hidden: false, gitignore: false, limit: 40 }),
	call("glob", { path: "nothing/**" }),
	// grep: patterns, case, paths, lists, globs, line ranges, limits, skip, context
	call("grep", { pattern: "TODO" }),
	call("grep", { pattern: "todo", case: false }),
	call("grep", { pattern: "todo", case: true }),
	call("grep", { pattern: "TODO", path: "src" }),
	call("grep", { pattern: "TODO", path: "src/**/*.ts" }),
	call("grep", { pattern: "TODO", path: "src; tests" }),
	call("grep", { pattern: "TODO", path: "src/a.ts" }),
	call("grep", { pattern: "TODO", path: "src/a.ts:4-9" }),
	call("grep", { pattern: "needle", path: "many" }),
	call("grep", { pattern: "needle", path: "many", skip: 20 }),
	call("grep", { pattern: "needle" }),
	call("grep", { pattern: "hit" }),
	call("grep", { pattern: "hit", path: "hot.txt" }),
	call("grep", { pattern: "TODO", gitignore: false }),
	call("grep", { pattern: "^fn \\w+\\(" }),
	call("grep", { pattern: "alpha\\nbeta" }),
	call("grep", { pattern: "straße", case: false }),
	call("grep", { pattern: "LONGLINE" }),
	call("grep", { pattern: "crlf" }),
	call("grep", { pattern: "zzz_no_match" }),
	call("grep", { pattern: "([unclosed" }),
	call("grep", { pattern: "TODO", path: "src" }, { "grep.contextBefore": 0, "grep.contextAfter": 0 }),
	call("grep", { pattern: "guide line 4", path: "docs" }, { "grep.contextBefore": 2, "grep.contextAfter": 5 }),
	call("grep", { pattern: "TODO", path: "src/a.ts" }, { "grep.contextBefore": 3, "grep.contextAfter": 1 }),
	// read of a directory: omp lists it with listWorkspace
	call("read", { path: "." }, { "grep.contextBefore": 1, "grep.contextAfter": 3 }),
	call("read", { path: "src" }),
	// a write, then the scans again: omp invalidates the scan cache after it
	call("write", { path: "src/new.ts", content: "// TODO new file\n" }),
	call("glob", { path: "**/*.ts", limit: 3 }),
	call("grep", { pattern: "TODO new" }),
];

// ---------------------------------------------------------------- the session

const today = new Date().toISOString().slice(0, 10);
const normalize = (s) => s.split(workdir).join("<workdir>").split(today).join("<today>");
const promptText = (sp) => normalize(Array.isArray(sp) ? sp.join("\n") : String(sp ?? ""));

/** What a provider is given of a message: the tool result's role, name, error flag and content. */
function providerView(msg) {
	if (!msg) return null;
	const content = typeof msg.content === "string" ? msg.content : (msg.content ?? []).map((c) => (c.type === "text" ? normalize(c.text) : c));
	return { role: msg.role, toolName: msg.toolName, isError: msg.isError, content };
}

async function runSpacing(label, step) {
	const root = path.join(workdir, label);
	const order = makeTree(root, step);
	const agentDir = path.join(workdir, `agent-${label}`);
	fs.rmSync(agentDir, { recursive: true, force: true });
	fs.mkdirSync(agentDir, { recursive: true });
	const settings = Settings.isolated({ includeWorkspaceTree: true });
	const results = [];
	let systemPrompt;
	let turn = 0;
	const mock = createMockModel({
		handler: (context) => {
			if (turn === 0) systemPrompt = promptText(context.systemPrompt);
			else results.push({ call: SCRIPT[turn - 1], result: providerView(context.messages.at(-1)) });
			const next = SCRIPT[turn++];
			if (!next) return { content: ["done"] };
			for (const [k, v] of Object.entries(next.settings ?? {})) settings.override(k, v);
			return { content: [{ type: "toolCall", name: next.name, arguments: next.args }] };
		},
	});
	const authStorage = await AuthStorage.create(path.join(agentDir, "auth.db"));
	authStorage.setRuntimeApiKey("mock", "mock");
	process.chdir(root);
	const { session } = await createAgentSession({
		cwd: root,
		agentDir,
		model: mock.model,
		authStorage,
		settings,
		sessionManager: SessionManager.inMemory(root),
		toolNames: ["find", "grep", "read", "write"],
		restrictToolNames: true,
		enableMCP: false,
		enableLsp: false,
		disableExtensionDiscovery: true,
		skills: [],
		rules: [],
		contextFiles: [],
		promptTemplates: [],
		slashCommands: [],
	});
	session.agent.streamFn = mock.stream;
	const t0 = performance.now();
	await session.prompt("Explore this repository with your tools.");
	const ms = Math.round(performance.now() - t0);
	await session.dispose();
	authStorage.close?.();
	process.chdir(workdir);
	if (results.length !== SCRIPT.length) throw new Error(`${label}: ${results.length} of ${SCRIPT.length} calls answered`);
	const tree = systemPrompt.match(/<workspace-tree>[\s\S]*?<\/workspace-tree>/)?.[0];
	if (!tree) throw new Error(`${label}: no <workspace-tree> in the system prompt`);
	console.error(`omp-session: ${label}: ${results.length} calls, ${order.length} paths, ${ms} ms`);
	return { label, stepNs: String(step), workspaceTree: tree, systemPrompt, results };
}

const natives = await import("@oh-my-pi/pi-natives");
const side = typeof natives.cacheStats === "function" ? "overlay" : "real";
const record = { side, bun: Bun.version, spacings: [] };
for (const [label, step] of SPACINGS) record.spacings.push(await runSpacing(label, step));
fs.writeFileSync(out, JSON.stringify(record, null, 1) + "\n");
console.error(`omp-session: ${side} pi-natives, Bun ${Bun.version}: wrote ${out}`);
process.exit(0);
