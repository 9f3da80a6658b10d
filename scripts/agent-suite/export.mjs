#!/usr/bin/env node
// export.mjs GIT_DIR REV DEST [--missing FILE]: writes the tree of REV from a
// bare git directory (a snapshot brought by the search tool's `fetch`) into
// DEST. Blobs the snapshot lacks (files of 4 MiB and more are left out of
// snapshots) are skipped and listed, where `git archive` would stop at the
// first; with --missing, their paths are also written to FILE, one a line
// (an empty file when none is missing), for run.sh to check.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
let missingFile = null;
const opt = args.indexOf("--missing");
if (opt >= 0) [, missingFile] = args.splice(opt, 2);
const [gitDir, rev, dest] = args;
if (!dest || args.length !== 3 || (opt >= 0 && !missingFile)) {
  console.error("usage: export.mjs GIT_DIR REV DEST [--missing FILE]");
  process.exit(2);
}
const git = (gitArgs, input) =>
  execFileSync("git", ["--git-dir", gitDir, ...gitArgs], { input, maxBuffer: 4 << 30, stdio: ["pipe", "pipe", "inherit"] });

const blobs = [];
for (const line of git(["ls-tree", "-r", "-z", "--full-tree", rev]).toString("utf8").split("\0")) {
  if (!line) continue;
  const tab = line.indexOf("\t");
  const [mode, type, sha] = line.slice(0, tab).split(" ");
  if (type === "blob") blobs.push({ mode, sha, file: line.slice(tab + 1) });
}
const out = git(["cat-file", "--batch"], blobs.map((b) => b.sha).join("\n") + "\n");
let at = 0;
const missing = [];
for (const b of blobs) {
  const nl = out.indexOf(10, at);
  const header = out.subarray(at, nl).toString("latin1").split(" ");
  at = nl + 1;
  if (header[1] === "missing") {
    missing.push(b.file);
    continue;
  }
  const size = Number(header[2]);
  const data = out.subarray(at, at + size);
  at += size + 1;
  const full = path.join(dest, b.file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  if (b.mode === "120000") {
    fs.rmSync(full, { force: true });
    fs.symlinkSync(data.toString("utf8"), full);
  } else {
    fs.writeFileSync(full, data, { mode: b.mode === "100755" ? 0o755 : 0o644 });
  }
}
if (missingFile) fs.writeFileSync(missingFile, missing.map((f) => f + "\n").join(""));
console.log(`export: ${rev}: ${blobs.length - missing.length} files into ${dest}` + (missing.length ? `; not in the snapshot: ${missing.join(", ")}` : ""));
