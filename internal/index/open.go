package index

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/cespare/xxhash/v2"
	"github.com/fscache/fscache/internal/fence"
	"github.com/fscache/fscache/internal/mmap"
)

// diskIndex is the mapping an Index from Open uses in place.
type diskIndex struct {
	m       *mmap.Mapping // nil for an index parsed from memory (tests)
	cleanup runtime.Cleanup
	data    []byte
	// blobs are each segment's blob with its padding, and its checksum.
	blobs []blobRef
	// table is the part of the file table's parse that Open leaves until
	// a file's entry is first needed (complete).
	table struct {
		once sync.Once
		err  error
		t    trailer
		l    tableLayout
	}
}

type blobRef struct{ off, end, sum uint64 }

// Open maps the index file at path (written by Builder.WriteFile) and
// returns its Index, which uses the mapped bytes in place. It checks the
// file's magic, version and byte order, that its sections lie in it, and
// the checksums of its header and postings directory; not those of the
// posting lists (VerifyBlobs): should one be corrupt, the queries that
// decode it do not fail but Corrupt reports it. Errors about the file's
// content wrap ErrCorrupt.
//
// The file table's checksum, and its per-file entries and paths, are
// checked and read when a file's entry is first needed (Plan.Lookup, the
// Builder's Base, a Live's Install; Check), not by Open: a Plan made
// before then decides from the table's flags and document counts as read,
// which is enough to count a query's candidates (Plan.Candidates) and
// costs a fresh process's first grep on a tree of 200k files 1 ms instead
// of 10. Should the table then prove corrupt, the index lists no file's
// entry (Lookup finds none: every file is Fresh) and Corrupt reports it.
//
// The mapping is released by Close, or when the Index becomes
// unreachable.
func Open(path string) (*Index, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	m, err := mmap.Map(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("index: open %s: %w", path, err)
	}
	ix, err := parse(m.Bytes())
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("index: open %s: %w", path, err)
	}
	ix.disk.m = m
	ix.disk.cleanup = runtime.AddCleanup(ix, closeMapping, m)
	return ix, nil
}

// closeMapping is the cleanup of an index from Open that was not closed:
// on the runtime's cleanup goroutine, where a panic is recorded
// (fence.Drop) rather than the end of the process.
func closeMapping(m *mmap.Mapping) {
	if err := fence.Run(fence.Finalizer, func() { _ = m.Close() }); err != nil {
		fence.Drop(fence.Finalizer, err)
	}
}

// Close releases the mapping of an index from Open (nothing for one built
// in memory). Nothing may use the Index after Close, nor a Plan made from
// it: their arrays are gone (a use may crash the process). Closing again
// does nothing.
func (ix *Index) Close() error {
	d := ix.disk
	if d == nil || d.m == nil {
		return nil
	}
	d.cleanup.Stop()
	err := d.m.Close()
	ix.disk = &diskIndex{}
	ix.flags, ix.sums, ix.inos, ix.sizes, ix.mtimes, ix.ctimes, ix.blooms, ix.segs = nil, nil, nil, nil, nil, nil, bloomTable{}, nil
	ix.paths = nil // strings into the mapping
	if err != nil {
		return fmt.Errorf("index: close: %w", err)
	}
	return nil
}

// VerifyBlobs checks the file table (Check), then the posting lists of an
// index from Open against their checksums (Open does not: it would read
// all of them); an index built in memory has none to check. The pages it
// read then leave the process's resident set (mmap.Mapping.Evict):
// queries read a few lists.
func (ix *Index) VerifyBlobs() error {
	d := ix.disk
	if d == nil {
		return nil
	}
	if err := ix.Check(); err != nil {
		return err
	}
	defer runtime.KeepAlive(ix)
	if d.m != nil {
		defer d.m.Evict()
	}
	for i, b := range d.blobs {
		if xxhash.Sum64(d.data[b.off:b.end]) != b.sum {
			return fmt.Errorf("index: %w: postings segment %d: blob checksum mismatch", ErrCorrupt, i)
		}
	}
	return nil
}

// Corrupt reports whether a query found a posting list that did not decode
// (an index file altered where Open does not check it): its answers are
// not to be trusted.
func (ix *Index) Corrupt() bool { return ix.corrupt.Load() }

// Check reads what Open left of the file table (its checksum, the files'
// entries and paths), if nothing has yet, and returns the error that
// found it corrupt, nil when it is sound (always for an index built in
// memory). Errors wrap ErrCorrupt.
func (ix *Index) Check() error {
	ix.complete()
	if d := ix.disk; d != nil {
		return d.table.err
	}
	return nil
}

