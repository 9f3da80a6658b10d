package index

import (
	"container/heap"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/fscache/fscache/internal/mmap"
)

// Merging. A build makes a postings segment every pairsPerSegment pairs,
// each with its own trigram directory: at 2 GB of text, a hundred
// segments whose directories (84 MB) a query searches one by one, and
// which Open checks. WriteFile merges them: each trigram's lists become
// one list, in segments cut by trigram range (mergeChunk bytes of lists
// each), so a trigram is in one segment and the directory holds each
// trigram once. A spilled build writes its segments to a scratch file
// beside the index file, merged from there.

// mergeChunk bounds the lists of one merged segment, in bytes (what the
// merge holds in memory).
var mergeChunk = 64 << 20

// scratchFor creates the scratch file of a build spilled to f, in f's
// directory, named after f (a leftover is swept with f's).
func scratchFor(f *os.File) (*os.File, error) {
	s, err := os.CreateTemp(filepath.Dir(f.Name()), filepath.Base(f.Name())+".spill-*")
	if err != nil {
		return nil, fmt.Errorf("index: scratch file for %s: %w", f.Name(), err)
	}
	return s, nil
}

// spilledSegments maps the scratch file w wrote and returns its segments.
// The caller closes the mapping.
func spilledSegments(w *diskWriter) ([]postings, *mmap.Mapping, error) {
	if w.err == nil {
		if err := w.bw.Flush(); err != nil {
			w.err = fmt.Errorf("index: write %s: %w", w.f.Name(), err)
		}
	}
	if w.err != nil {
		return nil, nil, w.err
	}
	m, err := mmap.Map(w.f)
	if err != nil {
		return nil, nil, fmt.Errorf("index: read back %s: %w", w.f.Name(), err)
	}
	data := m.Bytes()
	segs := make([]postings, len(w.segs))
	for i, e := range w.segs {
		blobOff := e.off + 2*pad8(4*e.ntris)
		if blobOff+e.blobLen > uint64(len(data)) {
			m.Close()
			return nil, nil, fmt.Errorf("index: read back %s: segment %d past the end", w.f.Name(), i)
		}
		segs[i] = postings{tris: ints[uint32](data, e.off, e.ntris),
			ends: ints[uint32](data, e.off+pad8(4*e.ntris), e.ntris), blob: data[blobOff : blobOff+e.blobLen]}
	}
	return segs, m, nil
}

// cursor is a segment's position in a merge.
type cursor struct {
	seg int // index in the merge's segments: lists of equal trigrams go in this order
	i   int // the trigram
	tri uint32
}

type cursorHeap []cursor

