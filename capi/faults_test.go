//go:build cgo && fscache_faultinject && linux

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/fscache/fscache/internal/engine"
	fencing "github.com/fscache/fscache/internal/fence"
)

// The C entry points under fault injection (go test -tags
// fscache_faultinject): a panic in a goroutine of the call is its
// {"error":{"code":"internal",...}}; one after the call (the glob JSON
// built in the background) is recorded in fscache_cache_stats' dropped.

// faultTree writes dirs directories of files files each.
func faultTree(t *testing.T, dirs, files int) string {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for d := range dirs {
		dir := filepath.Join(root, fmt.Sprintf("d%03d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range files {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.ts", f)), []byte("alpha\nbeta\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

func fdCount(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// settleBack waits until the goroutines and descriptors are back to g and
// fds, failing after a minute.
func settleBack(t *testing.T, what string, g, fds int) {
	t.Helper()
	for i := 0; runtime.NumGoroutine() > g || fdCount(t) > fds; i++ {
		if i > 60000 {
			t.Fatalf("%s: %d goroutines, %d descriptors a minute after; %d, %d before", what, runtime.NumGoroutine(), fdCount(t), g, fds)
		}
		time.Sleep(time.Millisecond)
	}
}

// noBuild waits until no grep index is being built (a build walks: it
// would take the point armed for the call).
func noBuild(t *testing.T) {
	t.Helper()
	for i := 0; engine.IndexStats().Building > 0; i++ {
		if i > 60000 {
			t.Fatal("an index build did not end in a minute")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestFaultsAreTheCallsInternalError(t *testing.T) {
	opts := func(m map[string]any) string {
		m["path"] = faultTree(t, 70, 3) // a root per case: none is indexed
		b, _ := json.Marshal(m)
		return string(b)
	}
	for _, c := range []struct {
		kind string
		skip int
		op   string
		js   string
	}{
		{"call", 0, "glob", opts(map[string]any{"pattern": "**/*.ts"})},
		{"call", 0, "fuzzyFind", opts(map[string]any{"query": "f0001"})},
		{"walkList", 5, "glob", opts(map[string]any{"pattern": "**/*.ts"})},
		{"walkFinish", 2, "glob", opts(map[string]any{"pattern": "**/*.ts"})},
		{"grepSearch", 3, "grep", opts(map[string]any{"pattern": "alpha"})},
		{"grepFed", 3, "grep", opts(map[string]any{"pattern": "beta", "maxCount": 150})},
		{"matcher", 4, "grep", opts(map[string]any{"pattern": "alp(?=ha)", "outputMode": "count"})},
	} {
		t.Run(c.kind+" "+c.op, func(t *testing.T) {
			want := string(document(c.op, c.js))
			if !strings.HasPrefix(want, `{"ok":`) {
				t.Fatalf("before: %.200s", want)
			}
			fscache_go_invalidate(nil)
			noBuild(t)
			g, fds := runtime.NumGoroutine(), fdCount(t)
			k, _ := fencing.ParseKind(c.kind)
			fencing.Arm(k, c.skip)
			got := string(document(c.op, c.js))
			if fencing.Armed() {
				fencing.Disarm()
				t.Fatalf("the %s point was not reached: %.200s", c.kind, got)
			}
			if !strings.HasPrefix(got, `{"error":{"code":"internal","message":"internal error: panic in fscache's `+c.kind+` goroutine: fault injected in `+c.kind) {
				t.Fatalf("with the panic: %.300s", got)
			}
			fscache_go_invalidate(nil)
			settleBack(t, c.kind, g, fds)
			if again := string(document(c.op, c.js)); again != want {
				t.Fatalf("after: %.200s, want %.200s", again, want)
			}
		})
	}
}

func TestFaultInTheBackgroundGlobJSONIsDropped(t *testing.T) {
	root := faultTree(t, 10, 600) // more than one block
	js := fmt.Sprintf(`{"pattern":"d004/f0001.ts","path":%q,"cache":true}`, root)
	want := `{"ok":{"matches":[{"path":"d004/f0001.ts","fileType":1}],"totalMatches":1}}`
	if got := string(document("glob", js)); got != want { // fills the cache
		t.Fatalf("first: %s", got)
	}
	stats := func() map[string]droppedJSON {
		var s struct {
			OK struct {
				Dropped map[string]droppedJSON `json:"dropped"`
			} `json:"ok"`
		}
		if err := json.Unmarshal(take(unsafe.Pointer(fscache_go_cache_stats())), &s); err != nil {
			t.Fatal(err)
		}
		return s.OK.Dropped
	}
	before := stats()["globJSON"].Count
	fencing.Arm(fencing.GlobJSON, 0)
	if got := string(document("glob", js)); got != want { // a hit: its block's JSON built after
		t.Fatalf("hit: %s", got)
	}
	for i := 0; stats()["globJSON"].Count == before; i++ {
		if i > 60000 {
			t.Fatalf("no drop recorded in a minute (armed %v)", fencing.Armed())
		}
		time.Sleep(time.Millisecond)
	}
	if d := stats()["globJSON"]; d.Reason != "panic in globJSON: fault injected in globJSON" {
		t.Fatalf("dropped: %+v", d)
	}
	for range 3 {
		if got := string(document("glob", js)); got != want {
			t.Fatalf("after: %s", got)
		}
	}
	fscache_go_invalidate(nil)
}
