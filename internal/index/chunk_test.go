package index

import (
	"bytes"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/fscache/fscache/internal/search"
)

// withChunk runs f with chunkSize set to n.
func withChunk(n int, f func()) {
	old := chunkSize
	chunkSize = n
	defer func() { chunkSize = old }()
	f()
}

// bigFiles returns n files in path order, large ones (several chunks of
// 1 KiB) among small ones, of random words and numbers.
func bigFiles(rng *rand.Rand, n int) []testFile {
	files := make([]testFile, n)
	for i := range files {
		var sb strings.Builder
		words := 1 + rng.Intn(30)
		if i%3 == 0 {
			words = 200 + rng.Intn(2000)
		}
		for range words {
			sb.WriteString(testWords[rng.Intn(len(testWords))])
			sb.WriteByte(" \n_"[rng.Intn(3)])
			fmt.Fprint(&sb, rng.Intn(1000))
		}
		files[i] = testFile{path: fmt.Sprintf("f%04d", i), data: []byte(sb.String()), ok: true,
			meta: Meta{Links: 1, Size: int64(sb.Len())}}
	}
	return files
}

// TestChunksNeverSkipAMatch: with large files indexed by chunks of 1 KiB,
// no file holding a literal is skipped, wherever the literal lies (across
// a chunk's end, longer than the overlap), in memory and from disk; and
// chunks rule out files that whole-file trigrams cannot.
func TestChunksNeverSkipAMatch(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	files := bigFiles(rng, 60)
	var mem, whole, disk *Index
	withChunk(1024, func() {
		mem = buildMem(files)
		withSegment(3000, func() { disk = openDisk(t, writeDisk(t, t.TempDir(), files, true)) })
	})
	whole = buildMem(files) // chunks of 64 KiB: one document per file here
	if len(mem.spans) == 0 || mem.docs <= mem.Files || len(whole.spans) != 0 || whole.docs != whole.Files {
		t.Fatalf("chunked: %d spans, %d documents for %d files; whole: %d spans", len(mem.spans), mem.docs, mem.Files, len(whole.spans))
	}
	if !slices.Equal(disk.spans, mem.spans) || disk.docs != mem.docs {
		t.Fatalf("from disk: %d spans %d documents, want %d %d", len(disk.spans), disk.docs, len(mem.spans), mem.docs)
	}
	gained := 0
	for k := range 400 {
		f := files[rng.Intn(len(files))].data
		var lit string
		switch {
		case k%4 == 0 && len(f) > 2048:
			// Across the end of the first chunk (1024), within the
			// overlap or past it.
			n := 3 + rng.Intn(600)
			i := max(0, 1024-rng.Intn(n))
			lit = string(f[i:min(len(f), i+n)])
		case k%4 == 1:
			// Two words that do not follow each other in most files.
			lit = testWords[rng.Intn(len(testWords))] + " " + testWords[rng.Intn(len(testWords))]
		default:
			i := rng.Intn(len(f))
			lit = string(f[i:min(len(f), i+3+rng.Intn(400))])
		}
		if len(lit) < MinLit {
			continue
		}
		q := Compile(search.Need{Op: search.NeedLit, Lit: lit})
		if len(lit) > chunkOverlap && q.op != search.NeedAnd {
			t.Fatalf("a literal of %d bytes compiled to %s", len(lit), q)
		}
		pm, pd, pw := mem.Plan(q, false), disk.Plan(q, false), whole.Plan(q, false)
		for _, tf := range files {
			dm, dd, dw := pm.Decide(tf.path), pd.Decide(tf.path), pw.Decide(tf.path)
			if bytes.Contains(tf.data, []byte(lit)) && dm == Skip {
				t.Fatalf("%s holds %q (%d bytes) but is skipped", tf.path, lit, len(lit))
			}
			if dm != dd {
				t.Fatalf("%s, %q: %d in memory, %d from disk", tf.path, lit, dm, dd)
			}
			if dw == Skip && dm != Skip {
				t.Fatalf("%s, %q: ruled out by whole files, not by chunks", tf.path, lit)
			}
			if dw != Skip && dm == Skip {
				gained++
			}
		}
	}
	if gained == 0 {
		t.Fatal("chunks ruled out no file that whole-file trigrams kept")
	}
	t.Logf("chunks ruled out %d more files", gained)
}

// TestChunkScattered: a literal whose trigrams are all in a large file but
// never in one chunk rules it out; placed across two chunks, it does not.
func TestChunkScattered(t *testing.T) {
	pad := strings.Repeat("0123456789 ", 300) // 3300 bytes
	scattered := "ErrShort " + pad + " ShortWrite " + pad
	across := pad[:1020] + "ErrShortWrite" + pad
	files := []testFile{
		{path: "a", data: []byte(scattered), ok: true},
		{path: "b", data: []byte(across), ok: true},
		{path: "c", data: []byte("small ErrShortWrite"), ok: true},
		{path: "d", data: []byte("\x00 binary ErrShortWrite"), ok: true},
		{path: "e", data: []byte(scattered), ok: true},
	}
	withChunk(1024, func() {
		ix := buildMem(files)
		if len(ix.spans) != 3 {
			t.Fatalf("%d spans, want 3: %v", len(ix.spans), ix.spans)
		}
		p := ix.Plan(Compile(search.Need{Op: search.NeedLit, Lit: "ErrShortWrite"}), true)
		for path, want := range map[string]Decision{"a": Skip, "b": Search, "c": Search, "d": Search, "e": Skip} {
			if got := p.Decide(path); got != want {
				t.Errorf("%s: %d, want %d", path, got, want)
			}
		}
		// An AND of two literals is decided by file, not by chunk.
		q := Compile(search.Need{Op: search.NeedAnd, Subs: []search.Need{{Op: search.NeedLit, Lit: "ErrShort"}, {Op: search.NeedLit, Lit: "ShortWrite"}}})
		if d := ix.Plan(q, false).Decide("a"); d != Search {
			t.Errorf("a, ErrShort and ShortWrite: %d, want %d", d, Search)
		}
	})
}

func TestSpansOf(t *testing.T) {
	spans, docs, ok := spansOf([]uint32{1, 2, 5, 6, 8})
	if want := []span{{2, 2, 3}, {4, 6, 2}}; !ok || docs != 8 || !slices.Equal(spans, want) {
		t.Fatalf("spansOf: %v %d %t, want %v 8 true", spans, docs, ok, want)
	}
	for _, bad := range [][]uint32{{0}, {1, 1}, {2, 1}} {
		if _, _, ok := spansOf(bad); ok {
			t.Fatalf("spansOf(%v) accepted", bad)
		}
	}
}

// TestMatchMemo: the matches kept for a query are those of that query
// only, and the memo keeps memoSize queries.
func TestMatchMemo(t *testing.T) {
	files := genFiles(rand.New(rand.NewSource(13)), 500)
	ix := buildMem(files)
	fresh := buildMem(files)
	var qs []Query
	for _, w := range testWords {
		qs = append(qs, need(t, w, false), need(t, w, true))
	}
	for round := range 2 {
		for _, q := range qs {
			p, want := ix.Plan(q, false), fresh.Plan(q, false)
			want.match = q.eval(fresh, fresh.docs)
			for _, f := range files {
				if p.Decide(f.path) != want.Decide(f.path) {
					t.Fatalf("round %d, %s: %s decided %d, want %d", round, q, f.path, p.Decide(f.path), want.Decide(f.path))
				}
			}
		}
	}
	if len(ix.memo.keys) != memoSize {
		t.Fatalf("%d queries kept, want %d", len(ix.memo.keys), memoSize)
	}
}
