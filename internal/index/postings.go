package index

import (
	"encoding/binary"
	"sort"
)

// postings maps trigrams to the sorted ids of the files holding them. Each
// list is stored in blob as the varint deltas of its ids plus one (the first
// delta is id+1); tris is sorted and ends[i] is where the list of tris[i]
// ends (it starts where the previous one ends).
type postings struct {
	tris []uint32
	ends []uint32
	blob []byte
}

// size is the memory the postings hold, in bytes.
func (p *postings) size() int64 {
	return int64(cap(p.tris))*4 + int64(cap(p.ends))*4 + int64(cap(p.blob))
}

// list returns the encoded list of t, nil when no file holds t; ok is
// false when ends does not delimit a list of blob (a corrupt index file).
func (p *postings) list(t uint32) (list []byte, ok bool) {
	i := sort.Search(len(p.tris), func(i int) bool { return p.tris[i] >= t })
	if i == len(p.tris) || p.tris[i] != t || i >= len(p.ends) {
		return nil, true
	}
	start := uint32(0)
	if i > 0 {
		start = p.ends[i-1]
	}
	end := p.ends[i]
	if start > end || uint64(end) > uint64(len(p.blob)) {
		return nil, false
	}
	return p.blob[start:end], true
}

// decodeInto adds the ids below lim of an encoded list to b, which holds n
// ids (lim <= n), and reads the list no further than its first id from
// lim on. It reports false when what it read is not a valid list (a
// corrupt index file): a malformed varint ends it, and an id not after the
// previous one or not below n is left out.
func decodeInto(list []byte, b bitset, n, lim int) bool {
	id, ok, partial := uint64(0), true, lim < n
	for len(list) > 0 {
		d, k := binary.Uvarint(list)
		if k <= 0 {
			return false
		}
		list = list[k:]
		id += d
		if partial && d != 0 && id > uint64(lim) {
			return ok // ids increase: none further is below lim
		}
		if d == 0 || id > uint64(n) || id > uint64(len(b))*64 {
			ok = false
			continue
		}
		b.set(uint32(id - 1))
	}
	return ok
}

// encoder appends lists to a postings, trigram by trigram in increasing
// order, ids in increasing order.
type encoder struct {
	p    postings
	cur  uint32
	last uint64 // last id + 1 of the current list; 0 before its first
	open bool
}

// put appends id to the list of t.
func (e *encoder) put(t, id uint32) {
	if !e.open || t != e.cur {
		e.close()
		e.cur, e.last, e.open = t, 0, true
	}
	e.p.blob = binary.AppendUvarint(e.p.blob, uint64(id)+1-e.last)
	e.last = uint64(id) + 1
}

func (e *encoder) close() {
	if e.open {
		e.p.tris = append(e.p.tris, e.cur)
		e.p.ends = append(e.p.ends, uint32(len(e.p.blob)))
		e.open = false
	}
}

// reset empties e for another segment, keeping its buffers.
func (e *encoder) reset() {
	e.p.tris, e.p.ends, e.p.blob = e.p.tris[:0], e.p.ends[:0], e.p.blob[:0]
	e.open = false
}

// encode appends pairs (trigram<<32 | id), sorted, and closes the last
// list, calling pause (when not nil) every pausePairs pairs.
func (e *encoder) encode(pairs []uint64, pause func()) {
	var prev uint64 = ^uint64(0)
	for i, x := range pairs {
		if i%pausePairs == pausePairs-1 {
			pauseIf(pause)
		}
		if x == prev {
			continue
		}
		prev = x
		e.put(uint32(x>>32), uint32(x))
	}
	e.close()
}

// done returns the postings, trimmed to their length.
func (e *encoder) done() postings {
	e.close()
	p := e.p
	p.tris = append([]uint32(nil), p.tris...)
	p.ends = append([]uint32(nil), p.ends...)
	p.blob = append([]byte(nil), p.blob...)
	return p
}

// fromPairs encodes pairs (trigram<<32 | id), sorted, calling pause (when
// not nil) every pausePairs pairs.
func fromPairs(pairs []uint64, pause func()) postings {
	var e encoder
	e.p.blob = make([]byte, 0, len(pairs)+len(pairs)/4)
	e.encode(pairs, pause)
	return e.done()
}
