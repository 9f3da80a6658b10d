package search

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/cancel"
)

var (
	corpusOnce sync.Once
	corpus     []byte
)

// goCorpus is the concatenation of the *.go files under $GOROOT/src.
func goCorpus(b *testing.B) []byte {
	corpusOnce.Do(func() {
		var files []string
		root := filepath.Join(runtime.GOROOT(), "src")
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && filepath.Ext(p) == ".go" {
				files = append(files, p)
			}
			return nil
		})
		sort.Strings(files)
		var buf bytes.Buffer
		for _, f := range files {
			if data, err := os.ReadFile(f); err == nil {
				buf.Write(data)
			}
		}
		corpus = buf.Bytes()
	})
	if len(corpus) == 0 {
		b.Skip("no Go source tree to search")
	}
	return corpus
}

func benchSearch(b *testing.B, o Options, withLines bool) {
	benchData(b, goCorpus(b), o, withLines)
}

// benchData searches data with o and reports the matches of the last run.
func benchData(b *testing.B, data []byte, o Options, withLines bool) {
	m, err := Compile(o)
	if err != nil {
		b.Fatal(err)
	}
	var dst []Match
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for range b.N {
		dst, n, _ = m.Search(data, -1, withLines, dst, nil)
	}
	b.ReportMetric(float64(n), "matches")
}

func BenchmarkLiteral(b *testing.B) { benchSearch(b, Options{Pattern: `func main`}, true) }

func BenchmarkRegexRequiredLiteral(b *testing.B) {
	benchSearch(b, Options{Pattern: `func \w+Error\(`}, true)
}

func BenchmarkRegexNoLiteral(b *testing.B) { benchSearch(b, Options{Pattern: `\w+_\w+\(`}, true) }

func BenchmarkIgnoreCaseLiteral(b *testing.B) {
	benchSearch(b, Options{Pattern: `func main`, IgnoreCase: true}, true)
}

func BenchmarkCountOnlyRegex(b *testing.B) { benchSearch(b, Options{Pattern: `\w+_\w+\(`}, false) }

func BenchmarkRegexPureDFA(b *testing.B) {
	benchSearch(b, Options{Pattern: `[A-Z][a-z]+[0-9]{2}`}, true)
}

func BenchmarkWordBoundary(b *testing.B) { benchSearch(b, Options{Pattern: `\berr\b`}, true) }

func BenchmarkAlternation(b *testing.B) {
	benchSearch(b, Options{Pattern: `ErrNotExist|ErrClosed|ErrDeadlineExceeded`}, true)
}

func BenchmarkHasMatchMiss(b *testing.B) {
	data := goCorpus(b)
	m, err := Compile(Options{Pattern: `\w+Zyx\w+\(`})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for range b.N {
		m.HasMatch(data)
	}
}

// The backtracking engine, behind the Rust engine's prefilter.
func BenchmarkLookAround(b *testing.B) {
	benchSearch(b, Options{Pattern: `func \w+(?=\(ctx)`}, true)
}

func BenchmarkNegativeLookBehind(b *testing.B) {
	benchSearch(b, Options{Pattern: `(?<!\.)Errorf\(`}, true)
}

func BenchmarkBackreference(b *testing.B) {
	benchSearch(b, Options{Pattern: `\b(\w+) \1\b`}, true)
}

// benchRepeated searches 4 MB of one line repeated: prefilter candidates on
// every line, dense enough to test when the search should leave the
// prefilter for the automaton (denseGap).
func benchRepeated(b *testing.B, line, pattern string) {
	benchData(b, bytes.Repeat([]byte(line), 4<<20/len(line)), Options{Pattern: pattern}, true)
}

// Candidate lines of 15 bytes that fail the other required literal ('('),
// as in a table of constants: under denseGap, the automaton takes over.
func BenchmarkDenseNoParen(b *testing.B) { benchRepeated(b, "\tAF_INET = 0x2\n", `\w+_\w+\(`) }

// The same with lines of 27 bytes: over denseGap, the prefilter stays.
func BenchmarkDenseMid(b *testing.B) { benchRepeated(b, "\tAF_INET = 0x2 // comment x\n", `\w+_\w+\(`) }

// The same with lines of 58 bytes.
func BenchmarkDenseLong(b *testing.B) {
	benchRepeated(b, "\tAF_INET = 0x2 some longer comment text here for the line\n", `\w+_\w+\(`)
}

// Lines of 4 bytes, every one a candidate: the automaton is cheaper.
func BenchmarkDenseShort(b *testing.B) { benchRepeated(b, "a_b\n", `\w+_\w+\(`) }

// Every line matches.
func BenchmarkDenseMatch(b *testing.B) { benchRepeated(b, "\tx := f_g(1)\n", `\w+_\w+\(`) }

// BenchmarkToken is the cost of the cancel token's looks in the hot loops:
// each plan searched with no token and with a live one (what grep passes),
// the DFA then scanning in chunks.
func BenchmarkToken(b *testing.B) {
	data := goCorpus(b)
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"literal", Options{Pattern: `func `}},
		{"dfa", Options{Pattern: `[A-Z][a-z]+[0-9]{2}`}},
	} {
		for _, live := range []bool{false, true} {
			name := c.name + "/nil"
			var tok *cancel.Token
			if live {
				name, tok = c.name+"/live", cancel.New(time.Time{}, nil)
			}
			b.Run(name, func(b *testing.B) {
				m, err := Compile(c.o)
				if err != nil {
					b.Fatal(err)
				}
				work := data
				b.SetBytes(int64(len(work)))
				var dst []Match
				for b.Loop() {
					dst, _, _ = m.Search(work, -1, false, dst, tok)
				}
			})
		}
	}
}
