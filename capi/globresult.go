package main

/*
#include <stdlib.h>
*/
import "C"

import (
	"strconv"
	"unsafe"

	"github.com/fscache/fscache/internal/engine"
	fencing "github.com/fscache/fscache/internal/fence"
	"github.com/fscache/fscache/internal/scancache"
	"github.com/fscache/fscache/internal/walk"
)

// The glob result crosses to the caller as one C string written once: the
// envelope and the matches' JSON go straight into the malloc'd buffer.
//
// On a cache hit the matches are copied from the pre-encoded JSON of the
// snapshot's blocks (globJSON, built per block and kept with it, so a
// snapshot patched after a change shares it for every block it kept), and
// consecutive matches are copied as one run: a repeated glob does, per
// entry, the pattern match and nothing else. Otherwise, and for retyped
// symlinks, the matches are encoded as they are copied.

// globJSON is the JSON of every entry of a block, each followed by a
// comma: entry i is buf[off[i]:off[i+1]].
type globJSON struct {
	buf []byte
	off []uint32
}

// globJSONKey is the key of globJSON in scancache.Block.Derived.
type globJSONKey struct{}

func buildGlobJSON(entries []walk.Entry) any {
	size := 0
	for i := range entries {
		size += len(entries[i].Path) + 48
	}
	j := &globJSON{buf: make([]byte, 0, size), off: make([]uint32, len(entries)+1)}
	for i := range entries {
		j.buf = appendGlobMatch(j.buf, entries[i])
		j.buf = append(j.buf, ',')
		j.off[i+1] = uint32(len(j.buf))
	}
	return j
}

const (
	globOpen  = `{"ok":{"matches":[`
	globClose = `],"totalMatches":`
)

// globPiece is part of the matches' JSON: bytes of a block's globJSON (a
// run of matches) or, when pre is nil, direct[chunk][lo:hi] (consecutive
// matches encoded here).
type globPiece struct {
	pre           []byte
	chunk, lo, hi int
}

// directChunk is the size from which the matches encoded here go on in a
// new chunk. One buffer grown by append would copy itself at every
// doubling, up to megabytes at once (6 MB for 99k matches), and a copy
// cannot be preempted: the collector's mark phase, which must stop each
// goroutine in turn, spun waiting for it (a fifth of the CPU of an
// uncached glob of the 120k tree from C).
const directChunk = 256 << 10

// directSlack is the room a chunk keeps past directChunk for the match
// that crosses it (a path longer than that makes it grow once).
const directSlack = 8 << 10

// globResult encodes sel as the complete C result.
func globResult(sel *engine.GlobSelection) *C.char {
	n := len(sel.Index)
	count := strconv.AppendInt(nil, int64(n), 10)
	if n == 0 {
		return cBytes([]byte(globOpen + globClose + string(count) + "}}"))
	}
	// On a hit, a block's JSON is built by this call when the result is a
	// large share of the snapshot (encoding every entry then costs at most
	// a few times encoding this result); otherwise this call encodes the
	// matches of blocks not yet built as it copies them, and builds those
	// blocks after, in the background, so that a bounded query on a large
	// tree (@-mention discovery: 5,000 of 120,000 entries) does not wait
	// for the whole tree, and the next one finds them built.
	now := sel.Hit && 4*n >= sel.Snapshot.Len()
	var later []*scancache.Block
	var pieces []globPiece
	var direct [][]byte // chunks (directChunk)
	size := len(globOpen)
	for i := 0; i < n; {
		j := int(sel.Index[i])
		_, retyped := sel.Retyped[sel.Index[i]]
		var pre *globJSON
		b, k, end := sel.Snapshot.Locate(j)
		if sel.Hit && !retyped {
			if d, ok := b.DerivedIfBuilt(globJSONKey{}); ok {
				pre = d.(*globJSON)
			} else if now {
				pre = b.Derived(globJSONKey{}, buildGlobJSON).(*globJSON)
			} else if len(later) == 0 || later[len(later)-1] != b {
				later = append(later, b)
			}
		}
		if pre == nil {
			if len(direct) == 0 || len(direct[len(direct)-1]) >= directChunk {
				direct = append(direct, make([]byte, 0, directChunk+directSlack))
			}
			c := len(direct) - 1
			lo := len(direct[c])
			direct[c] = append(appendGlobMatch(direct[c], sel.Match(i)), ',')
			hi := len(direct[c])
			if k := len(pieces) - 1; k >= 0 && pieces[k].pre == nil && pieces[k].chunk == c && pieces[k].hi == lo {
				pieces[k].hi = hi // follows the last match encoded here
			} else {
				pieces = append(pieces, globPiece{chunk: c, lo: lo, hi: hi})
			}
			size += hi - lo
			i++
			continue
		}
		// A run of consecutive entries of the block, none retyped.
		r := i + 1
		for r < n && int(sel.Index[r]) == int(sel.Index[r-1])+1 && int(sel.Index[r]) < end {
			if _, ok := sel.Retyped[sel.Index[r]]; ok {
				break
			}
			r++
		}
		js := pre.buf[pre.off[k]:pre.off[k+r-i]]
		pieces = append(pieces, globPiece{pre: js})
		size += len(js)
		i = r
	}
	if len(later) > 0 {
		// After the call: a panic drops what is left (each block's JSON
		// is built again when needed) and is recorded.
		fencing.Background(fencing.GlobJSON, func() {
			for _, b := range later {
				fencing.Point(fencing.GlobJSON)
				b.Derived(globJSONKey{}, buildGlobJSON)
			}
		})
	}
	return writeGlobResult(pieces, direct, count, size)
}

// writeGlobResult copies the result's pieces (prebuilt JSON, or ranges of
// direct's chunks), each match followed by a comma, between globOpen and
// the tail into C memory of the exact size: size (the opening and the
// pieces) plus the tail, the last comma becoming ']'.
func writeGlobResult(pieces []globPiece, direct [][]byte, count []byte, size int) *C.char {
	size += len(globClose) - 1 + len(count) + 2
	p := cAlloc(size + 1)
	if p == nil {
		return nil
	}
	out := unsafe.Slice((*byte)(p), size+1)
	w := copy(out, globOpen)
	for _, pc := range pieces {
		if pc.pre != nil {
			w += copy(out[w:], pc.pre)
		} else {
			w += copy(out[w:], direct[pc.chunk][pc.lo:pc.hi])
		}
	}
	w-- // the last comma
	w += copy(out[w:], globClose)
	w += copy(out[w:], count)
	w += copy(out[w:], "}}")
	out[w] = 0
	if w != size {
		panic("globResult: size mismatch")
	}
	return (*C.char)(p)
}
