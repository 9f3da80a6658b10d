package index

import (
	"bytes"
	"math/bits"
	"os"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"
)

// File flags.
const (
	// flagText: the file was read and its trigrams are in the postings.
	flagText uint8 = 1 << iota
	// flagBinary: the file was read and holds a NUL byte in its first
	// BinaryPrefix bytes; its trigrams are kept in a Bloom filter
	// (bloom.go), not in the posting lists. Grep's content and count modes
	// search it and find nothing; filesWithMatches searches it unless the
	// filter rules it out.
	flagBinary
	// flagLinked marks the entry of a file that had more than one name
	// (hard links) when read, text, binary or unread: a write through a
	// name in another directory raises no event in this one, so a Live
	// relies on such an entry only once the file's metadata confirms it
	// (Plan.NeedsCheck, Plan.Confirms).
	flagLinked
)

// kindOf is the kind of an entry's flags: flagText, flagBinary or 0 (not
// read), flagLinked aside.
func kindOf(f uint8) uint8 { return f &^ flagLinked }

// linkedIf is flagLinked when m describes a file with hard links.
func linkedIf(m Meta) uint8 {
	if m.Links > 1 {
		return flagLinked
	}
	return 0
}

// BinaryPrefix is grep's binary rule: a NUL byte in a file's first
// BinaryPrefix bytes makes the content and count modes find nothing in it.
const BinaryPrefix = 64 << 10

// chunkSize is the length of the chunks a large text file is indexed in:
// a text file longer than chunkSize+chunkOverlap-1 bytes is indexed as one
// document per chunk, each with its own trigrams, so that a literal whose
// trigrams are scattered over a large file but never together in one
// chunk rules the file out (minified bundles, base64 test data: on Go's
// src, a rare identifier's candidates drop from 6.3 MB to 1.5 MB, for 14%
// more postings). Chunk k covers the bytes [k*chunkSize,
// (k+1)*chunkSize+chunkOverlap-1): any chunkOverlap consecutive bytes of
// the file lie together in one chunk. Readers do not depend on it (only
// on chunkOverlap, part of the format); a variable for the tests.
var chunkSize = 64 << 10

// chunkOverlap is how many consecutive bytes of a file are sure to lie in
// one of its documents (chunkSize): Compile looks a literal's trigrams up
// together at most chunkOverlap bytes at a time.
const chunkOverlap = 256

// pairsPerSegment bounds the (trigram, file) pairs a Builder sorts at once
// (16 MiB of them). A variable for the tests, which make many segments.
var pairsPerSegment = 1 << 21

// Index is the immutable content index of a set of files.
type Index struct {
	paths []string // sorted
	flags []uint8
	// sums are the xxhash of each read file's content: an identical
	// rewrite brings the file's entry back without reading its trigrams.
	sums []uint64
	// inos are the files' inode numbers (0: unknown), to find the other
	// names of a file that gains a hard link.
	inos []uint64
	// sizes and mtimes are the files' sizes and modification times (ns)
	// as observed when they were read (Meta).
	sizes  []int64
	mtimes []int64
	// ctimes are the files' status change times (ns), as observed when
	// they were read (Meta): for files with hard links (flagLinked).
	ctimes []int64
	// blooms are the trigram filters of the binary files, by id.
	blooms bloomTable
	// The posting lists hold document ids: one document per file, but
	// one per chunk for a large text file (chunkSize), the documents
	// numbered in file order. spans lists the files of more than one
	// document, by increasing id; docs is the number of documents.
	spans []span
	docs  int
	segs  []postings // by increasing document id ranges
	// Bytes is the content indexed (text files), Files the files listed.
	Bytes int64
	Files int

	hdr Header
	// disk is the mapping of an index from Open, nil for one built in
	// memory.
	disk *diskIndex
	// corrupt: a posting list did not decode (Corrupt, open.go).
	corrupt atomic.Bool
	// memo holds the matches of the latest queries (matchOf).
	memo struct {
		mu   sync.Mutex
		keys []string
		vals []bitset
	}
}

// memoSize is how many queries' matches an Index keeps (matchOf).
const memoSize = 8

// matchOf is q.eval(ix), the matches of the latest memoSize queries kept:
// the index never changes, so neither do they, and an agent repeats its
// greps. The bitset returned is shared: read only.
func (ix *Index) matchOf(q Query) bitset {
	k := q.String()
	m := &ix.memo
	m.mu.Lock()
	for i, key := range m.keys {
		if key == k {
			b := m.vals[i]
			m.mu.Unlock()
			return b
		}
	}
	m.mu.Unlock()
	b := q.eval(ix, ix.docs)
	m.mu.Lock()
	if len(m.keys) == memoSize {
		m.keys, m.vals = m.keys[1:], m.vals[1:]
	}
	m.keys, m.vals = append(m.keys, k), append(m.vals, b)
	m.mu.Unlock()
	return b
}

