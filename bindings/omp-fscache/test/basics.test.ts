// The package in real omp 18.2.3 sessions, step by step (issue 49, "Done
// when"): installed by `omp plugin install` and found by omp's discovery; a
// reread is a marker with omp's TAG; a changed file a diff with the new TAG;
// the model's edit after each lands on the right line; supersede with omp's
// default settings (the package turns it off in the global settings) and
// with isolated SDK settings (it stays on: the context handler puts the text
// back); and a naive marker (no context handler) makes the oracle fail.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { startSession } from "./hosts/harness.ts";
import { Oracle } from "./oracle.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
let failures = 0;
function check(ok: boolean, what: string) {
  console.log(`${ok ? "ok" : "FAIL"} - ${what}`);
  if (!ok) failures++;
}

function lines(p: string) {
  const l = fs.readFileSync(p, "utf8").split("\n");
  if (l.at(-1) === "") l.pop();
  return l;
}

/** Runs script (one step per request; null: end the prompt) over prompts, judging every request. */
async function scripted(opts: { settings?: any; extensionPaths?: string[]; prompts: Array<Array<(ctx: any) => any>> }) {
  const cwd = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "omp-fscache-basic-")));
  const a = path.join(cwd, "a.txt");
  fs.writeFileSync(a, Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
  const code: string[] = [];
  for (let i = 0; code.length < 150; i++) code.push(`export function f${i}(x: number) {`, `  return x + ${i};`, "}");
  fs.writeFileSync(path.join(cwd, "code.ts"), code.join("\n") + "\n");
  const truth = new Map<string, string[]>();
  const oracle = new Oracle(cwd, truth);
  const violations: string[] = [];
  const results: any[] = [];
  let steps: Array<(ctx: any) => any> = [];
  let id = 0;
  const handler = (context: any) => {
    const names = (context.tools ?? []).map((t: any) => t.name);
    if (!names.includes("read")) return { content: ["summary"] };
    const r = oracle.check(context.messages);
    violations.push(...r.violations);
    const last = context.messages.at(-1);
    if (last?.role === "toolResult") results.push(last);
    const step = steps.shift();
    if (!step) return { content: ["done"] };
    const call = step({ cwd, a, copy: r.copy, tags: r.tags });
    const cid = `t${++id}`;
    if (call.name === "read") truth.set(cid, lines(path.join(cwd, call.arguments.path.split(":")[0])));
    return { content: [{ type: "toolCall", id: cid, ...call }] };
  };
  const s = await startSession({ cwd, handler, settings: opts.settings ?? "global", extensionPaths: opts.extensionPaths });
  for (const p of opts.prompts) {
    steps = p.slice();
    await s.session.prompt("go");
  }
  await s.session.dispose?.();
  fs.rmSync(cwd, { recursive: true, force: true });
  return { violations, results, texts: results.map((m) => m.content?.[0]?.text ?? "") };
}

const read = (p: string) => () => ({ name: "read", arguments: { path: p } });