// complete runs the rest of the file table's parse (parse), once: a
// corrupt table leaves the entries' arrays empty and marks ix corrupt.
func (ix *Index) complete() {
	d := ix.disk
	if d == nil || d.data == nil {
		return // built in memory, or closed
	}
	d.table.once.Do(func() {
		if err := ix.parseEntries(d.data, &d.table.t, &d.table.l); err != nil {
			ix.sums, ix.inos, ix.sizes, ix.mtimes, ix.ctimes, ix.paths = nil, nil, nil, nil, nil, nil
			d.table.err = err
			ix.corrupt.Store(true)
		}
	})
}

// Header returns the header the index was written with (zero for an index
// built in memory).
func (ix *Index) Header() Header { return ix.hdr }

// Len returns the number of files the index lists.
func (ix *Index) Len() int { return ix.Files }

// Path returns the path of the file with the id id ("" out of range, or
// when the file table proved corrupt): a copy, which does not point into
// the mapping of an index from Open.
func (ix *Index) Path(id int) string {
	ix.complete()
	if id < 0 || id >= len(ix.paths) {
		return ""
	}
	p := strings.Clone(ix.paths[id])
	runtime.KeepAlive(ix)
	return p
}

// FileMeta returns the inode number, size, mtime and ctime recorded for
// the file with the id id, Links 2 for a file that had hard links (1
// otherwise); size, mtime and ctime -1, which describe no file, when the
// index has no entry for id (its file table proved corrupt).
func (ix *Index) FileMeta(id int) Meta {
	ix.complete()
	if id < 0 || id >= len(ix.inos) {
		return Meta{Size: -1, MtimeNs: -1, CtimeNs: -1}
	}
	m := Meta{Ino: ix.inos[id], Size: ix.sizes[id], MtimeNs: ix.mtimes[id], CtimeNs: ix.ctimes[id], Links: 1}
	if ix.flags[id]&flagLinked != 0 {
		m.Links = 2
	}
	runtime.KeepAlive(ix)
	return m
}

// RetryDue reports whether the entry id, recorded as not read, is to be
// read again at nowNs (ns since the Unix epoch): the file is not larger
// than UnreadMaxSize and the index was built UnreadRetry before nowNs.
// False for an entry that was read, or that the index does not have.
func (ix *Index) RetryDue(id int, nowNs int64) bool {
	ix.complete()
	if id < 0 || id >= len(ix.sizes) || kindOf(ix.flags[id]) != 0 {
		return false
	}
	due := ix.sizes[id] <= UnreadMaxSize && nowNs-ix.hdr.BuiltNs >= int64(UnreadRetry)
	runtime.KeepAlive(ix)
	return due
}

// corruptf returns an error wrapping ErrCorrupt.
func corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}

// littleEndian: the host's byte order is the files'.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// parse returns the Index of the index file data, which it uses in place
// (data must stay mapped while the Index is used).
func parse(data []byte) (*Index, error) {
	if !littleEndian {
		return nil, fmt.Errorf("index files are little endian: unsupported on this big-endian host")
	}
	if uintptr(unsafe.Pointer(unsafe.SliceData(data)))%8 != 0 {
		// Not mapped memory (a test's): copied to aligned memory.
		words := make([]uint64, (len(data)+7)/8)
		buf := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), len(data))
		copy(buf, data)
		data = buf
	}
	t, err := readFooter(data)
	if err != nil {
		return nil, err
	}
	l, err := t.check(uint64(len(data)))
	if err != nil {
		return nil, err
	}
	ix := &Index{Files: int(t.files), Bytes: int64(t.bytes), disk: &diskIndex{data: data}}
	if ix.hdr, err = parseHeader(data, &t); err != nil {
		return nil, err
	}
	if err := ix.parseFlags(data, &t, &l); err != nil {
		return nil, err
	}
	if err := ix.parseBlooms(data, &t, &l); err != nil {
		return nil, err
	}
	if err := ix.parseSegments(data, &t); err != nil {
		return nil, err
	}
	ix.disk.table.t, ix.disk.table.l = t, l
	return ix, nil
}