// Size is the heap memory held by ix, in bytes (an estimate of the
// strings'). The mapped file of an index from Open is not counted: its
// pages are the page cache's, shared with other processes, and the kernel
// reclaims them (its paths, read in place, too: only their headers are).
func (ix *Index) Size() int64 {
	if ix.disk != nil {
		// The paths' headers (made by complete): the count, not cap, is
		// read, which does not race with complete.
		return int64(ix.Files) * 16
	}
	n := int64(cap(ix.flags)) + int64(cap(ix.sums))*8 + int64(cap(ix.inos))*8 +
		int64(cap(ix.sizes))*8 + int64(cap(ix.mtimes))*8 + int64(cap(ix.ctimes))*8
	n += ix.blooms.size()
	for i := range ix.segs {
		n += ix.segs[i].size()
	}
	return n + ix.pathsSize()
}

// pathsSize is the memory of ix's paths.
func (ix *Index) pathsSize() int64 {
	n := int64(cap(ix.paths)) * 16
	for _, p := range ix.paths {
		n += int64(len(p))
	}
	return n
}

// span is a file indexed as more than one document: the file id, its
// first document and the number of its documents.
type span struct{ file, first, n uint32 }

// spansOf returns the spans of the files whose document counts end at
// ends (ends[i]: the documents of the files up to i), and the number of
// documents; ok is false when ends does not increase (a corrupt index
// file).
func spansOf(ends []uint32) (spans []span, docs int, ok bool) {
	prev := uint32(0)
	for id, e := range ends {
		if e <= prev {
			return nil, 0, false
		}
		if e-prev > 1 {
			spans = append(spans, span{file: uint32(id), first: prev, n: e - prev})
		}
		prev = e
	}
	return spans, int(prev), true
}

// filesOf returns the files of ix that have a document in docs (a set of
// document ids), as a set of file ids.
func (ix *Index) filesOf(docs bitset) bitset {
	if len(ix.spans) == 0 {
		return docs // one document per file: the same ids
	}
	out := newBitset(ix.Files)
	// shift is how many more documents than files precede the current
	// document: the spans before it, each n-1.
	shift, next := uint32(0), 0
	for w, word := range docs {
		for word != 0 {
			d := uint32(w*64 + bits.TrailingZeros64(word))
			word &= word - 1
			for next < len(ix.spans) && d >= ix.spans[next].first+ix.spans[next].n {
				shift += ix.spans[next].n - 1
				next++
			}
			if next < len(ix.spans) && d >= ix.spans[next].first {
				out.set(ix.spans[next].file)
				continue
			}
			if f := d - shift; int(f) < ix.Files {
				out.set(f)
			}
		}
	}
	return out
}

// docRange returns the first document of the file id and its number of
// documents.
func (ix *Index) docRange(id int) (first, n uint32) {
	i := sort.Search(len(ix.spans), func(i int) bool { return int(ix.spans[i].file) >= id })
	if i < len(ix.spans) && int(ix.spans[i].file) == id {
		return ix.spans[i].first, ix.spans[i].n
	}
	shift := uint32(0) // documents before id beyond one per file
	if i > 0 {
		p := ix.spans[i-1]
		shift = p.first + p.n - (p.file + 1)
	}
	return uint32(id) + shift, 1
}

// find returns the id of path, -1 when ix does not list it.
func (ix *Index) find(path string) int {
	ix.complete()
	i, ok := slices.BinarySearch(ix.paths, path)
	if !ok {
		return -1
	}
	return i
}

// Builder makes an Index from files given in path order.
type Builder struct {
	// Pause, when set, is called between steps of well under a
	// millisecond of work: the builder waits there while the process has
	// more urgent work.
	Pause func()
	// BuiltNs is when the build started (ns since the Unix epoch), before
	// any file was read: the Header's of an index Finish makes (WriteFile
	// takes its header's).
	BuiltNs int64

	paths  []string
	flags  []uint8
	ends   []uint32 // the documents of the files so far, by file
	docs   uint32
	sums   []uint64
	inos   []uint64
	sizes  []int64
	mtimes []int64
	ctimes []int64
	blooms map[uint32]bloom
	bsize  int64 // of the blooms
	pairs  []uint64
	tmp    []uint64 // sortPairs' scratch
	segs   []postings
	gs     gramSet
	bytes  int64
	size   int64 // of the segments so far
	// out is the index file of a spilled build (Spill), w the writer of
	// its scratch file (spillErr: it could not be made); enc is the
	// reused encoder of the spilled segments; done: the build is over.
	out      *os.File
	w        *diskWriter
	spillErr error
	enc      encoder
	done     bool
	// base is the index whose entries Keep reuses (Base); remap maps
	// its document ids to this build's, plus one (0: not kept).
	base  *Index
	remap []uint32
}

