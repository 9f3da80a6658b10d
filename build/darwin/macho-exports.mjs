#!/usr/bin/env node
// macho-exports.mjs FILE LIST: makes the 64-bit Mach-O dylib FILE export
// exactly the symbols of LIST (one a line, with Mach-O's leading
// underscore: build/exports.sh's macho format), in place; what ld64's
// -exported_symbols_list does at link time.
//
// Why after the link: the darwin binaries are linked by zig 0.11 (cgo's C
// compiler and linker for the cross build, build/mk/platforms.mk), whose
// Mach-O linker takes no -exported_symbols_list (nor -exported_symbol) and
// exports every global symbol of its inputs, hidden ones included: Go's and
// cgo's (crosscall2, x_cgo_*, _cgo_*, fscache_go_*), the library's
// internal C functions and zig's compiler_rt (memcpy, sin, __divti3, ...),
// about 500 in all.
//
// What it changes, nothing else (no size or offset moves):
//   - the export trie (LC_DYLD_INFO_ONLY's or LC_DYLD_EXPORTS_TRIE's), the
//     only table dyld binds and dlsym()s against: rebuilt with LIST's
//     symbols, at their addresses, in the same place (zero-padded);
//   - the symbol table: every other external definition becomes a local
//     symbol ("was a private external", as ld64 leaves the symbols it does
//     not export), moved from the external to the local range of
//     LC_DYSYMTAB, the indirect symbol table renumbered to match; names
//     stay for debuggers and crash reports;
//   - the code signature, when there is one (arm64: zig signs ad hoc, and
//     Apple silicon kills a process on a page whose hash does not match):
//     every page hash of each code directory is computed again. The
//     hashes are first checked against the file as it came from the
//     linker, so a layout this script does not know fails here, not on a
//     Mac.
// Fails (exit 1, FILE untouched) when a symbol of LIST is not exported by
// FILE, or FILE is laid out in a way it does not handle. Prints a line.
//
// macho-exports.mjs --verify FILE: only checks FILE's code signature, every
// page hash against the file (build/darwin/check-macho.sh, on the packed
// binaries).
import crypto from "node:crypto";
import fs from "node:fs";

const verifyOnly = process.argv[2] === "--verify";
const [file, listFile] = process.argv.slice(verifyOnly ? 3 : 2);
if (!file || (!listFile && !verifyOnly)) {
  console.error("usage: macho-exports.mjs DYLIB EXPORTS_LIST\n       macho-exports.mjs --verify DYLIB");
  process.exit(2);
}
const fail = (msg) => {
  console.error(`macho-exports ${file}: ${msg}`);
  process.exit(1);
};
const b = fs.readFileSync(file);

// ------------------------------------------------------------ load commands
const MH_MAGIC_64 = 0xfeedfacf;
const LC_SYMTAB = 0x2,
  LC_DYSYMTAB = 0xb,
  LC_CODE_SIGNATURE = 0x1d,
  LC_TWOLEVEL_HINTS = 0x16,
  LC_DYLD_INFO = 0x22,
  LC_DYLD_INFO_ONLY = 0x80000022,
  LC_DYLD_EXPORTS_TRIE = 0x80000033;
if (b.readUInt32LE(0) !== MH_MAGIC_64) fail("not a little-endian 64-bit Mach-O file (a fat file is not handled)");
const MH_DYLIB = 6;
if (b.readUInt32LE(12) !== MH_DYLIB) fail(`file type ${b.readUInt32LE(12)}, not a dylib (MH_DYLIB)`);
const ncmds = b.readUInt32LE(16);
let symtab, dysymtab, trieAt, sig;
for (let i = 0, off = 32; i < ncmds; i++) {
  const cmd = b.readUInt32LE(off),
    size = b.readUInt32LE(off + 4);
  if (cmd === LC_SYMTAB) symtab = off;
  else if (cmd === LC_DYSYMTAB) dysymtab = off;
  else if (cmd === LC_CODE_SIGNATURE) sig = { off: b.readUInt32LE(off + 8), size: b.readUInt32LE(off + 12) };
  else if (cmd === LC_TWOLEVEL_HINTS) fail("LC_TWOLEVEL_HINTS (symbol indices this script would have to renumber)");
  else if (cmd === LC_DYLD_INFO || cmd === LC_DYLD_INFO_ONLY) {
    if (b.readUInt32LE(off + 44) !== 0) trieAt = { sizeField: off + 44, off: b.readUInt32LE(off + 40), size: b.readUInt32LE(off + 44) };
  } else if (cmd === LC_DYLD_EXPORTS_TRIE) trieAt = { sizeField: off + 12, off: b.readUInt32LE(off + 8), size: b.readUInt32LE(off + 12) };
  off += size;
}
if (!symtab || !dysymtab) fail("no LC_SYMTAB or LC_DYSYMTAB");
if (!trieAt) fail("no export trie (LC_DYLD_INFO_ONLY or LC_DYLD_EXPORTS_TRIE)");