// 1. reread, changed file, edits after a marker and after a diff.
{
  let tagBefore = "";
  let afterEditDisk: string[] = [];
  const r = await scripted({
    prompts: [
      [
        read("a.txt"),
        read("a.txt"),
        read("a.txt:5-9"),
        ({ tags, a }: any) => {
          tagBefore = tags.get(a);
          // the model edits line 3 from the marker's TAG
          return { name: "edit", arguments: { input: `*** Begin Patch\n[a.txt#${tags.get(a)}]\nPUT 3.=3:\n+edited three\n*** End Patch` } };
        },
        ({ a }: any) => {
          afterEditDisk = lines(a);
          return { name: "read", arguments: { path: "a.txt" } };
        },
        ({ a }: any) => {
          const l = lines(a);
          l.splice(0, 0, "a new first line");
          l[20] = "changed on disk";
          fs.writeFileSync(a, l.join("\n") + "\n");
          return { name: "read", arguments: { path: "a.txt" } };
        },
        ({ tags, a }: any) => ({ name: "edit", arguments: { input: `*** Begin Patch\n[a.txt#${tags.get(a)}]\nPUT 30.=30:\n+edited thirty\n*** End Patch` } }),
        read("a.txt:28-32"),
      ],
    ],
  });
  const [full, marker, range, edit1, afterEdit, diff, edit2, last] = r.texts;
  check(full.startsWith("[a.txt#") && full.includes("\n1:line 1\n"), "the first read is omp's own");
  check(/^\[a\.txt#[0-9A-F]{4}\]\n\[fscache: unchanged: all 200 lines/.test(marker) && marker.split("\n")[0] === full.split("\n")[0], "a reread is a marker with omp's [path#TAG]");
  check(/\[fscache: unchanged: rows 4-\d+/.test(range) && range.includes("[Showing lines"), "a range of held lines is a marker keeping omp's notice");
  check(!/error/i.test(edit1.slice(0, 40)), `the edit from the marker's TAG succeeds: ${edit1.slice(0, 120)}`);
  check(afterEditDisk[2] === "edited three" && afterEditDisk[1] === "line 2" && afterEditDisk[3] === "line 4", "the edit landed on line 3");
  check(/\[fscache: changed since you read lines 1-200; the file now has 200 lines/.test(afterEdit) && afterEdit.includes("+3:edited three") && afterEdit.includes("\n-line 3\n"), `the reread after the edit is a diff: ${afterEdit.slice(0, 160)}`);
  check(/^\[a\.txt#[0-9A-F]{4}\]\n\[fscache: changed since you read lines 1-200; the file now has 201 lines/.test(diff) && diff.split("\n")[0] !== afterEdit.split("\n")[0], `a changed file is a diff with the new TAG: ${diff.slice(0, 200)}`);
  check(diff.includes("+1:a new first line") && diff.includes("+21:changed on disk"), "the diff numbers its rows by their new line");
  check(last.includes("30:edited thirty") && last.includes("29:line 28"), `the edit from the diff's TAG landed on new line 30: ${last.slice(0, 200)}`);
  check(r.violations.length === 0, `the oracle finds nothing: ${r.violations.join("; ")}`);
  void tagBefore;
}

// 2. supersede: omp's default settings (global) and isolated settings.
for (const [label, settings] of [
  ["default settings", "global"],
  ["isolated settings, supersede on", {}],
] as const) {
  const r = await scripted({
    settings,
    prompts: [[read("a.txt")], [read("a.txt")], [read("a.txt:1-3")], [read("a.txt")]],
  });
  check(r.violations.length === 0, `${label}: read, reread, reread: no marker ever stands alone (${r.violations.join("; ")})`);
  check(r.texts.some((t) => t.includes("[fscache: unchanged")), `${label}: a marker was served`);
}

// 2b. code: omp's structural summary and a range with its enclosing block.
{
  const r = await scripted({
    prompts: [
      [
        read("code.ts"),
        read("code.ts"),
        read("code.ts:10-12"),
        read("code.ts:10-12"),
        ({ cwd }: any) => {
          // a line the range's output elides (line 8, inside f2's body)
          const f = path.join(cwd, "code.ts");
          const l = lines(f);
          l[7] = "  return x + 200;";
          fs.writeFileSync(f, l.join("\n") + "\n");
          return { name: "read", arguments: { path: "code.ts:10-12" } };
        },
        ({ cwd }: any) => {
          const f = path.join(cwd, "code.ts");
          const l = lines(f);
          l[10] = "  return x * 3;";
          fs.writeFileSync(f, l.join("\n") + "\n");
          return { name: "read", arguments: { path: "code.ts:10-12" } };
        },
        read("code.ts"),
      ],
    ],
  });
  const [summary, again, range, rangeAgain, hiddenChange, changed, summaryAfter] = r.texts;
  check(/^\[code\.ts#[0-9A-F]{4}\]\n/.test(summary) && !summary.includes("[fscache:"), "a code file's first read is omp's own (its summary)");
  check(/\n\[fscache: unchanged: /.test(again) && again.split("\n")[0] === summary.split("\n")[0], `a reread of the code file is a marker with omp's TAG: ${again.slice(0, 160)}`);
  check(range.includes("…") && !range.includes("[fscache:"), "a code range (with its enclosing block) is omp's own");
  check(/\[fscache: unchanged: the same output as your last read of :10-12/.test(rangeAgain), `the same range again is a marker: ${rangeAgain.slice(0, 160)}`);
  check(range.includes("…") && !range.includes("return x + 2;") && !hiddenChange.includes("[fscache:") && hiddenChange.split("\n")[0] !== range.split("\n")[0], `after a change to a line the range elides, omp's own output with the new TAG (the same rows, another file): ${hiddenChange.slice(0, 80)}`);
  check(!changed.includes("[fscache:") && changed.includes("return x * 3"), "after a change inside the range, omp's own output");
  check(summaryAfter.split("\n")[0] === changed.split("\n")[0] && changed.split("\n")[0] !== summary.split("\n")[0], `after a change, the whole read carries the new TAG (a marker only if the model holds every line: the range read taught the changed one): ${summaryAfter.slice(0, 120)}`);
  check(r.violations.length === 0, `code: the oracle finds nothing (${r.violations.join("; ")})`);
}

// 3. a naive marker (no context handler) under supersede: the oracle fails.
{
  const r = await scripted({
    settings: {},
    extensionPaths: [path.join(here, "fixtures/naive.js")],
    prompts: [[read("a.txt")], [read("a.txt")], [read("a.txt:1-3")]],
  });
  check(r.violations.length > 0 && r.violations.some((v) => /not in the model's copy/.test(v)), `a naive marker under supersede makes the oracle fail: ${r.violations[0] ?? "no violation"}`);
}

// 4. omp's text under a marker: in the session file, not in the copies
// omp's context event makes before each request (it clones every message);
// after a restart from the file, supersede takes the marker's base and the
// context handler puts omp's text back from the file's record.
{
  const cwd = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "omp-fscache-basic-")));
  const sessionDir = path.join(cwd, ".sessions");
  const a = path.join(cwd, "a.txt");
  fs.writeFileSync(a, Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
  const truth = new Map<string, string[]>();
  const oracle = new Oracle(cwd, truth);
  const violations: string[] = [];
  const seen: any[] = [];
  let steps: string[] = [];
  let id = 0;
  const handler = (context: any) => {
    violations.push(...oracle.check(context.messages).violations);
    seen.push(context.messages);
    const p = steps.shift();
    if (!p) return { content: ["done"] };
    const cid = `k${++id}`;
    truth.set(cid, lines(a));
    return { content: [{ type: "toolCall", id: cid, name: "read", arguments: { path: p } }] };
  };
  const s1 = await startSession({ cwd, handler, settings: {}, sessionDir });
  steps = ["a.txt", "a.txt"];
  await s1.session.prompt("go");
  const file = s1.sessionManager.getSessionFile();
  await s1.session.dispose?.();
  const afterMarker = seen.at(-1).find((m: any) => m.role === "toolResult" && m.toolCallId === "k2");
  const full = seen.at(-1).find((m: any) => m.role === "toolResult" && m.toolCallId === "k1")?.content?.[0]?.text ?? "";
  check(/\[fscache: unchanged: all 50 lines/.test(afterMarker?.content?.[0]?.text ?? ""), "the reread is a marker");
  check(afterMarker?.details?.fscache?.kind === "marker" && !("text" in afterMarker.details.fscache), "the context event's copy of the marker's message carries no copy of omp's text");
  const stored = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .find((e: any) => e.type === "message" && e.message?.toolCallId === "k2");
  check(typeof stored?.message?.details?.fscache?.text === "string" && stored.message.details.fscache.text === full, "the session file keeps omp's text under the marker");
  // A new process's view: the session from its file, supersede on (isolated
  // settings): after the first prompt the whole read the marker stands on
  // is superseded; the next request gets omp's text in the marker's place.
  const s2 = await startSession({ cwd, handler, settings: {}, sessionDir, sessionFile: file });
  steps = ["a.txt:1-3"];
  await s2.session.prompt("again");
  await s2.session.dispose?.();
  const resumed = seen.at(-1).find((m: any) => m.role === "toolResult" && m.toolCallId === "k2")?.content?.[0]?.text ?? "";
  check(resumed === full, `after the restart, the marker whose base was superseded is omp's text again: ${resumed.slice(0, 80)}`);
  check(violations.length === 0, `restart: the oracle finds nothing (${violations.join("; ")})`);
  fs.rmSync(cwd, { recursive: true, force: true });
}

console.log(failures === 0 ? "basics: all passed" : `basics: ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