// Meta is what the index needs to know of a file beside its content.
type Meta struct {
	// Ino is the file's inode number (0: unknown).
	Ino uint64
	// Links is its hard link count. A file with more than one is indexed
	// as the others, marked (flagLinked): a write through another name is
	// reported in that name's directory only, so a Live checks such a
	// file's metadata before it relies on its entry.
	Links uint64
	// Size is the file's size in bytes, MtimeNs its modification time and
	// CtimeNs its status change time, in nanoseconds since the Unix epoch,
	// as observed before the file was read: an index written to a file
	// describes the files whose size and mtime are still these, and a
	// Live's entry of a file with hard links the file whose inode, size,
	// mtime and ctime are still these.
	Size    int64
	MtimeNs int64
	CtimeNs int64
}

// Add records the file path (its content data when ok; !ok: it could not
// be read, and is left to grep). Paths must come in increasing order; a
// path that is not valid UTF-8 is recorded as unread (grep names files by
// their displayed path, which differs). A file with hard links is marked
// (flagLinked).
func (b *Builder) Add(path string, data []byte, ok bool, m Meta) {
	doc := b.docs
	f := classify(path, data, ok)
	var sum uint64
	if f != 0 {
		sum = xxhash.Sum64(data)
	}
	var bl bloom
	if f == flagBinary {
		bl = newBloom(b.gs.ofPaused(data, b.Pause))
	}
	b.entry(path, m.Ino, m, sum, f|linkedIf(m), bl)
	b.docs++
	if f == flagText {
		b.bytes += int64(len(data))
		for k := 0; ; k += chunkSize {
			chunk := data[k:min(len(data), k+chunkSize+chunkOverlap-1)]
			for _, t := range b.gs.ofPaused(chunk, b.Pause) {
				b.pairs = append(b.pairs, uint64(t)<<32|uint64(doc))
			}
			if len(b.pairs) >= pairsPerSegment {
				b.flush()
			}
			if k+chunkSize+chunkOverlap-1 >= len(data) {
				break
			}
			doc++
			b.docs++
		}
	}
	b.ends = append(b.ends, b.docs)
}

// entry appends a file's entry to the file table (with its Bloom filter bl
// when binary); the caller adds its documents.
func (b *Builder) entry(path string, ino uint64, m Meta, sum uint64, f uint8, bl bloom) {
	if kindOf(f) == flagBinary {
		if b.blooms == nil {
			b.blooms = map[uint32]bloom{}
		}
		b.blooms[uint32(len(b.paths))] = bl
		b.bsize += int64(cap(bl))*8 + 48
	}
	b.paths = append(b.paths, path)
	b.inos = append(b.inos, ino)
	b.sizes = append(b.sizes, m.Size)
	b.mtimes = append(b.mtimes, m.MtimeNs)
	b.ctimes = append(b.ctimes, m.CtimeNs)
	b.sums = append(b.sums, sum)
	b.flags = append(b.flags, f)
}

func (b *Builder) flush() {
	if len(b.pairs) == 0 {
		return
	}
	if cap(b.tmp) < len(b.pairs) {
		b.tmp = make([]uint64, len(b.pairs), cap(b.pairs))
	}
	sorted := sortPairs(b.pairs, b.tmp[:len(b.pairs)], b.Pause)
	if b.w != nil {
		// Spilled: encoded into the reused encoder, written, dropped.
		b.enc.reset()
		b.enc.encode(sorted, b.Pause)
		b.w.segment(&b.enc.p)
	} else {
		s := fromPairs(sorted, b.Pause)
		b.segs = append(b.segs, s)
		b.size += s.size()
	}
	b.pairs = b.pairs[:0]
}

// Base makes Keep reuse the entries of old, an index written to a file
// (Open) or built in memory, for a build written by WriteFile (not
// Finish): WriteFile merges old's posting lists of the files kept with
// those of the files added. Call it before the first Add or Keep; old must
// stay open until WriteFile returns.
func (b *Builder) Base(old *Index) {
	if len(b.paths) > 0 || b.done {
		panic("index: Builder.Base after Add, Keep or the end of the build")
	}
	old.complete() // Keep reads its entries
	b.base, b.remap = old, make([]uint32, old.docs)
}

