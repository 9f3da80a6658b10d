package index

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"unsafe"

	"github.com/cespare/xxhash/v2"
	"github.com/fscache/fscache/internal/mmap"
)

// An index file holds an Index written once (Builder.WriteFile) and used
// in place by later processes through a read-only memory mapping (Open).
// Every number is little endian, every array of fixed-width numbers starts
// at a multiple of 8 bytes (sections are padded with zeros), so that the
// mapped bytes are the Index's arrays. In order:
//
//	magic       "FSCIDX", the version byte, 'L' (little endian): 8 bytes
//	segments    per postings segment, as the Builder flushes it: tris
//	            [n]uint32, ends [n]uint32, blob (the varint lists), each
//	            padded to 8 bytes; the first at offset 8, each right
//	            after the previous one
//	file table  flags [files]uint8 (padded), document ends [files]uint32
//	            (padded; the documents of the files up to each: see
//	            Index.spans), sums, inos [files]uint64,
//	            sizes, mtimes, ctimes [files]int64, path ends [files]uint64, the
//	            paths (padded); then the blooms: their ids [nb]uint32
//	            (padded, increasing), ends [nb]uint64 (in words), words
//	header      BuiltNs int64, len(Root), len(Key) uint64, Root, Key
//	            (padded)
//	seg table   per segment: its offset, len(tris), len(blob), the
//	            xxhash of its blob (with its padding): 4 uint64
//	footer      16 uint64: the magic, orderMark, then the counts, the
//	            section offsets and the checksums (trailer), then the
//	            xxhash of the 15 words before
//
// The xxhash64 checksums: of the header (with its padding), of the file
// table and blooms (with theirs), of the postings directory (every
// segment's tris and ends with their padding, in order, then the seg
// table), of each blob (in the seg table, covered by the directory's),
// and of the footer. So every byte of a file is checked by one of them,
// or is the magic. Open checks all but the blobs' (VerifyBlobs does).

// diskVersion is the format's version, the magic's seventh byte. Version
// 2 added the document ends (large files indexed by chunks), version 3
// the ctimes and flagLinked (files with hard links indexed); a file of
// another version is refused (ErrCorrupt), and rebuilt by its user.
const diskVersion = 3

// FormatVersion is the version of the index file format: the store keeps
// the files of each version in a subdirectory of its own (idxstore).
const FormatVersion = diskVersion

// diskMagic begins an index file and its footer.
var diskMagic = [8]byte{'F', 'S', 'C', 'I', 'D', 'X', diskVersion, 'L'}

const (
	// orderMark is the footer's second word: read in the wrong byte
	// order, it differs.
	orderMark uint64 = 0x0102030405060708
	// footerSize is the footer's length: 16 words.
	footerSize = 16 * 8
	// segEntrySize is a seg table entry's length: 4 words.
	segEntrySize = 4 * 8
	// headerFixed is the length of the header's fixed fields.
	headerFixed = 3 * 8
)

// ErrCorrupt is wrapped by the errors of Open and VerifyBlobs that say a
// file is not a valid index (not an index file, truncated, altered).
var ErrCorrupt = errors.New("corrupt index")

// Header describes how an index file was made.
type Header struct {
	// Root is the directory indexed.
	Root string
	// Key is an opaque description of the scan policy the files were
	// listed with.
	Key string
	// BuiltNs is the wall clock, in ns since the Unix epoch, when the
	// build started.
	BuiltNs int64
}

// trailer is the footer's content but its magic, order mark and checksum.
type trailer struct {
	files, bytes, nsegs, nblooms, bloomWords, pathBytes uint64
	tableOff, headerOff, headerLen, segTabOff           uint64
	headerSum, tableSum, dirSum                         uint64
}

// words returns the footer's 16 words, its checksum last.
func (t *trailer) words() [16]uint64 {
	w := [16]uint64{binary.LittleEndian.Uint64(diskMagic[:]), orderMark, t.files, t.bytes, t.nsegs,
		t.nblooms, t.bloomWords, t.pathBytes, t.tableOff, t.headerOff, t.headerLen, t.segTabOff,
		t.headerSum, t.tableSum, t.dirSum}
	var b [15 * 8]byte
	for i, x := range w[:15] {
		binary.LittleEndian.PutUint64(b[8*i:], x)
	}
	w[15] = xxhash.Sum64(b[:])
	return w
}

// tableLayout is where the parts of a file table lie.
type tableLayout struct {
	flags, docEnds, sums, inos, sizes, mtimes, ctimes, pathEnds uint64
	pathBlob                                                    uint64
	bloomIDs, bloomEnds, bloomWords, end                        uint64
}

