package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/fscache/fscache/internal/search"
)

// testFile is a file fed to the builders of the tests.
type testFile struct {
	path string
	data []byte
	ok   bool
	meta Meta
}

var testWords = []string{"alpha", "Beta", "gamma", "DELTA", "kelvin", "\u212aelvin", "straße", "foo_bar",
	"quux", "zebra", "Needle", "haystack", "lorem", "ipsum"}

// genFiles returns n files in path order: text, some binary (a NUL in
// their first bytes), some unread, one with an invalid UTF-8 path, some
// with hard links.
func genFiles(rng *rand.Rand, n int) []testFile {
	paths := make([]string, 0, n)
	for i := range n {
		paths = append(paths, fmt.Sprintf("d%02d/s%d/f%05d.txt", i%23, i%5, i))
	}
	if n > 10 {
		paths[3] = "bad\xffname"
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	files := make([]testFile, len(paths))
	for i, p := range paths {
		var sb strings.Builder
		if rng.Intn(10) == 0 {
			sb.WriteString("\x00bin")
		}
		for range rng.Intn(30) {
			sb.WriteString(testWords[rng.Intn(len(testWords))])
			sb.WriteByte(" \n"[rng.Intn(2)])
			fmt.Fprint(&sb, rng.Intn(10000))
		}
		m := Meta{Ino: uint64(1000 + i), Links: 1, Size: int64(sb.Len()), MtimeNs: 1e18 + rng.Int63n(1e15)}
		if rng.Intn(50) == 0 {
			m.Links = 2
		}
		files[i] = testFile{path: p, data: []byte(sb.String()), ok: rng.Intn(40) != 0, meta: m}
	}
	return files
}

// withSegment runs f with pairsPerSegment set to n, and the merged
// segments' lists cut at about as many bytes (so that a file has several
// segments either way).
func withSegment(n int, f func()) {
	old, oldChunk := pairsPerSegment, mergeChunk
	pairsPerSegment, mergeChunk = n, n
	defer func() { pairsPerSegment, mergeChunk = old, oldChunk }()
	f()
}

func buildMem(files []testFile) *Index {
	var b Builder
	for _, f := range files {
		b.Add(f.path, f.data, f.ok, f.meta)
	}
	return b.Finish()
}

var testHeader = Header{Root: "/some/root", Key: "policy:v1 hidden=false", BuiltNs: 1234567890123456789}

// writeDisk writes the index of files to a new file of dir (spill: through
// Spill) and returns its path.
func writeDisk(t testing.TB, dir string, files []testFile, spill bool) string {
	t.Helper()
	path := filepath.Join(dir, fmt.Sprintf("ix-%d-%t", len(files), spill))
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b Builder
	if spill {
		b.Spill(f)
	}
	for _, tf := range files {
		b.Add(tf.path, tf.data, tf.ok, tf.meta)
	}
	if spill && len(b.segs) != 0 {
		t.Fatalf("spilling: %d segments held in memory", len(b.segs))
	}
	if err := b.WriteFile(f, testHeader); err != nil {
		t.Fatal(err)
	}
	return path
}

func openDisk(t testing.TB, path string) *Index {
	t.Helper()
	ix, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// randomQueries returns queries of the words, of random substrings of the
// files, and of their combinations.
func randomQueries(t *testing.T, rng *rand.Rand, files []testFile, n int) []Query {
	var qs []Query
	pats := []string{"alpha", "beta|delta", "kelvin", "straße", "foo_bar [0-9]+", "(?i)NEEDLE", "zzzqqq", "bin", "gam+a"}
	for _, p := range pats {
		qs = append(qs, need(t, p, false), need(t, p, true))
	}
	for len(qs) < n {
		f := files[rng.Intn(len(files))].data
		lit := func() search.Need {
			if len(f) < 4 || rng.Intn(4) == 0 {
				return search.Need{Op: search.NeedLit, Lit: fmt.Sprint(rng.Intn(100000))}
			}
			i := rng.Intn(len(f) - 3)
			return search.Need{Op: search.NeedLit, Lit: string(f[i : i+3+rng.Intn(min(6, len(f)-i-3)+1)])}
		}
		switch rng.Intn(3) {
		case 0:
			qs = append(qs, Compile(lit()))
		case 1:
			qs = append(qs, Compile(search.Need{Op: search.NeedAnd, Subs: []search.Need{lit(), lit()}}))
		default:
			qs = append(qs, Compile(search.Need{Op: search.NeedOr, Subs: []search.Need{lit(), lit(), lit()}}))
		}
	}
	return qs
}

// samePlans checks that ix and want decide alike for q on every file of
// files and a few it does not list.
func samePlans(t *testing.T, want, ix *Index, files []testFile, q Query) {
	t.Helper()
	for _, fwm := range []bool{false, true} {
		pw, pg, pl := want.Plan(q, fwm), ix.Plan(q, fwm), ix.Plan(q, fwm)
		for id, f := range files {
			dw, dg := pw.Decide(f.path), pg.Decide(f.path)
			if dw != dg {
				t.Fatalf("%s, fwm %t: %s: %d from disk, %d in memory", q, fwm, f.path, dg, dw)
			}
			if got := pl.Lookup(f.path); got != id {
				t.Fatalf("Lookup(%q) = %d, want %d", f.path, got, id)
			}
			if d := pl.DecideID(id); d != dw {
				t.Fatalf("%s: DecideID(%d) = %d, want %d", q, id, d, dw)
			}
		}
		for _, p := range []string{"", "a", "d05/zzz", "zzz"} {
			if pg.Decide(p) != Fresh || pl.Lookup(p) != -1 {
				t.Fatalf("%q, not listed: %d, Lookup %d", p, pg.Decide(p), pl.Lookup(p))
			}
		}
	}
}

func TestDiskRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	files := genFiles(rng, 3000)
	mem := buildMem(files)
	dir := t.TempDir()
	var path string
	withSegment(2000, func() { path = writeDisk(t, dir, files, true) })
	ix := openDisk(t, path)
	if len(ix.segs) < 5 {
		t.Fatalf("%d segments, want several", len(ix.segs))
	}
	if err := ix.VerifyBlobs(); err != nil {
		t.Fatal(err)
	}
	if ix.Files != mem.Files || ix.Bytes != mem.Bytes || ix.blooms.len() != mem.blooms.len() || mem.blooms.len() == 0 {
		t.Fatalf("files %d bytes %d blooms %d, want %d %d %d", ix.Files, ix.Bytes, ix.blooms.len(), mem.Files, mem.Bytes, mem.blooms.len())
	}
	for _, id := range mem.blooms.ids {
		if bl := mem.blooms.get(id); len(bl) == 0 || !slices.Equal(ix.blooms.get(id), bl) {
			t.Fatalf("bloom of %d differs", id)
		}
	}
	skipped := 0
	for _, q := range randomQueries(t, rng, files, 300) {
		samePlans(t, mem, ix, files, q)
		p := ix.Plan(q, false)
		for _, f := range files {
			if p.Decide(f.path) == Skip {
				skipped++
			}
		}
	}
	if skipped == 0 {
		t.Fatal("no query skipped any file")
	}
	if ix.Corrupt() {
		t.Fatal("a sound index decoded as corrupt")
	}
	// A Live on the opened index decides as its Plan does.
	l := NewLive("/r")
	l.Begin().Install(ix)
	q := need(t, "kelvin", true)
	lp, ip := l.Plan(q, true), ix.Plan(q, true)
	for _, f := range files {
		if lp.Decide(f.path) != ip.Decide(f.path) {
			t.Fatalf("%s: Live and Index plans differ", f.path)
		}
	}
}

// TestDiskSpillSameBytes checks that a build spilled with small segments
// and one written at the end make the same file, with the same segments.
func TestDiskSpillSameBytes(t *testing.T) {
	files := genFiles(rand.New(rand.NewSource(4)), 500)
	dir := t.TempDir()
	var a, b string
	withSegment(1000, func() {
		a = writeDisk(t, dir, files, true)
		b = writeDisk(t, dir, files, false)
	})
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if !bytes.Equal(da, db) {
		t.Fatalf("spilled and unspilled files differ (%d and %d bytes)", len(da), len(db))
	}
	// Spill after some segments were flushed in memory writes them first.
	f, err := os.Create(filepath.Join(dir, "late"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	withSegment(1000, func() {
		var bd Builder
		for i, tf := range files {
			if i == len(files)/2 {
				bd.Spill(f)
			}
			bd.Add(tf.path, tf.data, tf.ok, tf.meta)
		}
		if err := bd.WriteFile(f, testHeader); err != nil {
			t.Fatal(err)
		}
	})
	dl, _ := os.ReadFile(f.Name())
	if !bytes.Equal(da, dl) {
		t.Fatal("a late Spill made a different file")
	}
}

func TestDiskMeta(t *testing.T) {
	files := genFiles(rand.New(rand.NewSource(5)), 400)
	ix := openDisk(t, writeDisk(t, t.TempDir(), files, true))
	if err := ix.Check(); err != nil {
		t.Fatal(err)
	}
	mem := buildMem(files)
	if h := ix.Header(); h != testHeader {
		t.Fatalf("header %+v, want %+v", h, testHeader)
	}
	if ix.Len() != len(files) {
		t.Fatalf("Len %d, want %d", ix.Len(), len(files))
	}
	unread := 0
	for id, f := range files {
		want := Meta{Ino: f.meta.Ino, Size: f.meta.Size, MtimeNs: f.meta.MtimeNs, CtimeNs: f.meta.CtimeNs, Links: 1}
		if f.meta.Links > 1 {
			want.Links = 2 // recorded as a mark (flagLinked)
		}
		if ix.paths[id] != f.path || ix.FileMeta(id) != want || mem.FileMeta(id) != want {
			t.Fatalf("file %d: %q %+v, want %q %+v", id, ix.paths[id], ix.FileMeta(id), f.path, want)
		}
		read := f.ok && f.path != "bad\xffname" // files with hard links too
		if (kindOf(ix.flags[id]) != 0) != read || (kindOf(mem.flags[id]) != 0) != read {
			t.Fatalf("%q: read %t, want %t", f.path, ix.flags[id] != 0, read)
		}
		if ix.sums[id] != mem.sums[id] || ix.flags[id] != mem.flags[id] {
			t.Fatalf("%q: sum or flags differ", f.path)
		}
		if !read {
			unread++
		}
	}
	if unread == 0 {
		t.Fatal("every file read: the test covers nothing")
	}
}

func TestDiskEmpty(t *testing.T) {
	dir := t.TempDir()
	path := writeDisk(t, dir, nil, true)
	ix := openDisk(t, path)
	if ix.Len() != 0 || len(ix.segs) != 0 || ix.Header() != testHeader {
		t.Fatalf("empty index: %d files, %d segments, %+v", ix.Len(), len(ix.segs), ix.Header())
	}
	p := ix.Plan(need(t, "alpha", false), false)
	if p.Decide("x") != Fresh || p.Lookup("x") != -1 || p.DecideID(0) != Fresh {
		t.Fatal("an empty index answers")
	}
	if err := ix.VerifyBlobs(); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	// Files that are nothing of an index.
	for name, data := range map[string][]byte{"zero": nil, "short": []byte("FSCIDX\x01L"), "text": bytes.Repeat([]byte("hello "), 100)} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, data, 0o644)
		if _, err := Open(p); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", name, err)
		}
	}
	if _, err := Open(filepath.Join(dir, "missing")); err == nil || errors.Is(err, ErrCorrupt) {
		t.Errorf("missing file: %v", err)
	}
}