// ----------------------------------------------------------- code signature
// codeSignature(buf, orig): checks every page hash of each code directory
// against orig (the file as linked) and, when buf is not orig, writes
// buf's own; returns how many code directories there are (0: unsigned).
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0,
  CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const HASHES = { 1: ["sha1", 20], 2: ["sha256", 32], 3: ["sha256", 20], 4: ["sha384", 48] };
function codeSignature(buf, orig) {
  if (!sig) return 0;
  if (buf.readUInt32BE(sig.off) !== CSMAGIC_EMBEDDED_SIGNATURE) fail("LC_CODE_SIGNATURE's data is not an embedded signature");
  const count = buf.readUInt32BE(sig.off + 8);
  let n = 0;
  for (let k = 0; k < count; k++) {
    const cd = sig.off + buf.readUInt32BE(sig.off + 12 + 8 * k + 4);
    if (buf.readUInt32BE(cd) !== CSMAGIC_CODEDIRECTORY) continue;
    const hashOffset = buf.readUInt32BE(cd + 16),
      nCodeSlots = buf.readUInt32BE(cd + 28),
      codeLimit = buf.readUInt32BE(cd + 32),
      hashSize = buf[cd + 36],
      hashType = buf[cd + 37],
      pageShift = buf[cd + 39];
    if (!HASHES[hashType]) fail(`code directory hash type ${hashType}`);
    const [algo, len] = HASHES[hashType];
    if (len !== hashSize) fail(`code directory hash size ${hashSize} for type ${hashType}`);
    if (codeLimit > sig.off) fail("the code signature covers itself");
    const page = pageShift ? 2 ** pageShift : codeLimit;
    if (nCodeSlots !== Math.ceil(codeLimit / page)) fail(`${nCodeSlots} code slots for ${codeLimit} bytes in pages of ${page}`);
    const hash = (from, i) =>
      crypto.createHash(algo).update(from.subarray(i * page, Math.min((i + 1) * page, codeLimit))).digest().subarray(0, len);
    for (let i = 0; i < nCodeSlots; i++) {
      const slot = cd + hashOffset + i * len;
      if (!hash(orig, i).equals(orig.subarray(slot, slot + len)))
        fail(`the code signature's hash of page ${i} does not match the file${buf === orig ? "" : " as linked"}`);
      if (buf !== orig) hash(buf, i).copy(buf, slot);
    }
    n++;
  }
  if (!n) fail("the code signature has no code directory");
  return n;
}

if (verifyOnly) {
  const n = codeSignature(b, b);
  console.log(`macho-exports ${file}: ${n ? `${n} code director${n > 1 ? "ies" : "y"}, every page hash matches` : "not signed"}`);
  process.exit(0);
}

// ------------------------------------------------------------- export trie
function uleb(buf, pos) {
  let v = 0n,
    shift = 0n,
    byte;
  do {
    if (pos.at >= buf.length) fail("export trie: ULEB128 runs past its end");
    byte = buf[pos.at++];
    v |= BigInt(byte & 0x7f) << shift;
    shift += 7n;
  } while (byte & 0x80);
  return v;
}
function cstring(buf, pos) {
  const end = buf.indexOf(0, pos.at);
  if (end < 0) fail("export trie: unterminated string");
  const s = buf.toString("latin1", pos.at, end);
  pos.at = end + 1;
  return s;
}
const EXPORT_SYMBOL_FLAGS_REEXPORT = 0x08n,
  EXPORT_SYMBOL_FLAGS_STUB_AND_RESOLVER = 0x10n;

