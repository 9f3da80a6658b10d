package index

import (
	"testing"
	"time"
)

// TestLiveLinkedNeedsCheck: an entry of a file with hard links is relied
// on (Skip) only when the metadata now is the one recorded, and its mtime
// older than the read by RacySlack; entries of files with one name need no
// check (events cover them).
func TestLiveLinkedNeedsCheck(t *testing.T) {
	now := time.Now().UnixNano()
	old := now - int64(time.Hour)
	linked := Meta{Ino: 7, Links: 2, Size: 5, MtimeNs: old, CtimeNs: old + 1}
	b := Builder{BuiltNs: now}
	b.Add("a.txt", []byte("hello"), true, linked)
	b.Add("b.txt", []byte("other"), true, Meta{Ino: 8, Links: 1, Size: 5, MtimeNs: old})
	b.Add("racy.txt", []byte("third"), true, Meta{Ino: 9, Links: 2, Size: 5, MtimeNs: now - int64(time.Second)})
	l := NewLive("/r")
	l.Begin().Install(b.Finish())
	p := l.Plan(need(t, "nothing", false), false)
	for _, c := range []struct {
		rel  string
		want bool
	}{{"a.txt", true}, {"b.txt", false}, {"racy.txt", true}} {
		id := p.Lookup(c.rel)
		if d := p.DecideAt(c.rel, id); d != Skip {
			t.Fatalf("%s: %d, want Skip", c.rel, d)
		}
		if got := p.NeedsCheck(c.rel, id, Skip); got != c.want {
			t.Fatalf("%s: NeedsCheck %t, want %t", c.rel, got, c.want)
		}
	}
	id := p.Lookup("a.txt")
	if !p.Confirms("a.txt", id, linked) {
		t.Fatal("the metadata recorded does not confirm its entry")
	}
	for name, m := range map[string]Meta{
		"inode": {Ino: 70, Links: 2, Size: 5, MtimeNs: old, CtimeNs: old + 1},
		"size":  {Ino: 7, Links: 2, Size: 6, MtimeNs: old, CtimeNs: old + 1},
		"mtime": {Ino: 7, Links: 2, Size: 5, MtimeNs: old + 1, CtimeNs: old + 1},
		"ctime": {Ino: 7, Links: 2, Size: 5, MtimeNs: old, CtimeNs: old + 2},
	} {
		if p.Confirms("a.txt", id, m) {
			t.Fatalf("another %s confirms the entry", name)
		}
	}
	racy := Meta{Ino: 9, Links: 2, Size: 5, MtimeNs: now - int64(time.Second)}
	if p.Confirms("racy.txt", p.Lookup("racy.txt"), racy) {
		t.Fatal("an entry whose mtime is within RacySlack of its read is trusted")
	}
	// Read again into the overlay, aged: the overlay's entry is checked.
	j := l.Begin()
	m2 := Meta{Ino: 9, Links: 2, Size: 5, MtimeNs: old, CtimeNs: old}
	j.Add("racy.txt", []byte("third"), true, m2)
	j.Commit()
	p = l.Plan(need(t, "nothing", false), false)
	if d := p.Decide("racy.txt"); d != Skip || !p.NeedsCheck("racy.txt", -1, d) || !p.Confirms("racy.txt", -1, m2) {
		t.Fatalf("overlay entry: %d %t %t", d, p.NeedsCheck("racy.txt", -1, d), p.Confirms("racy.txt", -1, m2))
	}
	if p.Confirms("racy.txt", -1, Meta{Ino: 9, Links: 2, Size: 5, MtimeNs: old, CtimeNs: old + 5}) {
		t.Fatal("the overlay's entry confirmed by another ctime")
	}
}

// TestUnreadRetry: an entry recorded as not read is read again (Fresh) once
// UnreadRetry has passed since its read, unless the file is larger than
// grep reads; in a Live (base and overlay) and in an index alone.
func TestUnreadRetry(t *testing.T) {
	now := time.Now().UnixNano()
	for _, c := range []struct {
		name  string
		built int64
		size  int64
		want  Decision
	}{
		{"just read", now, 10, Search},
		{"read long ago", now - int64(2*UnreadRetry), 10, Fresh},
		{"too large, long ago", now - int64(2*UnreadRetry), UnreadMaxSize + 1, Search},
	} {
		b := Builder{BuiltNs: c.built}
		b.Add("u.txt", nil, false, Meta{Ino: 3, Links: 1, Size: c.size, MtimeNs: 1})
		ix := b.Finish()
		if d := ix.Plan(need(t, "hello", false), false).Decide("u.txt"); d != c.want {
			t.Errorf("%s, index: %d, want %d", c.name, d, c.want)
		}
		if ix.RetryDue(0, now) != (c.want == Fresh) {
			t.Errorf("%s: RetryDue %t", c.name, ix.RetryDue(0, now))
		}
		l := NewLive("/r")
		l.Begin().Install(ix)
		if d := l.Plan(need(t, "hello", false), false).Decide("u.txt"); d != c.want {
			t.Errorf("%s, live: %d, want %d", c.name, d, c.want)
		}
	}
	// In the overlay: read again (still unreadable) now, not due.
	b := Builder{BuiltNs: now - int64(2*UnreadRetry)}
	b.Add("u.txt", nil, false, Meta{Size: 10})
	l := NewLive("/r")
	l.Begin().Install(b.Finish())
	j := l.Begin()
	j.Add("u.txt", nil, false, Meta{Size: 10})
	j.Commit()
	if d := l.Plan(need(t, "hello", false), false).Decide("u.txt"); d != Search {
		t.Errorf("overlay, just retried: %d, want Search", d)
	}
	saved := UnreadRetry
	UnreadRetry = 0
	defer func() { UnreadRetry = saved }()
	if d := l.Plan(need(t, "hello", false), false).Decide("u.txt"); d != Fresh {
		t.Errorf("overlay, due: %d, want Fresh", d)
	}
}