// layoutTable returns the layout of the file table at off of t's counts.
func layoutTable(off uint64, t *trailer) tableLayout {
	var l tableLayout
	l.flags = off
	off += pad8(t.files)
	l.docEnds = off
	off += pad8(4 * t.files)
	l.sums = off
	off += 8 * t.files
	l.inos = off
	off += 8 * t.files
	l.sizes = off
	off += 8 * t.files
	l.mtimes = off
	off += 8 * t.files
	l.ctimes = off
	off += 8 * t.files
	l.pathEnds = off
	off += 8 * t.files
	l.pathBlob = off
	off += pad8(t.pathBytes)
	l.bloomIDs = off
	off += pad8(4 * t.nblooms)
	l.bloomEnds = off
	off += 8 * t.nblooms
	l.bloomWords = off
	l.end = off + 8*t.bloomWords
	return l
}

func pad8(n uint64) uint64 { return (n + 7) &^ 7 }

// Spill makes b write the index to f as it is built: each postings
// segment is written when flushed, to a scratch file beside f, and
// dropped from memory (the file table and the blooms stay in memory until
// WriteFile, which merges the segments into f and removes the scratch
// file). Call it before the first Add (segments already flushed are
// written at once); after Spill, WriteFile(f, …) finishes the build, not
// Finish. A second Spill does nothing. An error is returned by WriteFile.
func (b *Builder) Spill(f *os.File) {
	if b.out != nil || b.done {
		return
	}
	b.out = f
	s, err := scratchFor(f)
	if err != nil {
		b.spillErr = err
		return
	}
	b.w = newDiskWriter(s, b.Pause)
	for i := range b.segs {
		b.w.segment(&b.segs[i])
	}
	b.segs, b.size = nil, 0
}

// WriteFile finishes the build into f (replacing its content): the
// postings segments merged by trigram (merge.go), with the base's lists
// of the files kept (Base), then the file table,
// the blooms, the header h, the postings directory and the footer. f is
// left open and unsynced: the caller syncs, closes and renames it, and
// may check it with Open and VerifyBlobs. The builder holds nothing
// afterwards and cannot be used again.
func (b *Builder) WriteFile(f *os.File, h Header) error {
	if b.done {
		return fmt.Errorf("index: write %s: the build is already finished", f.Name())
	}
	if b.out != nil && b.out != f {
		return fmt.Errorf("index: write %s: the builder spills for %s", f.Name(), b.out.Name())
	}
	defer b.dropScratch()
	for i := 1; i < len(b.paths); i++ {
		if b.paths[i] <= b.paths[i-1] {
			err := fmt.Errorf("index: write %s: path %q added after %q", f.Name(), b.paths[i], b.paths[i-1])
			b.release()
			return err
		}
	}
	if b.spillErr != nil {
		b.release()
		return b.spillErr
	}
	b.flush()
	segs := b.segs
	if b.w != nil {
		var m *mmap.Mapping
		var err error
		if segs, m, err = spilledSegments(b.w); err != nil {
			b.release()
			return err
		}
		defer m.Close()
	}
	w := newDiskWriter(f, b.Pause)
	err := merge(w, segs, b.base, b.remap, b.Pause)
	if err == nil {
		err = w.finish(b, h)
	}
	b.release()
	return err
}

// Abort ends a build without writing it: a spilled build's scratch file
// is removed. The builder cannot be used again.
func (b *Builder) Abort() {
	b.dropScratch()
	b.release()
}

// dropScratch closes and removes the scratch file of a spilled build.
func (b *Builder) dropScratch() {
	if b.w != nil {
		b.w.f.Close()
		os.Remove(b.w.f.Name())
		b.w = nil
	}
}

// diskWriter writes an index file, sequentially from its start.
type diskWriter struct {
	f     *os.File
	bw    *bufio.Writer
	off   uint64
	err   error
	pause func()
	// hash is the checksum the bytes written feed (nil: none); dir is
	// the postings directory's.
	hash *xxhash.Digest
	dir  *xxhash.Digest
	segs []segEntry
	buf  []byte // writeInts' scratch
}

// segEntry is a seg table entry.
type segEntry struct{ off, ntris, blobLen, blobSum uint64 }

// newDiskWriter empties f and writes the magic.
func newDiskWriter(f *os.File, pause func()) *diskWriter {
	w := &diskWriter{f: f, bw: bufio.NewWriterSize(f, 1<<20), pause: pause, dir: xxhash.New()}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		w.err = fmt.Errorf("index: write %s: %w", f.Name(), err)
	} else if err := f.Truncate(0); err != nil {
		w.err = fmt.Errorf("index: write %s: %w", f.Name(), err)
	}
	w.write(diskMagic[:])
	return w
}

func (w *diskWriter) write(p []byte) {
	if w.err != nil {
		return
	}
	if w.hash != nil {
		w.hash.Write(p)
	}
	if _, err := w.bw.Write(p); err != nil {
		w.err = fmt.Errorf("index: write %s: %w", w.f.Name(), err)
	}
	w.off += uint64(len(p))
}