// The trie's entries: name -> {flags, address}.
function readTrie(trie) {
  const out = new Map(),
    seen = new Set();
  const walk = (offset, prefix) => {
    if (seen.has(offset)) fail("export trie: a node reached twice");
    seen.add(offset);
    const pos = { at: offset };
    const tsize = Number(uleb(trie, pos));
    const childrenAt = pos.at + tsize;
    if (tsize > 0) {
      const flags = uleb(trie, pos);
      if (flags & (EXPORT_SYMBOL_FLAGS_REEXPORT | EXPORT_SYMBOL_FLAGS_STUB_AND_RESOLVER)) {
        out.set(prefix, { flags, address: null });
      } else out.set(prefix, { flags, address: uleb(trie, pos) });
    }
    pos.at = childrenAt;
    const n = trie[pos.at++];
    for (let i = 0; i < n; i++) {
      const edge = cstring(trie, pos);
      walk(Number(uleb(trie, pos)), prefix + edge);
    }
  };
  walk(0, "");
  return out;
}

function ulebBytes(v) {
  v = BigInt(v);
  const out = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    out.push(byte);
  } while (v !== 0n);
  return out;
}

// A trie of entries (name -> {flags, address}), laid out as ld64 does: nodes
// in preorder, offsets computed again until no node's size changes.
function writeTrie(entries) {
  const newNode = () => ({ edges: [], info: null, offset: 0 });
  const root = newNode();
  const insert = (node, s, info) => {
    if (s === "") {
      node.info = info;
      return;
    }
    for (const e of node.edges) {
      let p = 0;
      while (p < e.label.length && p < s.length && e.label[p] === s[p]) p++;
      if (p === 0) continue;
      if (p < e.label.length) {
        const mid = newNode();
        mid.edges.push({ label: e.label.slice(p), child: e.child });
        e.label = e.label.slice(0, p);
        e.child = mid;
      }
      insert(e.child, s.slice(p), info);
      return;
    }
    const leaf = newNode();
    node.edges.push({ label: s, child: leaf });
    insert(leaf, "", info);
  };
  for (const [name, info] of [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) insert(root, name, info);
  const order = [];
  const pre = (n) => {
    order.push(n);
    for (const e of n.edges) pre(e.child);
  };
  pre(root);
  const terminal = (n) => (n.info ? [...ulebBytes(n.info.flags), ...ulebBytes(n.info.address)] : []);
  const encode = (n) => {
    const t = terminal(n);
    const bytes = [...ulebBytes(t.length), ...t, n.edges.length];
    if (n.edges.length > 255) fail("export trie: a node with more than 255 children");
    for (const e of n.edges) bytes.push(...Buffer.from(e.label + "\0", "latin1"), ...ulebBytes(e.child.offset));
    return bytes;
  };
  for (let changed = true; changed; ) {
    changed = false;
    let at = 0;
    for (const n of order) {
      if (n.offset !== at) {
        n.offset = at;
        changed = true;
      }
      at += encode(n).length;
    }
  }
  return Buffer.from(order.flatMap(encode));
}

const want = fs.readFileSync(listFile, "utf8").split("\n").map((s) => s.trim()).filter((s) => s && !s.startsWith("#"));
if (want.length === 0) fail(`${listFile} lists no symbol`);
const oldTrie = b.subarray(trieAt.off, trieAt.off + trieAt.size);
const exported = readTrie(oldTrie);
const keep = new Map();
for (const name of want) {
  const e = exported.get(name);
  if (!e) fail(`does not export ${name}`);
  if (e.address === null) fail(`${name} is a re-export or a resolver, not handled`);
  keep.set(name, e);
}
let newTrie = writeTrie(keep);
if (newTrie.length % 8) newTrie = Buffer.concat([newTrie, Buffer.alloc(8 - (newTrie.length % 8))]);
if (newTrie.length > trieAt.size) fail("the new export trie is larger than the old one");
const check = readTrie(newTrie);
if (check.size !== keep.size || [...keep].some(([n, e]) => check.get(n)?.address !== e.address || check.get(n)?.flags !== e.flags))
  fail("the new export trie does not read back as written");

// ------------------------------------------------------------ symbol table
const N_STAB = 0xe0,
  N_PEXT = 0x10,
  N_TYPE = 0x0e,
  N_EXT = 0x01,
  N_UNDF = 0x0;
const symoff = b.readUInt32LE(symtab + 8),
  nsyms = b.readUInt32LE(symtab + 12),
  stroff = b.readUInt32LE(symtab + 16);
const dy = (i) => b.readUInt32LE(dysymtab + 8 + 4 * i);
const [ilocal, nlocal, iextdef, nextdef, iundef, nundef] = [0, 1, 2, 3, 4, 5].map(dy);
const [ntoc, nmodtab, nextrefsyms, indirectoff, nindirect, nextrel] = [7, 9, 11, 12, 13, 15].map(dy);
if (ilocal !== 0 || iextdef !== nlocal || iundef !== iextdef + nextdef || iundef + nundef !== nsyms)
  fail("LC_DYSYMTAB's ranges are not locals, external definitions, undefined symbols in a row");
if (ntoc || nmodtab || nextrefsyms || nextrel)
  fail("LC_DYSYMTAB has a table of contents, module table, external references or relocations (indices this script would have to renumber)");
const sym = (i) => symoff + 16 * i;
const symName = (i) => cstring(b, { at: stroff + b.readUInt32LE(sym(i)) });
const demoted = [],
  kept = [];
for (let i = iextdef; i < iextdef + nextdef; i++) {
  const type = b[sym(i) + 4];
  if (type & N_STAB || !(type & N_EXT) || (type & N_TYPE) === N_UNDF) fail(`symbol ${i} (${symName(i)}) in the external range is not an external definition`);
  (keep.has(symName(i)) ? kept : demoted).push(i);
}
const missing = want.filter((n) => !kept.some((i) => symName(i) === n));
if (missing.length) fail(`the symbol table does not define ${missing.join(" ")} as external`);

// New order: the locals, the demoted symbols, the kept ones, the undefined.
const order = [...Array(nlocal).keys(), ...demoted, ...kept, ...Array.from({ length: nundef }, (_, k) => iundef + k)];
const newIndex = new Uint32Array(nsyms);
order.forEach((old, i) => (newIndex[old] = i));
const oldSyms = Buffer.from(b.subarray(symoff, symoff + 16 * nsyms));
order.forEach((old, i) => oldSyms.copy(b, sym(i), 16 * old, 16 * old + 16));
for (let i = nlocal; i < nlocal + demoted.length; i++) b[sym(i) + 4] = (b[sym(i) + 4] & ~N_EXT) | N_PEXT;
b.writeUInt32LE(nlocal + demoted.length, dysymtab + 8 + 4 * 1); // nlocalsym
b.writeUInt32LE(nlocal + demoted.length, dysymtab + 8 + 4 * 2); // iextdefsym
b.writeUInt32LE(kept.length, dysymtab + 8 + 4 * 3); // nextdefsym
const INDIRECT_SYMBOL_LOCAL = 0x80000000,
  INDIRECT_SYMBOL_ABS = 0x40000000;
for (let k = 0; k < nindirect; k++) {
  const at = indirectoff + 4 * k,
    v = b.readUInt32LE(at);
  if (v & (INDIRECT_SYMBOL_LOCAL | INDIRECT_SYMBOL_ABS)) continue;
  if (v >= nsyms) fail(`indirect symbol ${k} names symbol ${v}, past the table`);
  b.writeUInt32LE(newIndex[v], at);
}

// ------------------------------------------------------------- export trie
newTrie.copy(b, trieAt.off);
b.fill(0, trieAt.off + newTrie.length, trieAt.off + trieAt.size);
b.writeUInt32LE(newTrie.length, trieAt.sizeField);

// --------------------------------------------------------- code signature
const resigned = codeSignature(b, fs.readFileSync(file));

const tmp = `${file}.exports-tmp`;
fs.writeFileSync(tmp, b, { mode: fs.statSync(file).mode });
fs.renameSync(tmp, file);
console.log(
  `macho-exports ${file}: exports ${keep.size} of ${exported.size} symbols (${demoted.length} made local)` +
    (resigned ? `, ${resigned} code director${resigned > 1 ? "ies" : "y"} hashed again` : ""),
);
