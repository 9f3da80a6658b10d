//go:build cgo

package main

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"
	"time"
	"unsafe"

	"github.com/fscache/fscache/internal/engine"
	"github.com/fscache/fscache/internal/scancache"
	"github.com/fscache/fscache/internal/walk"
)

// TestGlobResultAcrossBlocks encodes selections of a snapshot of several
// blocks (dense, sparse, out of path order, with retyped symlinks), on a
// hit and not, before and after the blocks' JSON is built, and checks each
// against the matches encoded one by one.
func TestGlobResultAcrossBlocks(t *testing.T) {
	const n = 10000 // more than two blocks
	es := make([]walk.Entry, n)
	for i := range es {
		es[i] = walk.Entry{Path: fmt.Sprintf("d%02d/f%05d.ts", i/400, i), Type: walk.File, Mtime: -1, Size: -1}
		if i%97 == 0 {
			es[i].Type = walk.Symlink
		}
	}
	snap := scancache.NewSnapshot(es, time.Now())
	every := func(step, from int) (idx []int32) {
		for i := from; i < n; i += step {
			idx = append(idx, int32(i))
		}
		return idx
	}
	reversed := every(7, 3)
	for i, j := 0, len(reversed)-1; i < j; i, j = i+1, j-1 {
		reversed[i], reversed[j] = reversed[j], reversed[i]
	}
	cases := map[string][]int32{
		"all": every(1, 0), "every 3rd": every(3, 1), "sparse": every(211, 5),
		"reversed": reversed, "one": {4095}, "block edges": {4094, 4095, 4096, 4097, 8191, 8192},
	}
	for round := range 2 { // the second finds blocks built by the first
		for name, idx := range cases {
			for _, hit := range []bool{true, false} {
				sel := &engine.GlobSelection{Snapshot: snap, Hit: hit, Index: idx,
					Retyped: map[int32]walk.FileType{}}
				for _, j := range idx {
					if es[j].Type == walk.Symlink && j%2 == 1 {
						sel.Retyped[j] = walk.File
					}
				}
				want := []byte(globOpen)
				for i := range idx {
					want = append(appendGlobMatch(want, sel.Match(i)), ',')
				}
				want = append(append(want[:len(want)-1], globClose...), strconv.Itoa(len(idx))+"}}"...)
				p := globResult(sel)
				got := goBytes(unsafe.Pointer(p))
				cFree(unsafe.Pointer(p))
				if !bytes.Equal(got, want) {
					t.Fatalf("round %d, %s, hit %v: the result differs from the matches encoded one by one", round, name, hit)
				}
			}
		}
		// Let the background builds of the first round end.
		for sp := range snap.Spans() {
			for i := 0; ; i++ {
				if _, ok := sp.Block.DerivedIfBuilt(globJSONKey{}); ok || i > 5000 {
					break
				}
				time.Sleep(time.Millisecond)
			}
		}
	}
}

// TestGlobResultChunks encodes, not on a hit, results of several chunks
// (directChunk) with long paths, escapes, and a match whose JSON is longer
// than a chunk's slack, and checks each against the matches encoded one by
// one.
func TestGlobResultChunks(t *testing.T) {
	var es []walk.Entry
	for i := range 4000 {
		p := fmt.Sprintf("d%02d/%s\"q\\%d.ts", i/100, bytes.Repeat([]byte{'a' + byte(i%26)}, 200+i%97), i)
		es = append(es, walk.Entry{Path: p, Type: walk.File, Mtime: int64(i), Size: int64(i * 3)})
	}
	// 4096 control bytes: 24 KB of JSON (\u0001 each), past the slack.
	es = append(es, walk.Entry{Path: "z/" + string(bytes.Repeat([]byte{1}, 4096)), Type: walk.File, Mtime: -1, Size: -1})
	for i := range 3000 {
		es = append(es, walk.Entry{Path: fmt.Sprintf("zz/%05d", i), Type: walk.Dir, Mtime: -1, Size: -1})
	}
	snap := scancache.NewSnapshot(es, time.Now())
	for _, step := range []int{1, 2, 5} {
		var idx []int32
		for i := 0; i < len(es); i += step {
			idx = append(idx, int32(i))
		}
		sel := &engine.GlobSelection{Snapshot: snap, Index: idx}
		want := []byte(globOpen)
		for i := range idx {
			want = append(appendGlobMatch(want, sel.Match(i)), ',')
		}
		want = append(append(want[:len(want)-1], globClose...), strconv.Itoa(len(idx))+"}}"...)
		if step == 1 && len(want) < 3*directChunk {
			t.Fatalf("the result is %d bytes: fewer than three chunks", len(want))
		}
		p := globResult(sel)
		got := goBytes(unsafe.Pointer(p))
		cFree(unsafe.Pointer(p))
		if !bytes.Equal(got, want) {
			t.Fatalf("every %d: the result (%d bytes) differs from the matches encoded one by one (%d bytes)", step, len(got), len(want))
		}
	}
}