func (w *diskWriter) writeString(s string) {
	if w.err != nil {
		return
	}
	if w.hash != nil {
		w.hash.WriteString(s)
	}
	if _, err := w.bw.WriteString(s); err != nil {
		w.err = fmt.Errorf("index: write %s: %w", w.f.Name(), err)
	}
	w.off += uint64(len(s))
}

var zeros [8]byte

// pad writes zeros up to a multiple of 8 bytes.
func (w *diskWriter) pad() {
	if r := w.off % 8; r != 0 {
		w.write(zeros[:8-r])
	}
}

// writeInts writes s, little endian.
func writeInts[T ~uint32 | ~uint64 | ~int64](w *diskWriter, s []T) {
	for len(s) > 0 {
		c := s[:min(len(s), 4096)]
		s = s[len(c):]
		w.buf = w.buf[:0]
		for _, x := range c {
			if unsafe.Sizeof(x) == 4 {
				w.buf = binary.LittleEndian.AppendUint32(w.buf, uint32(x))
			} else {
				w.buf = binary.LittleEndian.AppendUint64(w.buf, uint64(x))
			}
		}
		w.write(w.buf)
	}
}

// segment writes p, a flushed segment.
func (w *diskWriter) segment(p *postings) {
	e := segEntry{off: w.off, ntris: uint64(len(p.tris)), blobLen: uint64(len(p.blob))}
	w.hash = w.dir
	writeInts(w, p.tris)
	w.pad()
	writeInts(w, p.ends)
	w.pad()
	bh := xxhash.New()
	w.hash = bh
	for blob := p.blob; len(blob) > 0; {
		c := blob[:min(len(blob), 256<<10)]
		blob = blob[len(c):]
		w.write(c)
		if len(blob) > 0 {
			pauseIf(w.pause)
		}
	}
	w.pad()
	w.hash = nil
	e.blobSum = bh.Sum64()
	w.segs = append(w.segs, e)
}

// finish writes what follows the segments, from b, and flushes.
func (w *diskWriter) finish(b *Builder, h Header) error {
	t := trailer{files: uint64(len(b.paths)), bytes: uint64(b.bytes), nsegs: uint64(len(w.segs)),
		nblooms: uint64(len(b.blooms)), tableOff: w.off}
	th := xxhash.New()
	w.hash = th
	t.pathBytes = w.table(b)
	t.bloomWords = w.blooms(b.blooms)
	t.tableSum = th.Sum64()
	t.headerOff, t.headerLen = w.off, uint64(headerFixed+len(h.Root)+len(h.Key))
	hh := xxhash.New()
	w.hash = hh
	writeInts(w, []uint64{uint64(h.BuiltNs), uint64(len(h.Root)), uint64(len(h.Key))})
	w.writeString(h.Root)
	w.writeString(h.Key)
	w.pad()
	t.headerSum = hh.Sum64()
	t.segTabOff = w.off
	w.hash = w.dir
	for _, e := range w.segs {
		writeInts(w, []uint64{e.off, e.ntris, e.blobLen, e.blobSum})
	}
	t.dirSum = w.dir.Sum64()
	w.hash = nil
	ws := t.words()
	writeInts(w, ws[:])
	if w.err == nil {
		if err := w.bw.Flush(); err != nil {
			w.err = fmt.Errorf("index: write %s: %w", w.f.Name(), err)
		}
	}
	return w.err
}

// table writes the file table of b but the blooms, and returns the length
// of the paths.
func (w *diskWriter) table(b *Builder) uint64 {
	w.write(b.flags)
	w.pad()
	writeInts(w, b.ends)
	w.pad()
	writeInts(w, b.sums)
	writeInts(w, b.inos)
	writeInts(w, b.sizes)
	writeInts(w, b.mtimes)
	writeInts(w, b.ctimes)
	var end uint64
	ends := make([]uint64, 0, min(len(b.paths), 4096))
	for _, p := range b.paths {
		end += uint64(len(p))
		if ends = append(ends, end); len(ends) == cap(ends) {
			writeInts(w, ends)
			ends = ends[:0]
		}
	}
	writeInts(w, ends)
	for _, p := range b.paths {
		w.writeString(p)
	}
	w.pad()
	return end
}

// blooms writes the blooms and returns their length in words.
func (w *diskWriter) blooms(blooms map[uint32]bloom) uint64 {
	ids := slices.Sorted(maps.Keys(blooms))
	writeInts(w, ids)
	w.pad()
	var end uint64
	ends := make([]uint64, 0, len(ids))
	for _, id := range ids {
		end += uint64(len(blooms[id]))
		ends = append(ends, end)
	}
	writeInts(w, ends)
	for _, id := range ids {
		writeInts(w, blooms[id])
	}
	return end
}
