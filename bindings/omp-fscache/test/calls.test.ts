// Reads the model did not issue one at a time (issue 49, Deliver 3): a
// program's call gets omp's own output, never a marker or diff; a subagent
// reads in its own session; and several calls in one assistant message (the
// same file twice, a held file and another, a read and an edit of one file
// in either order, a whole read and a range) get answers the model can check
// against what it receives. Real omp 18.2.3 sessions, the package installed
// by `omp plugin install`, every request judged by the oracle
// (test/oracle.mjs), and every read's own answer compared with what the
// model received (the context handler must have had nothing to repair).
//
// Every way omp 18.2.3 runs a read other than the model's own call (its
// source, pi-coding-agent/src):
//   - eval (JS) `tool.read({path})`: eval/js/tool-bridge.ts runs the
//     session's wrapped read (getToolForEvalBridge) with toolCallId
//     `js-read-<uuid>`: the package's tool_result handler sees it, and no
//     assistant message made that id (src/read.js modelIssued). Tested (1).
//   - eval (JS) `read(path)`: eval/js/shared/helpers.ts reads the file with
//     Bun.file: no read tool, no tool_result event, the file's raw text.
//     Tested (1): it bypasses the package entirely.
//   - eval (Python) `read()` / `tool.read()`: the same bridge through the
//     IPython kernel; not run here (no Python kernel in the test hosts).
//   - eval's speculative reads (eval/speculation/cell-session.ts) run the
//     wrapped read with toolCallId `<eval call id>:<op id>`: not an
//     assistant message's id either; not driven here.
//   - `ctx.invokeTool`: same-tool only (extensibility/extensions/runner.ts
//     createContext: present only when the registering tool's own name is a
//     native built-in). Another tool gets undefined: tested (1b) with
//     fixtures/peek.js. A tool re-registering `read` runs omp's native read
//     directly, with no tool_result event for that inner call (it bypasses
//     the package); the model's call to the wrapper is answered once, by
//     the outer tool_result: tested (1b') with fixtures/wrapread.js.
//   - a subagent (the task tool) is another session (task/executor.ts
//     createAgentSession) with its own branch, model and copy of the
//     package: tested (1c).

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

const textOf = (m: any) => (Array.isArray(m?.content) ? m.content.filter((c: any) => c?.type === "text").map((c: any) => c.text).join("\n") : "");

type Call = { name: string; arguments: any; truth?: () => string[] };
type Step = (ctx: any) => Call | Call[] | null;

let requests = 0;
let stepsRun = 0;

/**
 * Runs prompts of steps (one step per request: one call or several in one
 * assistant message), judging every request. A read's truth (the file when
 * it ran) is the file at the step unless the call says otherwise (a read
 * after an edit in the same message runs after it: edit is "exclusive").
 * Returns the results by call id and the violations.
 */
