//go:build fscache_faultinject

package core

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fscache/fscache/internal/fence"
)

// A panic in a goroutine of a call (-tags fscache_faultinject) is the
// call's *Error with CodeInternal, and the next call answers.
func TestFaultIsTheCallsInternalError(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for d := range 40 {
		p := filepath.Join(root, fmt.Sprintf("d%02d", d), "a.txt")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("alpha\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	for _, k := range []fence.Kind{fence.WalkList, fence.GrepSearch} {
		fence.Arm(k, 3)
		_, err := Grep(ctx, GrepOptions{Pattern: "alpha", Path: root})
		var e *Error
		if fence.Armed() || !errors.As(err, &e) || e.Code != CodeInternal ||
			!strings.Contains(e.Message, "fault injected in "+k.String()) {
			fence.Disarm()
			t.Fatalf("%s: want the injected panic's internal error, got %v", k, err)
		}
		r, err := Grep(ctx, GrepOptions{Pattern: "alpha", Path: root})
		if err != nil || r.TotalMatches != 40 {
			t.Fatalf("%s: the grep after: %d matches, %v", k, r.TotalMatches, err)
		}
	}
}
