package scancache

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/fscache/fscache/internal/watch"
)

// recorder is a Listener that keeps what it hears.
type recorder struct {
	mu     sync.Mutex
	events []watch.Event
	lost   []string
}

func (r *recorder) Events(_ string, evs []watch.Event) {
	r.mu.Lock()
	r.events = append(r.events, evs...)
	r.mu.Unlock()
}

func (r *recorder) Lost(reason string) {
	r.mu.Lock()
	r.lost = append(r.lost, reason)
	r.mu.Unlock()
}

func (r *recorder) heard(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ev := range r.events {
		if ev.Name == name {
			return true
		}
	}
	return false
}

func TestListenerHearsEventsBeforeAnswerAndLossOnOverflow(t *testing.T) {
	var ws []*hooked
	c := hookedCache(t, long, 0, &ws)
	root := tree(t, "a/b.txt", "c.txt")
	k := Key{Root: root, Gitignore: true}
	r := &recorder{}
	if _, _, err := c.Listen(k, nil, r); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a", "b.txt"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Current(k, nil, r); err != nil {
		t.Fatal(err)
	}
	if !r.heard("b.txt") {
		t.Fatal("a write was not heard before Current answered")
	}
	ws[0].mu.Lock()
	ws[0].overflow = true
	ws[0].mu.Unlock()
	if _, err := c.Current(k, nil, r); err != ErrNotWatched {
		t.Fatalf("Current after an overflow: %v", err)
	}
	if len(r.lost) != 1 || r.lost[0] != ReasonOverflow {
		t.Fatalf("lost: %v", r.lost)
	}
	// A new watcher does not serve the old listener.
	if _, err := c.Current(k, nil, r); err != ErrNotWatched {
		t.Fatalf("Current with a new watcher: %v", err)
	}
	c.InvalidateAll()
	r2 := &recorder{}
	if _, _, err := c.Listen(k, nil, r2); err != nil {
		t.Fatal(err)
	}
	c.InvalidateAll()
	if len(r2.lost) != 1 || r2.lost[0] != ReasonClosed {
		t.Fatalf("lost on InvalidateAll: %v", r2.lost)
	}
}

func TestListenUnwatched(t *testing.T) {
	c := New(long, nil) // watching off
	root := tree(t, "a.txt")
	if _, _, err := c.Listen(Key{Root: root}, nil, &recorder{}); err != ErrNotWatched {
		t.Fatalf("Listen without watching: %v", err)
	}
}