// corruptFixture returns the bytes of a small index file with several
// segments and blooms, and its files.
func corruptFixture(t *testing.T) ([]byte, []testFile) {
	files := genFiles(rand.New(rand.NewSource(6)), 60)
	var path string
	withSegment(300, func() { path = writeDisk(t, t.TempDir(), files, true) })
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(ix.segs) < 3 || ix.blooms.len() == 0 {
		t.Fatalf("fixture: %d segments, %d blooms", len(ix.segs), ix.blooms.len())
	}
	return data, files
}

// openChecked parses data and verifies its blobs, and runs queries on it
// when it opens, turning a panic into a test failure.
func openChecked(t *testing.T, data []byte, files []testFile, what string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s: panic: %v", what, r)
		}
	}()
	ix, err := parse(data)
	if err != nil {
		return err
	}
	for _, w := range []string{"alpha", "kelvin", "zebra"} {
		p := ix.Plan(Compile(search.Need{Op: search.NeedLit, Lit: w}), true)
		for _, f := range files {
			p.Decide(f.path)
		}
	}
	return ix.VerifyBlobs()
}

func TestDiskCorrupt(t *testing.T) {
	data, files := corruptFixture(t)
	// Truncated at every 64th, through Open (the mapping).
	dir := t.TempDir()
	for k := range 64 {
		n := len(data) * k / 64
		p := filepath.Join(dir, fmt.Sprint("t", k))
		if err := os.WriteFile(p, data[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(p); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated to %d of %d bytes: %v", n, len(data), err)
		}
	}
	// One byte flipped, anywhere: every section is checked.
	for i := range data {
		c := slices.Clone(data)
		c[i] ^= 1 << (i % 8)
		if err := openChecked(t, c, files, fmt.Sprint("byte ", i)); err == nil {
			t.Fatalf("byte %d of %d flipped: no error", i, len(data))
		} else if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d: %v does not wrap ErrCorrupt", i, err)
		}
	}
	// Random bytes.
	rng := rand.New(rand.NewSource(7))
	for range 200 {
		c := make([]byte, rng.Intn(2*len(data)))
		rng.Read(c)
		if rng.Intn(2) == 0 && len(c) > 8 {
			copy(c, diskMagic[:])
		}
		if err := openChecked(t, c, files, "random bytes"); err == nil {
			t.Fatal("random bytes opened")
		}
	}
}

