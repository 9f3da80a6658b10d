// build/omp-session/compare.mjs - compares two recordings of session.mjs
// (the real pi-natives against the overlay) and prints every difference.
//
//   node compare.mjs REAL.json OVERLAY.json
//
// Per mtime spacing: the workspace tree of the system prompt, the rest of
// the system prompt, and each tool result (by call: its tool, arguments and
// the first differing line of what the model received, with both sides'
// text). Prints one summary line per spacing ("1ms: 47 calls, 0 differ") and
// exits 1 when anything differs.
//
// A call listed in known-differences.json (its key: the tool's name, a
// space, its arguments as JSON, e.g. `grep {"pattern":"x"}`) may differ,
// when docs/compat.md quotes that key verbatim (a deliberate difference,
// documented, as conformance/known-differences.json's); it is still printed,
// as allowed, and counted apart.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const [realFile, overlayFile] = process.argv.slice(2);
if (!realFile || !overlayFile) {
	console.error("usage: node compare.mjs REAL.json OVERLAY.json");
	process.exit(2);
}
const real = JSON.parse(fs.readFileSync(realFile, "utf8"));
const overlay = JSON.parse(fs.readFileSync(overlayFile, "utf8"));
if (real.side !== "real" || overlay.side !== "overlay") {
	console.error(`compare: ${realFile} is the ${real.side} side and ${overlayFile} the ${overlay.side} side (want real, overlay)`);
	process.exit(2);
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const compat = fs.readFileSync(path.join(HERE, "..", "..", "docs", "compat.md"), "utf8");
const known = new Map();
for (const k of JSON.parse(fs.readFileSync(path.join(HERE, "known-differences.json"), "utf8"))) {
	if (!compat.includes(k.call)) {
		console.error(`compare: known-differences.json lists \`${k.call}\`, which docs/compat.md does not quote: document it or drop it`);
		process.exit(2);
	}
	known.set(k.call, k.reason);
}
const key = (c) => `${c.name} ${JSON.stringify(c.args)}`;

const text = (result) => (result ? [`[${result.role} ${result.toolName ?? ""}${result.isError ? " isError" : ""}]`, ...result.content.map((c) => (typeof c === "string" ? c : (c.text ?? JSON.stringify(c))))].join("\n") : "(no result)");

/** The first differing line of a and b, with a few lines of each side from there. */
function lineDiff(a, b) {
	const la = a.split("\n");
	const lb = b.split("\n");
	let i = 0;
	while (i < la.length && i < lb.length && la[i] === lb[i]) i++;
	const show = (l) => l.slice(i, i + 6).map((s) => `        ${s}`).join("\n") || "        (end)";
	return `    from line ${i + 1} (real ${la.length} lines, overlay ${lb.length}):\n      real:\n${show(la)}\n      overlay:\n${show(lb)}`;
}

let failed = false;
const summary = [];
for (const r of real.spacings) {
	const o = overlay.spacings.find((s) => s.label === r.label);
	if (!o) {
		console.log(`${r.label}: missing on the overlay side`);
		failed = true;
		continue;
	}
	const diffs = [];
	if (r.workspaceTree !== o.workspaceTree) diffs.push(`  workspace tree (system prompt):\n${lineDiff(r.workspaceTree, o.workspaceTree)}`);
	const rest = (s) => s.systemPrompt.replace(s.workspaceTree, "<workspace-tree/>");
	if (rest(r) !== rest(o)) diffs.push(`  system prompt (outside the tree):\n${lineDiff(rest(r), rest(o))}`);
	let callDiffs = 0;
	let allowedDiffs = 0;
	const allowed = [];
	const n = Math.max(r.results.length, o.results.length);
	for (let i = 0; i < n; i++) {
		const a = r.results[i];
		const b = o.results[i];
		if (JSON.stringify(a?.call) !== JSON.stringify(b?.call)) {
			diffs.push(`  call ${i + 1}: the scripts differ (${JSON.stringify(a?.call)} vs ${JSON.stringify(b?.call)})`);
			callDiffs++;
			continue;
		}
		const ta = text(a.result);
		const tb = text(b.result);
		if (ta === tb) continue;
		const shown = `  call ${i + 1}: ${key(a.call)}${a.call.settings ? ` settings ${JSON.stringify(a.call.settings)}` : ""}\n${lineDiff(ta, tb)}`;
		if (known.has(key(a.call))) {
			allowedDiffs++;
			allowed.push(`${shown}\n    allowed: ${known.get(key(a.call))}`);
			continue;
		}
		callDiffs++;
		diffs.push(shown);
	}
	const treeSame = r.workspaceTree === o.workspaceTree ? "tree identical" : "tree differs";
	summary.push(`mtimes ${r.label} apart: ${n} calls, ${callDiffs} differ${allowedDiffs ? ` (and ${allowedDiffs} known, allowed)` : ""}; ${treeSame}`);
	if (allowed.length > 0) console.log(`== ${r.label}: ${allowed.length} known difference(s), allowed\n${allowed.join("\n")}`);
	if (diffs.length > 0) {
		failed = true;
		console.log(`== ${r.label}: ${diffs.length} difference(s)\n${diffs.join("\n")}`);
	}
}
console.log(`omp session, real pi-natives (Bun ${real.bun}) against the overlay (Bun ${overlay.bun}):`);
for (const s of summary) console.log(`  ${s}`);
if (failed) {
	console.log("omp-session: the overlay's session differs from the real pi-natives'");
	process.exit(1);
}
console.log("omp-session: identical");