async function scripted(opts: { prompts: Step[][]; toolNames?: string[]; extraExtensionPaths?: string[]; settings?: any; sub?: Step[]; waitIdle?: boolean }) {
  const cwd = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "omp-fscache-calls-")));
  fs.writeFileSync(path.join(cwd, "a.txt"), Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
  fs.writeFileSync(path.join(cwd, "b.txt"), Array.from({ length: 120 }, (_, i) => `bee ${i + 1}`).join("\n") + "\n");
  const truth = new Map<string, string[]>();
  const oracle = new Oracle(cwd, truth);
  const violations: string[] = [];
  const byId = new Map<string, any>();
  const requestsSeen: any[][] = [];
  let steps: Step[] = [];
  let id = 0;
  // A subagent (the task tool) is another session with its own requests:
  // told apart by its `yield` tool, judged by an oracle of its own.
  const subOracle = new Oracle(cwd, truth);
  const subViolations: string[] = [];
  const sub = (opts.sub ?? []).slice();
  const handler = (context: any) => {
    const names = (context.tools ?? []).map((t: any) => t.name);
    if (!names.includes("read")) return { content: ["summary"] };
    requests++;
    const isSub = names.includes("yield");
    const r = (isSub ? subOracle : oracle).check(context.messages);
    (isSub ? subViolations : violations).push(...r.violations);
    if (!isSub) requestsSeen.push(context.messages);
    for (const m of context.messages) if (m.role === "toolResult") byId.set(m.toolCallId, m);
    const step = isSub ? sub.shift() : steps.shift();
    if (!step) return { content: ["done"] };
    stepsRun++;
    const made = step({ cwd, copy: r.copy, tags: r.tags, messages: context.messages });
    if (made === null) return { content: ["waiting"] }; // ends this turn; the steps left wait for the next
    const calls = Array.isArray(made) ? made : [made];
    const content = calls.map((call) => {
      const cid = `t${++id}`;
      if (call.name === "read") truth.set(cid, call.truth ? call.truth() : lines(path.join(cwd, call.arguments.path.split(":")[0])));
      return { type: "toolCall", id: cid, name: call.name, arguments: call.arguments };
    });
    return { content };
  };
  const s = await startSession({ cwd, handler, settings: opts.settings ?? "global", toolNames: opts.toolNames, extraExtensionPaths: opts.extraExtensionPaths });
  if (opts.sub) {
    // The subagent resolves its model through the registry: the mock
    // model's name there, streaming to the same scripted handler.
    s.session.modelRegistry.registerProvider("mock", {
      api: "mock-registry",
      baseUrl: "mock://",
      apiKey: "mock-key",
      streamSimple: (_m: any, c: any, o: any) => s.mock.stream(s.mock.model, c, o),
      models: [{ id: s.mock.model.id, name: s.mock.model.id, reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 200000, maxTokens: 32768 }],
    });
  }
  for (const p of opts.prompts) {
    steps = p.slice();
    await s.session.prompt("go");
  }
  // Steps left after the prompts: the turns a background job's result
  // starts (a subagent's), up to 120 s.
  if (opts.waitIdle) {
    for (let i = 0; i < 2400 && (steps.length > 0 || sub.length > 0 || s.session.isStreaming); i++) await Bun.sleep(50);
    await Bun.sleep(200);
    while (s.session.isStreaming) await Bun.sleep(50);
  }
  // What each read's tool_result answer stored on the branch, against what
  // the model received: a difference is the context handler putting omp's
  // text back (a marker or diff whose base the request lacks).
  const stored = new Map<string, string>();
  for (const e of s.sessionManager.getBranch()) if (e?.type === "message" && e.message?.role === "toolResult" && e.message.toolName === "read") stored.set(e.message.toolCallId, textOf(e.message));
  // A subagent's reads: what test/fixtures/stored.js saw them store.
  const seenStored: Map<string, string> = (globalThis as any).__ompFscacheStored ?? new Map();
  const subRepaired = opts.sub ? [...byId.keys()].filter((cid) => !stored.has(cid) && seenStored.has(cid) && textOf(byId.get(cid)) !== seenStored.get(cid)) : [];
  const subStored = opts.sub ? [...byId.keys()].filter((cid) => !stored.has(cid) && seenStored.has(cid)) : [];
  const repaired = [...stored].filter(([cid, text]) => byId.has(cid) && textOf(byId.get(cid)) !== text).map(([cid]) => cid);
  await s.session.dispose?.();
  fs.rmSync(cwd, { recursive: true, force: true });
  return { violations, subViolations, byId, repaired, subRepaired, subStored, stored, requests: requestsSeen, text: (cid: string) => textOf(byId.get(cid)) };
}

const read = (p: string, truth?: () => string[]): Call => ({ name: "read", arguments: { path: p }, ...(truth ? { truth } : {}) });
const evalJs = (code: string): Call => ({ name: "eval", arguments: { language: "js", code } });
const MARK = "[fscache:";