// readFooter checks data's magic and footer, and returns the footer.
func readFooter(data []byte) (trailer, error) {
	var t trailer
	if len(data) < len(diskMagic)+footerSize {
		return t, corruptf("truncated: %d bytes, less than an empty index's", len(data))
	}
	if !bytes.Equal(data[:6], diskMagic[:6]) {
		return t, corruptf("not an index file (bad magic %q)", data[:6])
	}
	if data[6] != diskVersion {
		return t, corruptf("format version %d, want %d", data[6], diskVersion)
	}
	if data[7] != diskMagic[7] {
		return t, corruptf("byte order %q, want %q (little endian)", data[7], diskMagic[7])
	}
	f := data[len(data)-footerSize:]
	var w [16]uint64
	for i := range w {
		w[i] = binary.LittleEndian.Uint64(f[8*i:])
	}
	if xxhash.Sum64(f[:15*8]) != w[15] {
		return t, corruptf("footer checksum mismatch (truncated or altered file)")
	}
	if !bytes.Equal(f[:8], diskMagic[:]) || w[1] != orderMark {
		return t, corruptf("bad footer magic or byte order mark")
	}
	t = trailer{files: w[2], bytes: w[3], nsegs: w[4], nblooms: w[5], bloomWords: w[6], pathBytes: w[7],
		tableOff: w[8], headerOff: w[9], headerLen: w[10], segTabOff: w[11],
		headerSum: w[12], tableSum: w[13], dirSum: w[14]}
	return t, nil
}

// check checks that t's sections follow each other and fill a file of
// size bytes, and returns the file table's layout.
func (t *trailer) check(size uint64) (tableLayout, error) {
	var l tableLayout
	// Every count bounded by the size, the sums below cannot overflow.
	switch {
	case size >= 1<<56:
		return l, corruptf("size %d out of range", size)
	case t.files > size/8, t.nblooms > size/8, t.bloomWords > size/8, t.pathBytes > size,
		t.nsegs > size/segEntrySize, t.headerLen > size, t.bytes > 1<<62:
		return l, corruptf("counts out of range for a file of %d bytes (files %d, blooms %d of %d words, paths %d bytes, segments %d, header %d bytes)",
			size, t.files, t.nblooms, t.bloomWords, t.pathBytes, t.nsegs, t.headerLen)
	case t.tableOff < uint64(len(diskMagic)) || t.tableOff%8 != 0 || t.tableOff > size:
		return l, corruptf("file table offset %d out of range", t.tableOff)
	}
	l = layoutTable(t.tableOff, t)
	switch {
	case l.end != t.headerOff:
		return l, corruptf("file table ends at %d, the header starts at %d", l.end, t.headerOff)
	case t.headerLen < headerFixed || t.headerOff+pad8(t.headerLen) != t.segTabOff:
		return l, corruptf("header at %d of %d bytes does not end at the seg table (%d)", t.headerOff, t.headerLen, t.segTabOff)
	case t.segTabOff+t.nsegs*segEntrySize != size-footerSize:
		return l, corruptf("seg table at %d of %d segments does not end at the footer (%d)", t.segTabOff, t.nsegs, size-footerSize)
	}
	return l, nil
}

// parseHeader checks and returns the header.
func parseHeader(data []byte, t *trailer) (Header, error) {
	if xxhash.Sum64(data[t.headerOff:t.segTabOff]) != t.headerSum {
		return Header{}, corruptf("header checksum mismatch")
	}
	h := data[t.headerOff : t.headerOff+t.headerLen]
	built, rootLen, keyLen := binary.LittleEndian.Uint64(h), binary.LittleEndian.Uint64(h[8:]), binary.LittleEndian.Uint64(h[16:])
	rest := t.headerLen - headerFixed
	if rootLen > rest || keyLen != rest-rootLen {
		return Header{}, corruptf("header lengths %d+%d, want %d in all", rootLen, keyLen, rest)
	}
	h = h[headerFixed:]
	return Header{Root: string(h[:rootLen]), Key: string(h[rootLen:]), BuiltNs: int64(built)}, nil
}

// ints returns the n numbers at off in data (in range, aligned) in place.
func ints[T uint32 | uint64 | int64](data []byte, off, n uint64) []T {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&data[off])), n)
}

// parseFlags sets ix's flags and document spans from the file table, what
// a Plan needs (checked for range, not against the table's checksum:
// parseEntries).
func (ix *Index) parseFlags(data []byte, t *trailer, l *tableLayout) error {
	n := t.files
	ix.flags = data[l.flags : l.flags+n : l.flags+n]
	for id, f := range ix.flags {
		if kindOf(f) > flagBinary {
			return corruptf("file %d: flags %#x", id, f)
		}
	}
	var ok bool
	if ix.spans, ix.docs, ok = spansOf(ints[uint32](data, l.docEnds, n)); !ok {
		return corruptf("document ends do not increase")
	}
	return nil
}

