package regex

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
	"github.com/fscache/fscache/internal/regex/syntax"
)

// Look-around and backreferences.
//
// A pattern the Rust dialect rejects for look-around or a backreference (the
// first error its parser meets) runs on a backtracking engine instead, as
// pi-natives 18.x falls back to PCRE2: regexp2 in its default (.NET) option
// set, whose \w, \d, \s and \b are Unicode-aware, whose (?i) folds Unicode
// case, whose `.` matches '\r' and whose `$` matches only at the end of a
// line, which is what 18.2.3's PCRE2 answers (testdata/backtrack.json). A
// few PCRE spellings .NET lacks are rewritten first ((?P<n>, (?P=n), \g{1},
// \gN, \k{n}, \Q..\E).
//
// Lines are still found by the Rust engine where it can: the pattern with
// every look-around group and backreference removed (a superset of the
// lines the real pattern matches) is compiled as usual and its matching
// lines, behind its literal prefilter and lazy DFA, are the only ones the
// backtracking engine sees. (A backreference becomes "any text".)
//
// Every backtracking run on a line has a budget, backtrackBudget of wall
// clock: a line that exhausts it stops the search with a *BudgetError.

// backtrackBudget is the time one line may take on the backtracking engine.
const backtrackBudget = time.Second

// backtrackFileBudget is the time the backtracking engine may spend on one
// file (one LineIter) in all: checked after each line, so a search ends
// within backtrackFileBudget + backtrackBudget.
const backtrackFileBudget = 3 * time.Second

// BudgetError reports a search that exceeded a matching budget: a
// backtracking run longer than backtrackBudget on one line, or an NFA
// simulation past nfaWorkBudget in one file.
type BudgetError struct {
	// Line is the 1-based line on which the budget ran out.
	Line int
	// Limit describes the budget.
	Limit string
}

const (
	btBudgetText     = "backtracking budget exceeded: a match attempt ran longer than 1s"
	btFileBudgetText = "backtracking budget exceeded: matching one file took longer than 3s"
	nfaBudgetText    = "matching budget exceeded: the automaton simulation took more than 33554432 steps"
)

// Error names the budget and the line.
func (e *BudgetError) Error() string {
	return e.Limit + " on line " + strconv.Itoa(e.Line)
}

// backtracker is the backtracking half of a Regexp.
type backtracker struct {
	re *regexp2.Regexp
	// pre finds the candidate lines (nil: every line is a candidate).
	pre *Regexp
}

// compileBacktrack builds the backtracking matcher for pattern p.
func compileBacktrack(p string, o Options) (*backtracker, error) {
	net, relaxed := rewritePCRE(p)
	opts := regexp2.RegexOptions(regexp2.None)
	if o.IgnoreCase {
		opts |= regexp2.IgnoreCase
	}
	if o.Multiline {
		opts |= regexp2.Multiline
	}
	if d := parenDepth(p); d > syntax.NestLimit {
		return nil, errors.New("nesting too deep")
	}
	re, err := regexp2.Compile(net, opts)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = backtrackBudget
	bt := &backtracker{re: re}
	if relaxed != "" {
		po := o
		po.Pattern = relaxed
		if pre, err := compile(po, false); err == nil && pre.lineMode != modeMatchAll {
			bt.pre = pre
		}
	}
	return bt, nil
}

// match runs the backtracking engine on one line.
func (bt *backtracker) match(line []byte) (bool, error) {
	ok, err := bt.re.MatchString(string(line))
	if err != nil {
		return false, errBudget
	}
	return ok, nil
}

var (
	errBudget     = errors.New("budget")
	errFileBudget = errors.New("file budget")
)

// anyText stands for a backreference in the relaxed pattern: it matches
// whatever the group matched (any text of the line).
const anyText = "(?s-u:.*)"