func (h cursorHeap) Len() int { return len(h) }
func (h cursorHeap) Less(i, j int) bool {
	return h[i].tri < h[j].tri || h[i].tri == h[j].tri && h[i].seg < h[j].seg
}
func (h cursorHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *cursorHeap) Push(x any)   { *h = append(*h, x.(cursor)) }
func (h *cursorHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// merge writes segs, whose id ranges increase in order, to w as segments
// cut by trigram range, with base's lists (nil: none) of the documents
// remap keeps (remap[old id] = new id + 1, 0: dropped; see Builder.Keep).
// A trigram's lists from segs alone are spliced; with base's, decoded,
// remapped and merged. A list that does not decode is an error.
func merge(w *diskWriter, segs []postings, base *Index, remap []uint32, pause func()) error {
	all, nNew := segs, len(segs)
	if base != nil {
		all = append(slices.Clip(segs), base.segs...)
	}
	h := make(cursorHeap, 0, len(all))
	for j := range all {
		if len(all[j].tris) > 0 {
			h = append(h, cursor{seg: j, tri: all[j].tris[0]})
		}
	}
	heap.Init(&h)
	var e encoder
	var lists [][]byte
	var fromBase []bool
	var news, olds []uint32
	n := 0
	for len(h) > 0 {
		// The lists of the smallest trigram, in segment order.
		t := h[0].tri
		lists, fromBase = lists[:0], fromBase[:0]
		for len(h) > 0 && h[0].tri == t {
			c := h[0]
			p := &all[c.seg]
			start := uint32(0)
			if c.i > 0 {
				start = p.ends[c.i-1]
			}
			if start > p.ends[c.i] || p.ends[c.i] > uint32(len(p.blob)) {
				return fmt.Errorf("index: merge: segment %d's list %d out of range", c.seg, c.i)
			}
			lists = append(lists, p.blob[start:p.ends[c.i]])
			fromBase = append(fromBase, c.seg >= nNew)
			if c.i+1 < len(p.tris) {
				h[0].i, h[0].tri = c.i+1, p.tris[c.i+1]
				heap.Fix(&h, 0)
			} else {
				heap.Pop(&h)
			}
		}
		if e.open && e.cur != t && len(e.p.blob) >= mergeChunk {
			e.close()
			w.segment(&e.p)
			e.reset()
		}
		if !slices.Contains(fromBase, true) {
			for _, list := range lists {
				if err := e.splice(t, list); err != nil {
					return fmt.Errorf("index: merge: %w", err)
				}
			}
		} else {
			news, olds = news[:0], olds[:0]
			for k, list := range lists {
				var ok bool
				if fromBase[k] {
					olds, ok = appendIDs(olds, list, remap)
				} else {
					news, ok = appendIDs(news, list, nil)
				}
				if !ok {
					return fmt.Errorf("index: merge: list of trigram %06x does not decode", t)
				}
			}
			if err := e.putMerged(t, olds, news); err != nil {
				return fmt.Errorf("index: merge: %w", err)
			}
		}
		if n += len(lists); n >= pausePairs {
			n = 0
			pauseIf(pause)
		}
	}
	e.close()
	if len(e.p.tris) > 0 {
		w.segment(&e.p)
	}
	return w.err
}

// appendIDs appends the ids of the encoded list to dst, through remap when
// not nil (remap[id] = new id + 1; 0 leaves the id out). ok is false when
// the list does not decode or its ids do not increase, or an id is out of
// remap's range.
func appendIDs(dst []uint32, list []byte, remap []uint32) ([]uint32, bool) {
	id := uint64(0)
	for len(list) > 0 {
		d, k := binary.Uvarint(list)
		if k <= 0 || d == 0 || id+d > 1<<32 {
			return dst, false
		}
		list = list[k:]
		id += d
		x := uint32(id - 1)
		if remap != nil {
			if int(x) >= len(remap) {
				return dst, false
			}
			if remap[x] == 0 {
				continue
			}
			x = remap[x] - 1
		}
		dst = append(dst, x)
	}
	return dst, true
}

// putMerged appends to the list of t the ids of a and b, each increasing,
// in increasing order. An id in both, or one not after the list's last,
// is an error (the two builds' documents cannot be the same).
func (e *encoder) putMerged(t uint32, a, b []uint32) error {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var x uint32
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			x, i = a[i], i+1
		default:
			x, j = b[j], j+1
		}
		if e.open && e.cur == t && uint64(x)+1 <= e.last {
			return fmt.Errorf("list of trigram %06x: id %d not after the previous one", t, x)
		}
		e.put(t, x)
	}
	return nil
}

// splice appends the encoded list to the list of t (its ids all greater
// than the ones of t so far): the first delta is re-encoded from the
// current last id, the others copied.
func (e *encoder) splice(t uint32, list []byte) error {
	if !e.open || t != e.cur {
		e.close()
		e.cur, e.last, e.open = t, 0, true
	}
	first, k := binary.Uvarint(list)
	if k <= 0 || first <= e.last {
		return fmt.Errorf("list of trigram %06x does not decode or goes back", t)
	}
	e.p.blob = binary.AppendUvarint(e.p.blob, first-e.last)
	e.p.blob = append(e.p.blob, list[k:]...)
	last := first
	for rest := list[k:]; len(rest) > 0; {
		d, k := binary.Uvarint(rest)
		if k <= 0 || d == 0 {
			return fmt.Errorf("list of trigram %06x does not decode", t)
		}
		last += d
		rest = rest[k:]
	}
	e.last = last
	return nil
}