// Keep records the file path with the entry of the file id of the base
// index (Base), as if its content, which the caller knows to be unchanged
// since the base read it, were added again; m is the file's metadata now
// (its links decide flagLinked).
// Paths come in increasing order, with Add's. It reports false, recording
// nothing, when the base has no such file or did not read it (the caller
// adds it instead).
func (b *Builder) Keep(path string, id int, m Meta) bool {
	old := b.base
	if old == nil || id < 0 || id >= len(old.paths) || old.paths[id] != path || kindOf(old.flags[id]) == 0 || b.done {
		return false
	}
	f := kindOf(old.flags[id])
	ino := old.inos[id]
	if m.Ino != 0 {
		ino = m.Ino
	}
	b.entry(path, ino, m, old.sums[id], f|linkedIf(m), slices.Clone(old.blooms.get(uint32(id))))
	if f == flagText {
		b.bytes += old.sizes[id]
	}
	first, n := old.docRange(id)
	for k := range n {
		if first+k < uint32(len(b.remap)) {
			b.remap[first+k] = b.docs + k + 1
		}
	}
	b.docs += n
	b.ends = append(b.ends, b.docs)
	return true
}

// classify returns the flags of the file path with content data (ok: it
// was read).
func classify(path string, data []byte, ok bool) uint8 {
	switch {
	case !ok || !utf8.ValidString(path):
		return 0
	case bytes.IndexByte(data[:min(len(data), BinaryPrefix)], 0) >= 0:
		return flagBinary
	}
	return flagText
}

// Size estimates the memory the finished index will hold.
func (b *Builder) Size() int64 {
	return b.size + b.bsize + int64(len(b.pairs))*5/4 + int64(len(b.paths))*56
}

// Finish returns the index of the files added. It panics after Spill (the
// postings are in the file: WriteFile finishes such a build) or once the
// build is over.
func (b *Builder) Finish() *Index {
	if b.out != nil || b.done || b.base != nil {
		panic("index: Builder.Finish after Spill, Base, WriteFile or Finish")
	}
	b.flush()
	spans, docs, _ := spansOf(b.ends)
	ix := &Index{paths: slices.Clip(b.paths), flags: slices.Clip(b.flags), sums: slices.Clip(b.sums),
		inos: slices.Clip(b.inos), sizes: slices.Clip(b.sizes), mtimes: slices.Clip(b.mtimes), ctimes: slices.Clip(b.ctimes),
		blooms: tableOf(b.blooms), spans: spans, docs: docs, segs: slices.Clip(b.segs), Bytes: b.bytes, Files: len(b.paths),
		hdr: Header{BuiltNs: b.BuiltNs}}
	b.release()
	return ix
}

// release drops what the builder holds once the build is over.
func (b *Builder) release() {
	b.segs, b.pairs, b.tmp, b.gs, b.sums, b.inos, b.blooms = nil, nil, nil, gramSet{}, nil, nil, nil
	b.paths, b.flags, b.sizes, b.mtimes, b.ctimes, b.enc, b.done = nil, nil, nil, nil, nil, encoder{}, true
	b.ends, b.base, b.remap = nil, nil, nil
}

// sortPairs sorts pairs (trigram<<32 | id) by trigram, keeping the order of
// the ids of one trigram (they were added in increasing order): an LSD radix
// sort in two passes of 12 bits, with tmp (as long as pairs) as scratch.
func sortPairs(pairs, tmp []uint64, pause func()) []uint64 {
	src, dst := pairs, tmp
	var count [1<<12 + 1]int
	for shift := uint(32); shift < 56; shift += 12 {
		clear(count[:])
		for lo := 0; lo < len(src); lo += pausePairs {
			for _, x := range src[lo:min(len(src), lo+pausePairs)] {
				count[(x>>shift)&0xFFF+1]++
			}
			pauseIf(pause)
		}
		for i := 1; i < len(count); i++ {
			count[i] += count[i-1]
		}
		for lo := 0; lo < len(src); lo += pausePairs {
			for _, x := range src[lo:min(len(src), lo+pausePairs)] {
				b := (x >> shift) & 0xFFF
				dst[count[b]] = x
				count[b]++
			}
			pauseIf(pause)
		}
		src, dst = dst, src
	}
	return src
}

// pausePairs is how many pairs sortPairs and fromPairs handle between two
// calls of their pause function.
const pausePairs = 1 << 17

func pauseIf(pause func()) {
	if pause != nil {
		pause()
	}
}