// parseEntries checks the file table's checksum and sets ix's per-file
// entries and paths from it (checked).
func (ix *Index) parseEntries(data []byte, t *trailer, l *tableLayout) error {
	if xxhash.Sum64(data[t.tableOff:t.headerOff]) != t.tableSum {
		return corruptf("file table checksum mismatch")
	}
	n := t.files
	ix.sums = ints[uint64](data, l.sums, n)
	ix.inos = ints[uint64](data, l.inos, n)
	ix.sizes = ints[int64](data, l.sizes, n)
	ix.mtimes = ints[int64](data, l.mtimes, n)
	ix.ctimes = ints[int64](data, l.ctimes, n)
	ends := ints[uint64](data, l.pathEnds, n)
	// The paths are used in place, as the other arrays: strings into the
	// mapping (copying them to the heap, megabytes on a large tree, cost a
	// fresh process's first grep more than the rest of the open). They
	// never leave the package: Lookup, find and the Live compare them,
	// while the Index, and so the mapping, is in use.
	raw := data[l.pathBlob : l.pathBlob+t.pathBytes]
	blob := unsafe.String(unsafe.SliceData(raw), len(raw))
	ix.paths = make([]string, n)
	prev := uint64(0)
	for id, end := range ends {
		if end < prev || end > t.pathBytes {
			return corruptf("file %d: path end %d out of range [%d, %d]", id, end, prev, t.pathBytes)
		}
		ix.paths[id] = blob[prev:end]
		if id > 0 && ix.paths[id] <= ix.paths[id-1] {
			return corruptf("file %d: path %q not after %q", id, ix.paths[id], ix.paths[id-1])
		}
		prev = end
	}
	if prev != t.pathBytes {
		return corruptf("paths of %d bytes, want %d", prev, t.pathBytes)
	}
	return nil
}

// parseBlooms sets ix's blooms from the file table's (checked).
func (ix *Index) parseBlooms(data []byte, t *trailer, l *tableLayout) error {
	if t.nblooms == 0 {
		if t.bloomWords != 0 {
			return corruptf("%d bloom words without blooms", t.bloomWords)
		}
		return nil
	}
	ids := ints[uint32](data, l.bloomIDs, t.nblooms)
	ends := ints[uint64](data, l.bloomEnds, t.nblooms)
	words := ints[uint64](data, l.bloomWords, t.bloomWords)
	prev := uint64(0)
	for i, id := range ids {
		switch {
		case uint64(id) >= t.files || i > 0 && id <= ids[i-1]:
			return corruptf("bloom %d: file id %d out of order or range", i, id)
		case kindOf(ix.flags[id]) != flagBinary:
			return corruptf("bloom %d: file %d is not binary", i, id)
		case ends[i] < prev || ends[i] > t.bloomWords:
			return corruptf("bloom %d: end %d out of range [%d, %d]", i, ends[i], prev, t.bloomWords)
		}
		prev = ends[i]
	}
	if prev != t.bloomWords {
		return corruptf("blooms of %d words, want %d", prev, t.bloomWords)
	}
	ix.blooms = bloomTable{ids: ids, ends: ends, words: words}
	return nil
}

// parseSegments sets ix's postings from the seg table, and checks the
// postings directory's checksum.
func (ix *Index) parseSegments(data []byte, t *trailer) error {
	tab := data[t.segTabOff : t.segTabOff+t.nsegs*segEntrySize]
	size := uint64(len(data))
	d := xxhash.New()
	ix.segs = make([]postings, t.nsegs)
	ix.disk.blobs = make([]blobRef, t.nsegs)
	next := uint64(len(diskMagic))
	for i := range ix.segs {
		e := tab[i*segEntrySize:]
		off, n, blobLen := binary.LittleEndian.Uint64(e), binary.LittleEndian.Uint64(e[8:]), binary.LittleEndian.Uint64(e[16:])
		if off != next || n > size/8 || blobLen > size {
			return corruptf("segment %d at %d of %d trigrams and %d bytes, want it at %d", i, off, n, blobLen, next)
		}
		blobOff := off + 2*pad8(4*n)
		end := blobOff + pad8(blobLen)
		if end > t.tableOff {
			return corruptf("segment %d at %d ends at %d, past the file table (%d)", i, off, end, t.tableOff)
		}
		d.Write(data[off:blobOff])
		ix.segs[i] = postings{tris: ints[uint32](data, off, n), ends: ints[uint32](data, off+pad8(4*n), n),
			blob: data[blobOff : blobOff+blobLen : blobOff+blobLen]}
		ix.disk.blobs[i] = blobRef{off: blobOff, end: end, sum: binary.LittleEndian.Uint64(e[24:])}
		next = end
	}
	if next != t.tableOff {
		return corruptf("segments end at %d, the file table starts at %d", next, t.tableOff)
	}
	d.Write(tab)
	if d.Sum64() != t.dirSum {
		return corruptf("postings directory checksum mismatch")
	}
	return nil
}