// rewritePCRE returns p with the PCRE spellings regexp2 lacks rewritten
// (net), and p with every look-around group replaced by an empty group and
// every backreference by anyText (relaxed; "" when p cannot be taken apart safely, e.g. in
// (?x) mode or with unbalanced groups).
func rewritePCRE(p string) (net, relaxed string) {
	var nb, rb strings.Builder
	relaxOK := true
	// drop > 0: inside a look-around group being dropped from relaxed;
	// depth counts the groups open inside it.
	drop, depth := 0, 0
	wr := func(s string) {
		nb.WriteString(s)
		if drop == 0 {
			rb.WriteString(s)
		}
	}
	inClass := 0
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			d := p[i+1]
			if inClass == 0 {
				if name, n, ok := backrefAt(p, i); ok {
					nb.WriteString(name)
					if drop == 0 {
						rb.WriteString(anyText)
					}
					i += n
					continue
				}
				if d == 'Q' {
					end := strings.Index(p[i+2:], `\E`)
					lit := p[i+2:]
					n := len(p) - i
					if end >= 0 {
						lit = p[i+2 : i+2+end]
						n = end + 4
					}
					wr(regexp2.Escape(lit))
					i += n
					continue
				}
			}
			_, sz := utf8.DecodeRuneInString(p[i+1:])
			wr(p[i : i+1+sz])
			i += 1 + sz
		case inClass > 0:
			if c == '[' && i+1 < len(p) && p[i+1] == ':' {
				if end := strings.Index(p[i:], ":]"); end > 0 {
					if cls, ok := posixClasses[p[i+2:i+end]]; ok {
						wr(cls)
						i += end + 2
						continue
					}
				}
			}
			if c == '[' {
				inClass++
			} else if c == ']' {
				inClass--
			}
			wr(p[i : i+1])
			i++
		case c == '[':
			inClass = 1
			wr("[")
			i++
			// A ']' first in a class is a literal.
			if i < len(p) && p[i] == '^' {
				wr("^")
				i++
			}
			if i < len(p) && p[i] == ']' {
				wr("]")
				i++
			}
		case c == '(':
			rest := p[i:]
			switch {
			case strings.HasPrefix(rest, "(?P<"):
				wr("(?<")
				i += 4
				if drop > 0 {
					depth++
				}
				continue
			case strings.HasPrefix(rest, "(?P="):
				end := strings.IndexByte(rest, ')')
				if end < 0 {
					wr(rest)
					i = len(p)
					continue
				}
				nb.WriteString(`\k<` + rest[4:end] + `>`)
				if drop == 0 {
					rb.WriteString(anyText)
				}
				i += end + 1
				continue
			case strings.HasPrefix(rest, "(?=") || strings.HasPrefix(rest, "(?!") ||
				strings.HasPrefix(rest, "(?<=") || strings.HasPrefix(rest, "(?<!"):
				if drop == 0 {
					rb.WriteString("(?:)")
					drop, depth = 1, 0
					nb.WriteString("(")
					i++
					continue
				}
				depth++
			case strings.HasPrefix(rest, "(?"):
				// An x flag makes '#' start comments: don't take apart.
				j := 2
				for j < len(rest) && strings.IndexByte("imsxuUR-", rest[j]) >= 0 {
					if rest[j] == 'x' {
						relaxOK = false
					}
					j++
				}
				if drop > 0 {
					depth++
				}
			default:
				if drop > 0 {
					depth++
				}
			}
			wr("(")
			i++
		case c == ')':
			if drop > 0 {
				if depth == 0 {
					drop = 0
					nb.WriteString(")")
					i++
					continue
				}
				depth--
			}
			wr(")")
			i++
		default:
			_, sz := utf8.DecodeRuneInString(p[i:])
			wr(p[i : i+sz])
			i += sz
		}
	}
	if drop > 0 || inClass > 0 || !relaxOK {
		return nb.String(), ""
	}
	return nb.String(), rb.String()
}

