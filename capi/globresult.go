package main

/*
#include <stdlib.h>
*/
import "C"

import (
	"strconv"
	"unsafe"

	"github.com/fscache/fscache/internal/engine"
	"github.com/fscache/fscache/internal/walk"
)

// The glob result crosses to the caller as one C string written once: the
// envelope and the matches' JSON go straight into the malloc'd buffer.
//
// On a cache hit the matches are copied from the snapshot's pre-encoded
// JSON (globJSON, built on the first hit and kept with the snapshot), so a
// repeated glob does, per entry, the pattern match and nothing else, and
// consecutive matches are copied as one run. Otherwise, and for retyped
// symlinks, the matches are encoded as they are copied.

// globJSON is the JSON of every entry of a snapshot, each followed by a
// comma: entry i is buf[off[i]:off[i+1]].
type globJSON struct {
	buf []byte
	off []uint32
}

// globJSONKey is the key of globJSON in scancache.Snapshot.Derived.
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

// globResult encodes sel as the complete C result.
func globResult(sel *engine.GlobSelection) *C.char {
	n := len(sel.Index)
	count := strconv.AppendInt(nil, int64(n), 10)
	if n == 0 {
		return cBytes([]byte(globOpen + globClose + string(count) + "}}"))
	}
	var pre *globJSON
	if sel.Hit {
		// Built on the snapshot's first hit: by this call when it returns
		// a large share of the snapshot (encoding every entry then costs
		// at most a few times encoding this result), otherwise in the
		// background while this call encodes its matches as it copies
		// them, so that a bounded query on a large tree (@-mention
		// discovery: 5,000 of 120,000 entries) does not wait for the
		// whole tree, and the next one finds it built.
		if d, ok := sel.Snapshot.DerivedIfBuilt(globJSONKey{}); ok {
			pre = d.(*globJSON)
		} else if 4*n >= len(sel.Snapshot.Entries) {
			pre = sel.Snapshot.Derived(globJSONKey{}, buildGlobJSON).(*globJSON)
		} else {
			go sel.Snapshot.Derived(globJSONKey{}, buildGlobJSON)
		}
	}
	// The size, exactly: the matches with their commas (the last comma
	// becomes ']'), then the tail.
	size := len(globOpen)
	var scratch []byte
	for i, j := range sel.Index {
		if _, ok := sel.Retyped[j]; !ok && pre != nil {
			size += int(pre.off[j+1] - pre.off[j])
			continue
		}
		scratch = appendGlobMatch(scratch[:0], sel.Match(i))
		size += len(scratch) + 1
	}
	size += len(globClose) - 1 + len(count) + 2
	p := cAlloc(size + 1)
	if p == nil {
		return nil
	}
	out := unsafe.Slice((*byte)(p), size+1)
	w := copy(out, globOpen)
	for i := 0; i < n; {
		j := sel.Index[i]
		if _, ok := sel.Retyped[j]; ok || pre == nil {
			scratch = appendGlobMatch(scratch[:0], sel.Match(i))
			w += copy(out[w:], scratch)
			out[w] = ','
			w++
			i++
			continue
		}
		// A run of consecutive entries, none retyped.
		k := i + 1
		for k < n && sel.Index[k] == sel.Index[k-1]+1 {
			if _, ok := sel.Retyped[sel.Index[k]]; ok {
				break
			}
			k++
		}
		w += copy(out[w:], pre.buf[pre.off[j]:pre.off[sel.Index[k-1]+1]])
		i = k
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
