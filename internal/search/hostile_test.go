package search

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/regex"
)

// hostilePatterns are patterns a model could write that stress the
// compiler or the matcher: nested and counted repetitions, huge classes,
// deep nesting, 100 kB patterns, alternations of thousands of literals.
func hostilePatterns() []string {
	var alt, altA []string
	for i := range 5000 {
		alt = append(alt, "w"+strings.Repeat(string(rune('a'+i%26)), 1+i%7)+string(rune('a'+i/26%26)))
		altA = append(altA, strings.Repeat("a", 1+i%50)+"b")
	}
	return []string{
		`a{1000}{1000}`,
		`(a{1000}){1000}`,
		`a{100}{100}{100}`,
		`(?:a{0,1000}){0,1000}`,
		`\w{5000}`,
		`\w{1000}`,
		`[\w\d\s]{500}x`,
		`\pL{300}`,
		`(?:\pL|\pN|\pP){200}`,
		`(a*)*b`,
		`(a+)+b`,
		`(a|aa)+$`,
		`(a|a?)+b`,
		`(.*a){20}`,
		`(.*){1000}b`,
		`a{0,65535}b`,
		`[a-z]{1000}x`,
		`(?i)[a-z]{500}x`,
		`\b\w+\b\d`,
		`(?:\b\w{1,100}\b.){100}`,
		strings.Repeat("(", 200) + "a" + strings.Repeat(")", 200),
		strings.Repeat("(", 300) + "a" + strings.Repeat(")", 300),
		strings.Repeat("(?:a|", 200) + "b" + strings.Repeat(")", 200),
		strings.Repeat("a", 100_000),
		strings.Repeat("a?", 50_000) + strings.Repeat("a", 50_000),
		strings.Repeat("[ab]", 25_000),
		strings.Repeat(`\w`, 25_000),
		strings.Repeat("a*", 50_000),
		strings.Join(alt, "|"),
		strings.Join(altA, "|"),
		"[" + strings.Repeat(`\x{100}-\x{10FFFF}`, 1) + "]{1000}",
		`[^b]{10000}`,
		`.{10000}b`,
		`(?s).{65535}`,
		`a.{1000}a`,
		`(?:a|b|c|d|e|f|g|h|i|j)*z`,
		// On the backtracking engine.
		`(\w+) \1`,
		`(a+)+\1`,
		`(?=(a*)*b)`,
		`(?<=a)` + strings.Repeat("a", 100_000),
		`(?=a)` + strings.Repeat("a|", 50_000) + "b",
		strings.Repeat("(?=a)", 300) + strings.Repeat("(", 300) + "a" + strings.Repeat(")", 300),
	}
}

// TestHostilePatterns: each hostile pattern settles against a 4 MiB line of
// one letter with an answer or an error. The work is bounded by the
// matching budgets (nfaWorkBudget steps, the backtracking budget per line), not by
// this test, which asserts no time (a hang fails as go test's timeout); the
// figures are logged (go test -v), the one-second goal is watched by the
// benchmarks.
func TestHostilePatterns(t *testing.T) {
	line := bytes.Repeat([]byte("a"), 4<<20)
	lines := append(bytes.Repeat([]byte("a\n"), 1<<21), 'a')
	for _, p := range hostilePatterns() {
		start := time.Now()
		m, err := Compile(Options{Pattern: p})
		var res string
		if err != nil {
			res = err.Error()
			if len(res) > 120 {
				res = res[:60] + " ... " + res[len(res)-60:]
			}
		} else {
			_, n1, err1 := m.Search(line, -1, false, nil, nil)
			_, n2, err2 := m.Search(lines, -1, false, nil, nil)
			var be *regex.BudgetError
			for _, err := range []error{err1, err2} {
				if err != nil && !errors.As(err, &be) {
					t.Fatalf("%.60q: search error %v", p, err)
				}
			}
			res = "count " + strconv.Itoa(n1) + " / " + strconv.Itoa(n2)
			if be != nil {
				res += " (" + be.Error() + ")"
			}
		}
		el := time.Since(start)
		name := p
		if len(name) > 60 {
			name = name[:40] + "...(" + strconv.Itoa(len(p)) + " bytes)"
		}
		t.Logf("%-64q %-14v %s", name, el.Round(time.Millisecond), res)
	}
}