// setFooter returns data with the footer's word i set to v and the
// footer's checksum made right.
func setFooter(data []byte, i int, v uint64) []byte {
	c := slices.Clone(data)
	f := c[len(c)-footerSize:]
	binary.LittleEndian.PutUint64(f[8*i:], v)
	binary.LittleEndian.PutUint64(f[15*8:], xxhash.Sum64(f[:15*8]))
	return c
}

// TestDiskOffsetsOutOfRange alters the footer's counts and offsets, its
// checksum made right: each is an error, not a panic.
func TestDiskOffsetsOutOfRange(t *testing.T) {
	data, files := corruptFixture(t)
	f := data[len(data)-footerSize:]
	for i := 2; i < 15; i++ {
		old := binary.LittleEndian.Uint64(f[8*i:])
		for _, v := range []uint64{0, 1, 8, old + 1, old - 1, old + 8, old - 8, old * 2, uint64(len(data)),
			1<<32 - 1, 1<<32 + old, 1<<63 + old, ^uint64(0), ^uint64(0) - 7} {
			if v == old || i == 3 && v < 1<<62 { // the bytes indexed: not checked but by range
				continue
			}
			if err := openChecked(t, setFooter(data, i, v), files, fmt.Sprintf("footer word %d = %d", i, v)); err == nil {
				t.Fatalf("footer word %d set to %d (was %d): no error", i, v, old)
			}
		}
	}
	// The order mark and magic.
	for _, i := range []int{0, 1} {
		if _, err := parse(setFooter(data, i, 0x0807060504030201)); err == nil {
			t.Fatalf("footer word %d altered: no error", i)
		}
	}
	// A newer version.
	c := slices.Clone(data)
	c[6] = diskVersion + 1
	if _, err := parse(c); err == nil || !strings.Contains(err.Error(), "version") {
		t.Fatalf("version %d: %v", c[6], err)
	}
}

