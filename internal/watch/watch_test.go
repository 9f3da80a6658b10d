package watch

import (
	"os"
	"path/filepath"
	"testing"
)

func TestInotifyEvents(t *testing.T) {
	w, err := New()
	if err == ErrUnsupported {
		t.Skip("no change notifications on this platform")
	}
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	for _, d := range []string{dir, sub} {
		if err := w.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	if w.Len() != 2 {
		t.Fatalf("Len %d", w.Len())
	}
	if ev, over, err := w.Drain(); len(ev) != 0 || over || err != nil {
		t.Fatalf("nothing happened yet: %v %v %v", ev, over, err)
	}
	os.WriteFile(filepath.Join(sub, "f"), []byte("x"), 0o644) // create, modify, close
	os.Rename(filepath.Join(sub, "f"), filepath.Join(dir, "g"))
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	// The events are readable as soon as the calls returned.
	ev, over, err := w.Drain()
	if over || err != nil {
		t.Fatal(over, err)
	}
	var created, content, movedOut, movedIn, mkdir bool
	for _, e := range ev {
		switch {
		case e.Dir == sub && e.Name == "f" && e.Content:
			content = true
		case e.Dir == sub && e.Name == "f" && !created:
			created = true
		case e.Dir == sub && e.Name == "f":
			movedOut = true
		case e.Dir == dir && e.Name == "g":
			movedIn = true
		case e.Dir == dir && e.Name == "d" && e.IsDir:
			mkdir = true
		}
	}
	if !created || !content || !movedOut || !movedIn || !mkdir {
		t.Errorf("events %+v", ev)
	}
	os.RemoveAll(sub)
	ev, _, _ = w.Drain()
	gone := false
	for _, e := range ev {
		gone = gone || (e.Dir == sub && e.Gone)
	}
	if !gone || w.Len() != 1 {
		t.Errorf("a deleted directory's watch: gone %v, Len %d, events %+v", gone, w.Len(), ev)
	}
	w.RemoveIfGone(dir)
	if w.Len() != 1 {
		t.Errorf("RemoveIfGone removed the watch of a directory still there: Len %d", w.Len())
	}
	if err := os.Rename(dir, dir+".moved"); err != nil {
		t.Fatal(err)
	}
	w.RemoveIfGone(dir)
	if w.Len() != 0 {
		t.Errorf("Len after RemoveIfGone of a moved directory: %d", w.Len())
	}
	w.Close()
	if _, _, err := w.Drain(); err == nil {
		t.Error("Drain after Close succeeded")
	}
	if err := w.Add(dir); err == nil {
		t.Error("Add after Close succeeded")
	}
}
