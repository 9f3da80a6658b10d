package index

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/search"
	"github.com/fscache/fscache/internal/watch"
)

func need(t *testing.T, pat string, ic bool) Query {
	t.Helper()
	return Compile(search.Needs(search.Options{Pattern: pat, IgnoreCase: ic}, MinLit))
}

// TestPlanNeverSkipsAMatch builds an index of random files and checks that
// no file holding a match of a pattern is skipped, and that files without
// the literal are.
func TestPlanNeverSkipsAMatch(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	words := []string{"alpha", "Beta", "gamma", "DELTA", "kelvin", "\u212aelvin", "straße", "foo_bar", "x\x00y"}
	var b Builder
	files := map[string]string{}
	var paths []string
	for i := range 3000 { // more than one segment's worth of pairs? no: many files
		p := fmt.Sprintf("d%02d/f%04d.txt", i%17, i)
		paths = append(paths, p)
	}
	// paths must be added sorted
	sortStrings(paths)
	for _, p := range paths {
		var sb strings.Builder
		for range 1 + rng.Intn(20) {
			sb.WriteString(words[rng.Intn(len(words))])
			sb.WriteByte(" \n"[rng.Intn(2)])
			sb.WriteString(fmt.Sprint(rng.Intn(1000)))
		}
		files[p] = sb.String()
		b.Add(p, []byte(files[p]), true, Meta{})
	}
	l := NewLive("/r")
	j := l.Begin()
	j.Install(b.Finish())
	for _, c := range []struct {
		pat string
		ic  bool
	}{{"alpha", false}, {"ALPHA", true}, {"beta|delta", true}, {"kelvin", true}, {"gam+a", false}, {"straße", false}, {"foo_bar [0-9]+", false}, {"(?i)STRASSE", false}} {
		m, err := search.Compile(search.Options{Pattern: c.pat, IgnoreCase: c.ic})
		if err != nil {
			t.Fatal(err)
		}
		q := need(t, c.pat, c.ic)
		p := l.Plan(q, true)
		skipped := 0
		for _, path := range paths {
			d := p.Decide(path)
			has, err := m.HasMatchCancel([]byte(files[path]), nil)
			if err != nil {
				t.Fatal(err)
			}
			if has && d == Skip {
				t.Fatalf("%q: %s skipped but matches", c.pat, path)
			}
			if d == Skip {
				skipped++
			}
		}
		t.Logf("%q: %s, %d of %d skipped", c.pat, q.String(), skipped, len(paths))
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func TestLiveEvents(t *testing.T) {
	b := Builder{BuiltNs: time.Now().UnixNano()} // c.txt's retry (UnreadRetry) not due
	b.Add("a/x.txt", []byte("hello world"), true, Meta{})
	b.Add("a/y.txt", []byte("nothing"), true, Meta{})
	b.Add("b.txt", []byte("bin\x00hello"), true, Meta{})
	b.Add("c.txt", nil, false, Meta{})
	l := NewLive("/r")
	l.Begin().Install(b.Finish())
	q := need(t, "hello", false)
	check := func(want map[string]Decision, fwm bool) {
		t.Helper()
		p := l.Plan(q, fwm)
		for path, d := range want {
			if got := p.Decide(path); got != d {
				t.Errorf("%s: %d, want %d", path, got, d)
			}
		}
	}
	check(map[string]Decision{"a/x.txt": Search, "a/y.txt": Skip, "b.txt": Skip, "c.txt": Search, "new": Fresh}, false)
	check(map[string]Decision{"b.txt": Search}, true)
	q2 := need(t, "nothing", false)
	if d := l.Plan(q2, true).Decide("b.txt"); d != Skip {
		t.Errorf("a binary file without the literal, filesWithMatches: %d", d)
	}
	// A write to a/y.txt while a job reads it: not installed.
	j := l.Begin()
	j.Add("a/y.txt", []byte("hello now"), true, Meta{})
	l.Events("/r", []watch.Event{{Dir: "/r/a", Name: "y.txt", Content: true}})
	j.Commit()
	check(map[string]Decision{"a/y.txt": Fresh}, false)
	j = l.Begin()
	j.Add("a/y.txt", []byte("hello now"), true, Meta{})
	j.Commit()
	check(map[string]Decision{"a/y.txt": Search}, false)
	// An identical rewrite brings the base entry back, unread.
	l.Events("/r", []watch.Event{{Dir: "/r/a", Name: "x.txt", Content: true}})
	check(map[string]Decision{"a/x.txt": Fresh}, false)
	j = l.Begin()
	j.Add("a/x.txt", []byte("hello world"), true, Meta{})
	j.Commit()
	check(map[string]Decision{"a/x.txt": Search}, false)
	if st := l.Stats(); st.Restored != 1 || st.Overlay != 1 {
		t.Fatalf("identical rewrite: %+v", st)
	}
	// A directory event drops everything under it.
	l.Events("/r", []watch.Event{{Dir: "/r", Name: "a", IsDir: true}})
	check(map[string]Decision{"a/y.txt": Fresh, "a/x.txt": Fresh, "b.txt": Skip}, false)
	l.Lost("overflow")
	if l.Plan(q, false) != nil {
		t.Fatal("a lost Live answered")
	}
}

func TestBloomHoldsEveryMember(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for n := range 300 {
		tris := make([]uint32, n)
		for i := range tris {
			tris[i] = uint32(rng.Intn(1 << 24))
		}
		b := newBloom(tris)
		for _, x := range tris {
			if !b.has(x) {
				t.Fatalf("%d trigrams: %06x missing", n, x)
			}
		}
	}
}
