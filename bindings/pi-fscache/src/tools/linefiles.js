// The bytes of the files grep's answers come from, for the text of their
// lines as rg reports it (fscache's grep reports a line with its trailing
// white space trimmed, rg the line as it is; which lines had trailing white
// space cannot be told from fscache's answer, so each file is read).
//
// Files are kept between calls, keyed by their path and checked by a stat
// (device, inode, size, mtime and ctime in nanoseconds) before each use: a
// repeated grep costs a stat per file instead of a read. A file is kept only
// when its mtime and ctime are at least 2 s older than its read (git's
// "racy clean" rule): a rewrite of the same size within the file system's
// timestamp granularity of the read is never answered from memory. What
// the stat cannot see, as for git and fscache's persisted index: a rewrite
// of the same size whose mtime and ctime are then set back (ctime cannot be
// set back without changing the clock). Bounded: files up to 1 MiB, 16 MiB
// in all, least recently used dropped first.
import { readFileSync, statSync } from "node:fs";

const MAX_FILE = 1 << 20;
const MAX_TOTAL = 16 << 20;
const RACY_NS = 2_000_000_000n;

/** One file's bytes, with its lines computed when first asked for. */
export class LineFile {
  constructor(buf) {
    this.buf = buf;
    this.starts = [0]; // byte offset of line n+1 at index n, found lazily
    this.scanned = 0;
    this.split = undefined;
  }

  /**
   * The bytes of line n (from 1, lines split on '\n' as rg numbers them),
   * without the '\n'; a UTF-8 BOM at the start is dropped, as rg drops it.
   * null past the end.
   */
  rawLine(n) {
    const buf = this.buf;
    const starts = this.starts;
    while (starts.length <= n && this.scanned <= buf.length) {
      const nl = buf.indexOf(10, this.scanned);
      if (nl < 0) {
        starts.push(buf.length + 1);
        this.scanned = buf.length + 1;
        break;
      }
      starts.push(nl + 1);
      this.scanned = nl + 1;
    }
    if (n >= starts.length) return null;
    let start = starts[n - 1];
    const end = starts[n] - 1;
    if (n === 1 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) start = 3;
    return buf.subarray(start, Math.max(start, end));
  }

  /** pi's getFileLines: the file as UTF-8, split on \r\n, \r and \n. */
  lines() {
    if (this.split === undefined) {
      this.split = this.buf.toString("utf8").replace(/\r\n/g, "\n").replace(/\r/g, "\n").split("\n");
    }
    return this.split;
  }
}

/** A bounded cache of LineFiles, checked by stat on every get. */
export class LineFileCache {
  constructor({ maxFile = MAX_FILE, maxTotal = MAX_TOTAL } = {}) {
    this.maxFile = maxFile;
    this.maxTotal = maxTotal;
    this.map = new Map(); // path -> {file, dev, ino, size, mtimeNs, ctimeNs}; insertion order = use order
    this.total = 0;
    this.hits = 0;
    this.reads = 0;
  }

  /** The file at abs as it is now, or null when it cannot be read. */
  get(abs) {
    let st;
    try {
      st = statSync(abs, { bigint: true });
    } catch {
      this.drop(abs);
      return null;
    }
    const e = this.map.get(abs);
    if (e !== undefined) {
      if (e.ino === st.ino && e.dev === st.dev && e.size === st.size && e.mtimeNs === st.mtimeNs && e.ctimeNs === st.ctimeNs) {
        this.map.delete(abs);
        this.map.set(abs, e);
        this.hits++;
        return e.file;
      }
      this.drop(abs);
    }
    let buf;
    try {
      buf = readFileSync(abs);
    } catch {
      return null;
    }
    this.reads++;
    const file = new LineFile(buf);
    const now = BigInt(Date.now()) * 1_000_000n;
    const settled = now - st.mtimeNs >= RACY_NS && now - st.ctimeNs >= RACY_NS;
    if (settled && st.isFile() && BigInt(buf.length) === st.size && buf.length <= this.maxFile) {
      this.map.set(abs, { file, dev: st.dev, ino: st.ino, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs });
      this.total += buf.length;
      while (this.total > this.maxTotal) {
        const [oldest] = this.map.keys();
        this.drop(oldest);
      }
    }
    return file;
  }

  drop(abs) {
    const e = this.map.get(abs);
    if (e === undefined) return;
    this.total -= e.file.buf.length;
    this.map.delete(abs);
  }

  clear() {
    this.map.clear();
    this.total = 0;
  }
}