// 1. A program's call: eval's JS kernel runs `tool.read` on a file the model
// holds (a whole read, a range, after an on-disk change), between the
// model's own reads. The program gets omp's own text every time; the
// model's own reread after it is still a marker (the program's read taught
// the model nothing and took nothing away).
{
  let changed: string[] = [];
  const r = await scripted({
    toolNames: ["read", "edit", "eval"],
    prompts: [
      [
        () => read("a.txt"), // t1
        () => evalJs('const t = await tool.read({ path: "a.txt" }); return typeof t === "string" ? t : t.text;'), // t2
        () => evalJs('const t = await tool.read({ path: "a.txt:5-9" }); return typeof t === "string" ? t : t.text;'), // t3
        () => read("a.txt"), // t4
        ({ cwd }: any) => {
          const f = path.join(cwd, "a.txt");
          const l = lines(f);
          l[9] = "line ten, changed on disk";
          fs.writeFileSync(f, l.join("\n") + "\n");
          changed = l;
          return evalJs('const t = await tool.read({ path: "a.txt" }); return typeof t === "string" ? t : t.text;'); // t5
        },
        () => evalJs('return await read("a.txt", { offset: 9, limit: 3 });'), // t6
        () => read("a.txt"), // t7
      ],
    ],
  });
  const [own, whole, range, again, afterChange, helper, diff] = ["t1", "t2", "t3", "t4", "t5", "t6", "t7"].map((c) => r.text(c));
  check(own.startsWith("[a.txt#") && own.includes("\n1:line 1\n") && !own.includes(MARK), "the model's first read is omp's own");
  check(r.byId.get("t2")?.toolName === "eval" && !r.byId.get("t2")?.isError, `eval ran: ${whole.slice(0, 160)}`);
  check(whole.includes("[a.txt#") && whole.includes("1:line 1") && whole.includes("200:line 200") && !whole.includes(MARK), `a program's whole read of a held file gets omp's text, no marker: ${whole.slice(0, 160)}`);
  check(whole.includes(own.split("\n")[0]), "the program's read carries omp's [path#TAG]");
  check(range.includes("5:line 5") && range.includes("9:line 9") && !range.includes(MARK), `a program's range read of held lines gets omp's rows: ${range.slice(0, 160)}`);
  check(/^\[a\.txt#[0-9A-F]{4}\]\n\[fscache: unchanged: (all 200 lines|rows 1-200 )/.test(again), `the model's own reread after the program's reads is a marker: ${again.slice(0, 120)}`);
  check(afterChange.includes("10:line ten, changed on disk") && afterChange.includes("200:line 200") && !afterChange.includes(MARK), `a program's read of a changed held file gets omp's whole text, no diff: ${afterChange.slice(0, 160)}`);
  check(helper === "line 9\nline ten, changed on disk\nline 11" && !helper.includes(MARK) && !helper.includes("[a.txt#"), `eval's read() helper reads the file itself (no read tool, no tool_result): ${JSON.stringify(helper.slice(0, 120))}`);
  check(/^\[a\.txt#[0-9A-F]{4}\]\n\[fscache: changed since you read lines 1-200; the file now has 200 lines/.test(diff) && diff.includes("+10:line ten, changed on disk"), `the model's own reread after the program saw the change is a diff against what the model holds: ${diff.slice(0, 200)}`);
  check(changed.length === 200, "the on-disk change was made");
  check(r.violations.length === 0, `program's calls: the oracle finds nothing (${r.violations.join("; ")})`);
  check(r.repaired.length === 0, `program's calls: every read's own answer reached the model as decided (the context handler replaced none: ${r.repaired.join(", ")})`);
}

// 1b. ctx.invokeTool is same-tool only: a tool that is not a re-registered
// built-in has none, so no other tool can run omp's read through it.
{
  const r = await scripted({
    toolNames: ["read", "edit", "peek"],
    extraExtensionPaths: [path.join(here, "fixtures/peek.js")],
    prompts: [[() => read("a.txt"), () => ({ name: "peek", arguments: { path: "a.txt" } })]],
  });
  const peek = r.text("t2");
  check(/invokeTool: undefined/.test(peek), `another tool's ctx.invokeTool is undefined (omp 18.2.3: same-tool delegation only): ${peek.slice(0, 120)}`);
  check(r.violations.length === 0, `peek: the oracle finds nothing (${r.violations.join("; ")})`);
}

// 1b'. A program's call through ctx.invokeTool: another extension
// re-registers `read` and, inside the model's call, reads b.txt (which the
// model holds) for itself before delegating the model's own path. Its read
// of b.txt is omp's text (omp runs the native read: no tool_result event);
// the model's call is answered as the model's: a marker when held.
{
  const r = await scripted({
    extraExtensionPaths: [path.join(here, "fixtures/wrapread.js")],
    prompts: [[() => read("b.txt"), () => read("a.txt"), () => read("a.txt"), () => read("b.txt")]],
  });
  const wrapped: Map<string, string> = (globalThis as any).__ompFscacheWrapped ?? new Map();
  check(wrapped.size === 4, `the wrapping read ran for every call (${wrapped.size})`);
  const inner = [...wrapped.values()];
  check(inner.every((t) => /^\[b\.txt#[0-9A-F]{4}\]\n1:bee 1\n/.test(t) && !t.includes(MARK)), `the wrapper's own reads of b.txt (held by the model from the first call on) are omp's text: ${inner.map((t) => t.slice(0, 24)).join(" | ")}`);
  check(/^\[b\.txt#[0-9A-F]{4}\]\n1:bee 1\n/.test(r.text("t1")) && /^\[a\.txt#[0-9A-F]{4}\]\n1:line 1\n/.test(r.text("t2")), "the model's first reads through the wrapper are omp's text");
  check(/^\[a\.txt#[0-9A-F]{4}\]\n\[fscache: unchanged/.test(r.text("t3")) && /^\[b\.txt#[0-9A-F]{4}\]\n\[fscache: unchanged/.test(r.text("t4")), `the model's rereads through the wrapper are markers: ${r.text("t3").slice(0, 60)} | ${r.text("t4").slice(0, 60)}`);
  check(r.violations.length === 0 && r.repaired.length === 0, `wrapped read: the oracle finds nothing, no repair (${[...r.violations, ...r.repaired].join("; ")})`);
}

// 1c. A subagent (the task tool): its own session, its own model, its own
// copy. The parent holds a.txt; the subagent's first read of it is omp's
// text (its model never saw the file), its reread a marker (it holds its
// first read); the parent's reread after the subagent is still a marker.
// The subagent's requests are judged by an oracle of their own.
{
  const r = await scripted({
    toolNames: ["read", "edit", "task"],
    extraExtensionPaths: [path.join(here, "fixtures/stored.js")],
    waitIdle: true,
    sub: [() => read("a.txt"), () => read("a.txt"), () => ({ name: "yield", arguments: { data: "read a.txt twice" } })],
    prompts: [
      [
        () => read("a.txt"), // t1
        () => ({ name: "task", arguments: { agent: "task", task: "read a.txt twice" } }), // t2
        () => null, // the spawn's answer ends the turn; the subagent runs
        () => read("a.txt"), // the turn the subagent's result starts
      ],
    ],
  });
  const ids = [...r.byId.keys()];
  const sub = ids.filter((c) => r.byId.get(c)?.toolName === "read" && !["t1"].includes(c) && r.requests.every((msgs) => !msgs.some((m: any) => m.toolCallId === c)));
  const parentReads = ids.filter((c) => r.byId.get(c)?.toolName === "read" && r.requests.some((msgs) => msgs.some((m: any) => m.toolCallId === c)));
  const [subFirst, subAgain] = sub.map((c) => r.text(c));
  const parentAgain = r.text(parentReads.at(-1) ?? "");
  check(sub.length === 2, `the subagent ran its two reads: ${sub.join(", ")}`);
  check(/^\[a\.txt#[0-9A-F]{4}\]\n1:line 1\n/.test(subFirst ?? "") && !(subFirst ?? "").includes(MARK), `a subagent's first read of a file the parent holds is omp's text: ${(subFirst ?? "").slice(0, 60)}`);
  check(/^\[a\.txt#[0-9A-F]{4}\]\n\[fscache: unchanged: (all 200 lines|rows 1-200 )/.test(subAgain ?? ""), `the subagent's own reread is a marker: ${(subAgain ?? "").slice(0, 80)}`);
  check(parentReads.length === 2 && /^\[a\.txt#[0-9A-F]{4}\]\n\[fscache: unchanged: (all 200 lines|rows 1-200 )/.test(parentAgain), `the parent's reread after the subagent is a marker: ${parentAgain.slice(0, 80)}`);
  check(r.violations.length === 0 && r.subViolations.length === 0, `subagent: the oracle finds nothing, parent or subagent (${[...r.violations, ...r.subViolations].join("; ")})`);
  check(r.repaired.length === 0, `subagent: the parent's reads reached the model as decided (${r.repaired.join(", ")})`);
  check(sub.every((c) => r.subStored.includes(c)) && r.subRepaired.length === 0, `subagent: its reads reached its model as decided (stored: ${r.subStored.join(", ")}; repaired: ${r.subRepaired.join(", ")})`);
}

// 2. Several calls in one assistant message. Reads are "shared" (they run
// together), edit is "exclusive" (it waits for the calls before it and
// holds back the ones after). The results reach the model in the order they
// finish; the oracle reads them in that order.
{
  const a = (cwd: string) => path.join(cwd, "a.txt");
  let editedA: string[] = [];
  let beforeEdit: string[] = [];
  const r = await scripted({
    prompts: [
      [
        // 2a. the same file twice, the model holding none of it
        () => [read("a.txt"), read("a.txt")], // t1 t2
        // 2b. the same file twice, the model holding it (t1/t2's text)
        () => [read("a.txt"), read("a.txt")], // t3 t4
        // 2c. a held file and a file never read
        () => [read("a.txt"), read("b.txt")], // t5 t6
        // 2d. a whole read and a range of the same (held) file
        () => [read("b.txt"), read("b.txt:10-20")], // t7 t8
        // 2e. a read, then an edit of the same file (the read runs first)
        ({ tags, cwd }: any) => {
          beforeEdit = lines(a(cwd));
          return [
            read("a.txt", () => beforeEdit),
            { name: "edit", arguments: { input: `*** Begin Patch\n[a.txt#${tags.get(a(cwd))}]\nPUT 3.=3:\n+edited three\n*** End Patch` } },
          ]; // t9 t10
        },
        // 2f. an edit, then a read of the same file (the read waits for it)
        ({ messages, cwd }: any) => {
          // the TAG the model last saw: the edit's result (t10) shows the new one
          const tag = /^\[a\.txt#([0-9A-F]{4})\]/.exec(textOf(messages.find((m: any) => m.toolCallId === "t10")))?.[1];
          editedA = lines(a(cwd));
          editedA[4] = "edited five";
          return [
            { name: "edit", arguments: { input: `*** Begin Patch\n[a.txt#${tag}]\nPUT 5.=5:\n+edited five\n*** End Patch` } },
            read("a.txt", () => editedA),
          ]; // t11 t12
        },
        // 2g. a range and a whole read of the same file, the range first
        () => [read("a.txt:1-8"), read("a.txt")], // t13 t14
        // 2h. the file changed on disk, then two whole reads of it at once
        ({ cwd }: any) => {
          const l = lines(a(cwd));
          l[99] = "line 100, changed on disk";
          fs.writeFileSync(a(cwd), l.join("\n") + "\n");
          return [read("a.txt"), read("a.txt")]; // t15 t16
        },
        // 2i. a file never read: a whole read and a range of it at once, both orders
        ({ cwd }: any) => {
          fs.writeFileSync(path.join(cwd, "c.txt"), Array.from({ length: 60 }, (_, i) => `sea ${i + 1}`).join("\n") + "\n");
          return [read("c.txt"), read("c.txt:10-12")]; // t17 t18
        },
        ({ cwd }: any) => {
          fs.writeFileSync(path.join(cwd, "d.txt"), Array.from({ length: 60 }, (_, i) => `dee ${i + 1}`).join("\n") + "\n");
          return [read("d.txt:10-12"), read("d.txt")]; // t19 t20
        },
      ],
    ],
  });
  const t = (c: string) => r.text(c);
  const isText = (s: string, file: string) => s.startsWith(`[${file}#`) && !s.includes(MARK) && /\n1:/.test(s);
  const isMarker = (s: string) => /^\[[a-z.]+#[0-9A-F]{4}\]\n\[fscache: unchanged/.test(s);

  // 2a: when the calls run, the model's copy (the branch up to the
  // assistant message) holds nothing of a.txt; at most one of the two may be
  // a marker, and only the one the model receives after the other's text.
  // The results reach the model in the order they finished.
  const order = (x: string, y: string) => {
    const req = r.requests.find((msgs) => msgs.some((m: any) => m.toolCallId === x) && msgs.some((m: any) => m.toolCallId === y));
    if (!req) return undefined;
    return req.findIndex((m: any) => m.toolCallId === x) < req.findIndex((m: any) => m.toolCallId === y) ? [x, y] : [y, x];
  };
  {
    const o = order("t1", "t2");
    const [first, second] = o ? o.map(t) : ["", ""];
    check(!!o && isText(first, "a.txt"), `2a: the first result the model receives of two reads of an unread file is omp's text: ${first.slice(0, 80)}`);
    check(!isMarker(first) && (isText(second, "a.txt") || isMarker(second)), `2a: the second is omp's text or a marker standing on the first: ${second.slice(0, 80)}`);
    console.log(`# 2a: results in order ${o?.join(", ")}; the second is ${isMarker(second) ? "a marker" : "omp's text"}`);
  }
  // 2b: the model holds a.txt whole (2a's text): both siblings are markers.
  check(isMarker(t("t3")) && isMarker(t("t4")), `2b: two rereads of a held file in one message are both markers: ${t("t3").slice(0, 60)} | ${t("t4").slice(0, 60)}`);
  // 2c: the held one a marker, the other omp's text.
  check(isMarker(t("t5")), "2c: the held file's reread is a marker beside a sibling read");
  check(isText(t("t6"), "b.txt"), "2c: the sibling's first read of another file is omp's text");
  // 2d: b.txt is held whole (t6): both are markers, the range with its rows.
  check(isMarker(t("t7")), `2d: the whole reread of a held file is a marker: ${t("t7").slice(0, 80)}`);
  check(/\[fscache: unchanged: rows 9-\d+ as you last read them\]/.test(t("t8")), `2d: the sibling range read is a marker of its rows: ${t("t8").slice(0, 100)}`);
  // 2e: the read ran before the edit (edit waits for the shared calls before
  // it): it saw the held, unchanged file, a marker; the edit then changed line 3.
  check(isMarker(t("t9")), `2e: read then edit in one message: the read (run first, the file unchanged) is a marker: ${t("t9").slice(0, 80)}`);
  check(!r.byId.get("t10")?.isError, `2e: the edit from the held TAG succeeds: ${t("t10").slice(0, 120)}`);
  // 2f: the read ran after both edits (line 3 and line 5 changed): the model
  // holds the old lines 3 and 5 (the edits' results show the changed lines
  // as it sees them); whatever the answer, it must carry "edited five".
  check(!r.byId.get("t11")?.isError && !/stale/i.test(t("t11")), `2f: the edit from the TAG the model last saw succeeds: ${t("t11").slice(0, 120)}`);
  const t12 = t("t12");
  check(t12.includes("edited five") && t12.includes("edited three"), `2f: edit then read in one message: the read (run after the edit) shows both edits: ${t12.slice(0, 200)}`);
  check(!isMarker(t12), "2f: ... and is never a marker of the lines from before the edits");
  // The model holds a.txt whole as 2b-2e showed it (the edits' results teach
  // the copy nothing): a diff against those 200 lines, the new TAG, both
  // changed rows numbered by their line now.
  check(/^\[a\.txt#[0-9A-F]{4}\]\n\[fscache: changed since you read lines 1-200; the file now has 200 lines/.test(t12) && t12.includes("+3:edited three") && t12.includes("+5:edited five") && t12.includes("\n-line 5\n"), "2f: ... it is a diff against the lines the model holds, rows numbered by their line now");
  check(t12.split("\n")[0] === t("t11").split("\n")[0], "2f: ... carrying the TAG after the edit");
  // 2g: a range and a whole read of a file the model holds as t12 showed it.
  check(isMarker(t("t13")) && isMarker(t("t14")), `2g: a range and a whole reread of a held file in one message are markers: ${t("t13").slice(0, 80)} | ${t("t14").slice(0, 80)}`);
  // 2h: the model holds a.txt as t14 vouched for it; each of the two reads
  // is a diff against that (or, the second, a marker on the first's diff if
  // the model receives it after it); never omp's whole text.
  // Failed before 2f1c675: the second decided a diff against the copy
  // before the first sibling's diff (not yet on the branch when it decided,
  // though decided and received before it); the model then held the new
  // version, so the context handler replaced that diff with omp's whole
  // text in every request. A read now counts the answers given to earlier
  // siblings of its message.
  {
    const o = order("t15", "t16");
    const [first, second] = o ? o.map(t) : ["", ""];
    const isDiff = (x: string) => /^\[a\.txt#[0-9A-F]{4}\]\n\[fscache: changed since you read lines 1-200; the file now has 200 lines/.test(x) && x.includes("+100:line 100, changed on disk");
    check(isDiff(first), `2h: two reads of a changed held file at once: the first the model receives is a diff: ${first.slice(0, 100)}`);
    check(isDiff(second) || isMarker(second), `2h: the second a diff or a marker on the first: ${second.slice(0, 100)}`);
    console.log(`# 2h: results in order ${o?.join(", ")}; the second is ${isMarker(second) ? "a marker" : isDiff(second) ? "a diff" : "omp's text"}`);
    if (o && r.stored.get(o[1]) !== second) console.log(`# 2h: the second's own answer was ${JSON.stringify((r.stored.get(o[1]) ?? "").slice(0, 400))}; the model received ${JSON.stringify(second.slice(0, 100))}`);
  }
  // 2i: c.txt/d.txt never read: whichever result the model receives first is
  // omp's text; the other omp's text or a marker standing on it.
  for (const [x, y, f] of [["t17", "t18", "c.txt"], ["t19", "t20", "d.txt"]]) {
    const o = order(x, y);
    const [first, second] = o ? o.map(t) : ["", ""];
    check(!!o && first.startsWith(`[${f}#`) && !first.includes(MARK), `2i: a whole and a range read of an unread ${f} at once: the first the model receives is omp's text: ${first.slice(0, 60)}`);
    check(second.startsWith(`[${f}#`) && (!second.includes(MARK) || isMarker(second)), `2i: ... the second omp's text or a marker: ${second.slice(0, 60)}`);
    console.log(`# 2i: ${f}: results in order ${o?.join(", ")}; the second is ${isMarker(second) ? "a marker" : "omp's text"}`);
  }
  check(r.violations.length === 0, `siblings: the oracle finds nothing (${r.violations.join("; ")})`);
  // The read's own answers were right when made: none of them needed the
  // context handler's repair (with the global settings nothing takes a base
  // away between a read and the next request).
  check(r.repaired.length === 0, `siblings: every read's own answer reached the model as decided (the context handler replaced none: ${r.repaired.join(", ")})`);
}

console.log(`# calls: ${stepsRun} steps, ${requests} requests checked by the oracle`);
console.log(failures === 0 ? "calls: all passed" : `calls: ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
