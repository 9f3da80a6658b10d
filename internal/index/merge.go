package index

import (
	"container/heap"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"

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
// cut by trigram range. A list that does not decode is an error.
func merge(w *diskWriter, segs []postings, pause func()) error {
	h := make(cursorHeap, 0, len(segs))
	for j := range segs {
		if len(segs[j].tris) > 0 {
			h = append(h, cursor{seg: j, tri: segs[j].tris[0]})
		}
	}
	heap.Init(&h)
	var e encoder
	n := 0
	for len(h) > 0 {
		c := h[0]
		p := &segs[c.seg]
		start := uint32(0)
		if c.i > 0 {
			start = p.ends[c.i-1]
		}
		if start > p.ends[c.i] || p.ends[c.i] > uint32(len(p.blob)) {
			return fmt.Errorf("index: merge: segment %d's list %d out of range", c.seg, c.i)
		}
		if e.open && e.cur != c.tri && len(e.p.blob) >= mergeChunk {
			e.close()
			w.segment(&e.p)
			e.reset()
		}
		if err := e.splice(c.tri, p.blob[start:p.ends[c.i]]); err != nil {
			return fmt.Errorf("index: merge: segment %d: %w", c.seg, err)
		}
		if c.i+1 < len(p.tris) {
			h[0].i, h[0].tri = c.i+1, p.tris[c.i+1]
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
		if n++; n%pausePairs == 0 {
			pauseIf(pause)
		}
	}
	e.close()
	if len(e.p.tris) > 0 {
		w.segment(&e.p)
	}
	return w.err
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