// TestDecodeCorrupt checks that posting lists that do not decode are
// ignored, not a panic, and reported by Corrupt.
func TestDecodeCorrupt(t *testing.T) {
	b := newBitset(10)
	for _, list := range [][]byte{{100}, {0}, {3, 0}, {0xff, 0xff}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}} {
		if decodeInto(list, b, 10, 10) {
			t.Errorf("%x decoded", list)
		}
	}
	if !decodeInto([]byte{1, 9}, b, 10, 10) || !b.has(0) || !b.has(9) {
		t.Error("ids 0 and 9 of 10")
	}
	data, files := corruptFixture(t)
	ix, err := parse(data)
	if err != nil {
		t.Fatal(err)
	}
	seg := &ix.segs[0]
	tri := seg.tris[0]
	// A delta past the last id in the first list (the blob, unchecked by
	// Open, is in a heap copy here, writable).
	seg.blob[0] = 0x7f
	ix.Plan(Query{op: search.NeedLit, tris: []uint32{tri}}, false)
	if !ix.Corrupt() || ix.VerifyBlobs() == nil {
		t.Fatalf("an id past %d files: Corrupt %t", len(files), ix.Corrupt())
	}
	// Ends past the blob.
	ix, _ = parse(data)
	ix.segs[1].ends[0] = uint32(len(ix.segs[1].blob) + 1)
	ix.Plan(Query{op: search.NeedLit, tris: []uint32{ix.segs[1].tris[0]}}, false)
	if !ix.Corrupt() {
		t.Fatal("a list past its blob: not Corrupt")
	}
}

