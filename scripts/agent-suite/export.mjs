#!/usr/bin/env node
// export.mjs GIT_DIR REV DEST: writes the tree of REV from a bare git directory
// (a snapshot brought by the search tool's `fetch`) into DEST. Blobs the
// snapshot lacks (files of 4 MiB and more are left out of snapshots) are
// skipped and listed, where `git archive` would stop at the first.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const [gitDir, rev, dest] = process.argv.slice(2);
if (!dest) {
  console.error("usage: export.mjs GIT_DIR REV DEST");
  process.exit(2);
}
const git = (args, input) =>
  execFileSync("git", ["--git-dir", gitDir, ...args], { input, maxBuffer: 4 << 30, stdio: ["pipe", "pipe", "inherit"] });

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
console.log(`export: ${rev}: ${blobs.length - missing.length} files into ${dest}` + (missing.length ? `; not in the snapshot: ${missing.join(", ")}` : ""));