// backrefAt recognises a backreference at p[i] ('\\'): \1, \k<n>, \k'n',
// \k{n}, \g1, \g{1}, \g{n}. It returns its .NET spelling and length.
func backrefAt(p string, i int) (string, int, bool) {
	rest := p[i+1:]
	if rest == "" {
		return "", 0, false
	}
	if rest[0] >= '1' && rest[0] <= '9' {
		j := 1
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		return `\` + rest[:j], j + 1, true
	}
	if rest[0] != 'k' && rest[0] != 'g' || len(rest) < 2 {
		return "", 0, false
	}
	ref := func(name string) string {
		if name != "" && strings.Trim(name, "0123456789") == "" {
			return `\` + name
		}
		return `\k<` + name + `>`
	}
	open := rest[1]
	closer := map[byte]byte{'<': '>', '\'': '\'', '{': '}'}[open]
	if closer != 0 && (rest[0] == 'k' || open == '{') {
		end := strings.IndexByte(rest[2:], closer)
		if end <= 0 {
			return "", 0, false
		}
		return ref(rest[2 : 2+end]), 2 + end + 2, true
	}
	if rest[0] == 'g' && open >= '1' && open <= '9' {
		j := 1
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		return `\` + rest[1:j], j + 1, true
	}
	return "", 0, false
}

// posixClasses are PCRE2's [:name:] classes in UCP mode, as .NET class
// items.
var posixClasses = map[string]string{
	"alpha":  `\p{L}`,
	"alnum":  `\p{L}\p{N}`,
	"digit":  `\d`,
	"lower":  `\p{Ll}`,
	"upper":  `\p{Lu}`,
	"space":  `\s`,
	"word":   `\w`,
	"punct":  `\p{P}`,
	"xdigit": `0-9A-Fa-f`,
	"blank":  `\p{Zs}\t`,
	"cntrl":  `\p{Cc}`,
	"print":  `\P{C}`,
	"graph":  `\p{L}\p{M}\p{N}\p{P}\p{S}`,
	"ascii":  `\x00-\x7f`,
}

func newBacktrackRegexp(o Options, bt *backtracker) *Regexp {
	m := &Regexp{opts: o, bt: bt, lineMode: modeBacktrack, bufMode: modeBacktrack}
	m.pool.New = func() any { return &searchState{} }
	return m
}

// nextBacktrack is LineIter.Next for the backtracking engine: candidate
// lines come from the relaxed pattern's iterator (or are every line) and
// are checked by regexp2. A run over budget or a cancellation ends the
// iteration with it.err set.
func (it *LineIter) nextBacktrack(stop int) (ls, le int, found, done bool) {
	data := it.data
	for {
		if it.pos >= len(data) {
			return 0, 0, false, true
		}
		if it.inner != nil {
			var f, d bool
			ls, le, f, d = it.inner.Next(stop)
			it.pos = it.inner.pos
			if it.inner.err != nil {
				it.err = it.inner.err
				return 0, 0, false, true
			}
			if !f {
				return 0, 0, false, d
			}
		} else {
			ls, le = it.pos, lineEnd(data, it.pos)
			it.advance(le)
		}
		if it.tok.Poll() {
			it.err = it.tok.Err()
			return 0, 0, false, true
		}
		if it.btStart.IsZero() {
			it.btStart = time.Now()
		}
		ok, err := it.m.bt.match(data[ls:le])
		if err == nil && time.Since(it.btStart) > backtrackFileBudget {
			err = errFileBudget
		}
		if err != nil {
			limit := btBudgetText
			if err == errFileBudget {
				limit = btFileBudgetText
			}
			it.err = &BudgetError{Line: 1 + bytes.Count(data[:ls], []byte{'\n'}), Limit: limit}
			return 0, 0, false, true
		}
		if ok {
			return ls, le, true, false
		}
		if it.pos >= stop {
			return 0, 0, false, false
		}
	}
}

// parenDepth is the deepest nesting of parentheses and brackets in p
// (escapes skipped): regexp2's parser recurses on groups, so patterns
// nested deeper than the Rust dialect's limit are not handed to it.
func parenDepth(p string) int {
	d, most := 0, 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '(', '[':
			d++
			most = max(most, d)
		case ')', ']':
			d = max(d-1, 0)
		}
	}
	return most
}