// TestDiskCleanup checks that an Index from Open that becomes unreachable
// releases its mapping.
func TestDiskCleanup(t *testing.T) {
	files := genFiles(rand.New(rand.NewSource(9)), 100)
	ix, err := Open(writeDisk(t, t.TempDir(), files, true))
	if err != nil {
		t.Fatal(err)
	}
	m := ix.disk.m
	if len(m.Bytes()) == 0 {
		t.Fatal("nothing mapped")
	}
	ix = nil
	for range 100 {
		runtime.GC()
		if len(m.Bytes()) == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the mapping of an unreachable Index was not released")
}

// TestWriteFileErrors checks the misuses WriteFile reports.
func TestWriteFileErrors(t *testing.T) {
	dir := t.TempDir()
	f, _ := os.Create(filepath.Join(dir, "a"))
	defer f.Close()
	g, _ := os.Create(filepath.Join(dir, "b"))
	defer g.Close()
	var b Builder
	b.Spill(f)
	b.Add("x", []byte("hello"), true, Meta{})
	if err := b.WriteFile(g, Header{}); err == nil {
		t.Error("WriteFile to another file than Spill's")
	}
	if err := b.WriteFile(f, Header{}); err != nil {
		t.Fatal(err)
	}
	if err := b.WriteFile(f, Header{}); err == nil {
		t.Error("WriteFile twice")
	}
	var c Builder
	c.Add("b", nil, false, Meta{})
	c.Add("a", nil, false, Meta{})
	if err := c.WriteFile(g, Header{}); err == nil {
		t.Error("paths out of order written")
	}
	r, _ := os.Open(f.Name())
	defer r.Close()
	var d Builder
	d.Add("x", []byte("hello"), true, Meta{})
	if err := d.WriteFile(r, Header{}); err == nil {
		t.Error("a read-only file written")
	}
}

// BenchmarkOpenPlan measures Open and one Plan (and its Decide for every
// file) on an index of 20k generated files.
func BenchmarkOpenPlan(b *testing.B) {
	files := genFiles(rand.New(rand.NewSource(8)), 20000)
	path := writeDisk(b, b.TempDir(), files, true)
	q := Compile(search.Need{Op: search.NeedAnd, Subs: []search.Need{
		{Op: search.NeedLit, Lit: "kelvin"}, {Op: search.NeedLit, Lit: "zebra"}}})
	b.Run("open+plan", func(b *testing.B) {
		for b.Loop() {
			ix, err := Open(path)
			if err != nil {
				b.Fatal(err)
			}
			ix.Plan(q, false)
			ix.Close()
		}
	})
	b.Run("open+plan+decide", func(b *testing.B) {
		for b.Loop() {
			ix, err := Open(path)
			if err != nil {
				b.Fatal(err)
			}
			p := ix.Plan(q, false)
			for _, f := range files {
				p.Decide(f.path)
			}
			ix.Close()
		}
	})
}

// TestDiskTableDeferred checks that Open leaves the file table's entries
// and checksum until an entry is needed, that a Plan counts its candidates
// before then, and that a table found corrupt then lists no file.
func TestDiskTableDeferred(t *testing.T) {
	files := genFiles(rand.New(rand.NewSource(8)), 300)
	dir := t.TempDir()
	path := writeDisk(t, dir, files, true)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ix := openDisk(t, path)
	q := need(t, "alpha", false)
	c := ix.CandidatesAmongFirst(q, false, ix.Len())
	p := ix.Plan(q, false)
	if ix.paths != nil || ix.inos != nil {
		t.Fatal("Open, Plan or CandidatesAmongFirst read the files' entries")
	}
	if c == 0 || c == len(files) {
		t.Fatalf("alpha: %d candidates of %d files: the fixture does not narrow", c, len(files))
	}
	if id := p.Lookup(files[10].path); id != 10 || ix.Check() != nil || ix.Corrupt() {
		t.Fatalf("Lookup %d, Check %v, Corrupt %t", id, ix.Check(), ix.Corrupt())
	}

	// One byte of a path flipped: the table's checksum no longer holds.
	tr, err := readFooter(data)
	if err != nil {
		t.Fatal(err)
	}
	l, err := tr.check(uint64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	bad := slices.Clone(data)
	bad[l.pathBlob+5] ^= 0x20
	bp := filepath.Join(dir, "bad")
	if err := os.WriteFile(bp, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	bx := openDisk(t, bp) // opens: the table is not checked yet
	pb := bx.Plan(q, false)
	if n := bx.CandidatesAmongFirst(q, false, bx.Len()); n != c {
		t.Fatalf("corrupt path: %d candidates, want %d (flags and documents are sound)", n, c)
	}
	if bx.Corrupt() {
		t.Fatal("corrupt before any entry was needed")
	}
	for _, f := range files {
		if id := pb.Lookup(f.path); id != -1 || pb.Decide(f.path) != Fresh {
			t.Fatalf("%q: Lookup %d, Decide %v in a corrupt table: want -1, Fresh", f.path, id, pb.Decide(f.path))
		}
	}
	if err := bx.Check(); !errors.Is(err, ErrCorrupt) || !bx.Corrupt() {
		t.Fatalf("Check %v, Corrupt %t: want ErrCorrupt", err, bx.Corrupt())
	}
	if m := bx.FileMeta(0); m.Size != -1 || m.MtimeNs != -1 {
		t.Fatalf("FileMeta of a corrupt table: %+v, want size and mtime -1", m)
	}
	if err := bx.VerifyBlobs(); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("VerifyBlobs %v: want ErrCorrupt", err)
	}
	var b Builder
	b.Base(bx)
	if b.Keep(files[0].path, 0, files[0].meta) {
		t.Fatal("Keep kept an entry of a corrupt table")
	}
}

// TestCandidatesAmongFirst checks CandidatesAmongFirst against the
// decisions of a Plan, for the queries of randomQueries, in both modes,
// over prefixes of every kind: none, one file, a few, through a large
// file's chunks, all, more than all. The fixture has large files (more
// than one document), so that a prefix ends inside the documents.
func TestCandidatesAmongFirst(t *testing.T) {
	defer func(old int) { chunkSize = old }(chunkSize)
	chunkSize = 512
	rng := rand.New(rand.NewSource(9))
	files := genFiles(rng, 400)
	for i := 0; i < len(files); i += 37 {
		files[i].data = bytes.Repeat(files[i].data, 1+2000/max(1, len(files[i].data)))
		files[i].meta.Size = int64(len(files[i].data))
	}
	ix := openDisk(t, writeDisk(t, t.TempDir(), files, true))
	if len(ix.spans) < 5 {
		t.Fatalf("%d files of more than one document: the fixture does not chunk", len(ix.spans))
	}
	ns := []int{0, 1, 2, 36, 37, 38, 100, int(ix.spans[3].file), int(ix.spans[3].file) + 1, ix.Len() - 1, ix.Len(), ix.Len() + 5}
	for _, q := range randomQueries(t, rng, files, 40) {
		for _, fwm := range []bool{false, true} {
			p := ix.Plan(q, fwm)
			for _, n := range ns {
				want := 0
				for id := range min(n, ix.Len()) {
					if p.DecideID(id) != Skip {
						want++
					}
				}
				if got := ix.CandidatesAmongFirst(q, fwm, n); got != want {
					t.Fatalf("%v (fwm %t), first %d: %d candidates, the plan leaves %d", q, fwm, n, got, want)
				}
			}
		}
	}
	if ix.Corrupt() {
		t.Fatal("a prefix's reading of the lists marked a sound index corrupt")
	}
}

// TestPlanCandidates checks Candidates against DecideID, for the queries
// of randomQueries, in both modes, on a plan with stale entries too.
func TestPlanCandidates(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	files := genFiles(rng, 400)
	ix := openDisk(t, writeDisk(t, t.TempDir(), files, true))
	l := NewLive("/r")
	j := l.Begin()
	j.Install(ix)
	l.touch(files[7].path, false)
	l.touch("d03", true)
	for _, q := range randomQueries(t, rng, files, 40) {
		for _, fwm := range []bool{false, true} {
			for _, p := range []*Plan{ix.Plan(q, fwm), l.Plan(q, fwm)} {
				want := 0
				for id := range ix.Len() {
					if p.DecideID(id) != Skip {
						want++
					}
				}
				if got := p.Candidates(); got != want {
					t.Fatalf("%v (fwm %t): Candidates %d, DecideID leaves %d", q, fwm, got, want)
				}
			}
		}
	}
}
