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
// clock: a line that exhausts it stops the search with a *BudgetError. The
// budget is only reported once a second attempt on the line exhausted it
// too, and took backtrackBudget by the monotonic clock: regexp2 times its
// runs on a clock a goroutine of its own advances every 100 ms, and on a
// busy machine that goroutine runs late, a deadline is computed from a
// stale reading, and an attempt of microseconds is reported as timed out.
// A goroutine starved of CPU for a second is given its second attempt too.

// backtrackBudget is the time one line may take on the backtracking engine.
const backtrackBudget = time.Second

// backtrackFileBudget is the time the backtracking engine may spend on one
// file (one LineIter) in all: checked after each line, so a search ends
// within backtrackFileBudget plus a line's attempts (about
// 2*backtrackBudget; see backtracker.match).
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
	// attempt runs re on one line (re.MatchString; tests replace it).
	attempt func(string) (bool, error)
	// budget is re.MatchTimeout (backtrackBudget).
	budget time.Duration
}

// btAttempts bounds the attempts on one line: a timeout reported before
// the budget really elapsed is retried, but not forever.
const btAttempts = 4

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
	bt := &backtracker{re: re, attempt: re.MatchString, budget: backtrackBudget}
	if relaxed != "" {
		po := o
		po.Pattern = relaxed
		if pre, err := compile(po, false); err == nil && pre.lineMode != modeMatchAll {
			bt.pre = pre
		}
	}
	return bt, nil
}

// match runs the backtracking engine on one line. A timeout is errBudget
// only when it was the second (or later) attempt's and that attempt took
// the whole budget by the monotonic clock; an earlier one is retried (see
// the package comment on budgets), up to btAttempts attempts in all.
func (bt *backtracker) match(line []byte) (bool, error) {
	s := string(line)
	for try := 1; ; try++ {
		start := time.Now()
		ok, err := bt.attempt(s)
		if err == nil {
			return ok, nil
		}
		if try >= btAttempts || try > 1 && time.Since(start) >= bt.budget {
			return false, errBudget
		}
	}
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
	w := pcreRewriter{p: p, relaxOK: true}
	for w.i < len(p) {
		c := p[w.i]
		switch {
		case c == '\\' && w.i+1 < len(p):
			w.escape()
		case w.inClass > 0:
			w.classByte()
		case c == '[':
			w.openClass()
		case c == '(':
			w.openGroup()
		case c == ')':
			w.closeGroup()
		default:
			_, sz := utf8.DecodeRuneInString(p[w.i:])
			w.write(p[w.i : w.i+sz])
			w.i += sz
		}
	}
	if w.drop > 0 || w.inClass > 0 || !w.relaxOK {
		return w.nb.String(), ""
	}
	return w.nb.String(), w.rb.String()
}

// pcreRewriter is the state of rewritePCRE's single pass over a pattern.
type pcreRewriter struct {
	p      string
	i      int             // next byte of p to read
	nb, rb strings.Builder // the net and relaxed patterns being written
	// relaxOK is false once the pattern turned out not to be safe to take
	// apart (an x flag).
	relaxOK bool
	// drop > 0: inside a look-around group being dropped from relaxed;
	// depth counts the groups open inside it.
	drop, depth int
	inClass     int // nesting of bracket classes at i; 0 outside any
}

// write appends s to net and, outside a dropped look-around group, to
// relaxed.
func (w *pcreRewriter) write(s string) {
	w.nb.WriteString(s)
	if w.drop == 0 {
		w.rb.WriteString(s)
	}
}

// backref writes a backreference: its .NET spelling ref to net and, outside
// a dropped look-around group, anyText to relaxed.
func (w *pcreRewriter) backref(ref string) {
	w.nb.WriteString(ref)
	if w.drop == 0 {
		w.rb.WriteString(anyText)
	}
}

// nest counts a group opened inside a dropped look-around group.
func (w *pcreRewriter) nest() {
	if w.drop > 0 {
		w.depth++
	}
}

// escape copies the escape at p[i] ('\\', with a byte after it). Outside a
// class a backreference becomes its .NET spelling (anyText in relaxed) and
// \Q...\E (or \Q to the end) the quoted text escaped; anything else is
// copied as is, the backslash with the character after it.
func (w *pcreRewriter) escape() {
	p, i := w.p, w.i
	if w.inClass == 0 {
		if ref, n, ok := backrefAt(p, i); ok {
			w.backref(ref)
			w.i += n
			return
		}
		if p[i+1] == 'Q' {
			lit, n := p[i+2:], len(p)-i
			if end := strings.Index(p[i+2:], `\E`); end >= 0 {
				lit, n = p[i+2:i+2+end], end+4
			}
			w.write(regexp2.Escape(lit))
			w.i += n
			return
		}
	}
	_, sz := utf8.DecodeRuneInString(p[i+1:])
	w.write(p[i : i+1+sz])
	w.i += 1 + sz
}

// classByte copies the byte at p[i] inside a bracket class, rewriting a
// POSIX class [:name:] to its regexp2 spelling and following the nesting
// of '[' and ']'.
func (w *pcreRewriter) classByte() {
	p, i := w.p, w.i
	c := p[i]
	if c == '[' && i+1 < len(p) && p[i+1] == ':' {
		if end := strings.Index(p[i:], ":]"); end > 1 { // "[:]" names no class
			if cls, ok := posixClasses[p[i+2:i+end]]; ok {
				w.write(cls)
				w.i += end + 2
				return
			}
		}
	}
	switch c {
	case '[':
		w.inClass++
	case ']':
		w.inClass--
	}
	w.write(p[i : i+1])
	w.i++
}

// openClass copies the '[' at p[i] that opens a bracket class, with a '^'
// after it and a ']' first in the class, which is a literal.
func (w *pcreRewriter) openClass() {
	w.inClass = 1
	w.write("[")
	w.i++
	if w.i < len(w.p) && w.p[w.i] == '^' {
		w.write("^")
		w.i++
	}
	if w.i < len(w.p) && w.p[w.i] == ']' {
		w.write("]")
		w.i++
	}
}

// openGroup handles the '(' at p[i]: (?P<name> becomes (?<name>, (?P=name)
// a backreference, a look-around group starts a group dropped from relaxed
// (an empty group stands for it there), and an x flag makes the pattern
// unsafe to take apart; any other group is copied.
func (w *pcreRewriter) openGroup() {
	rest := w.p[w.i:]
	switch {
	case strings.HasPrefix(rest, "(?P<"):
		w.write("(?<")
		w.i += 4
		w.nest()
		return
	case strings.HasPrefix(rest, "(?P="):
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			w.write(rest)
			w.i = len(w.p)
			return
		}
		w.backref(`\k<` + rest[4:end] + `>`)
		w.i += end + 1
		return
	case isLookAround(rest):
		if w.drop == 0 {
			w.rb.WriteString("(?:)")
			w.drop, w.depth = 1, 0
			w.nb.WriteString("(")
			w.i++
			return
		}
	case strings.HasPrefix(rest, "(?"):
		// An x flag makes '#' start comments: don't take apart.
		if hasXFlag(rest) {
			w.relaxOK = false
		}
	}
	w.nest()
	w.write("(")
	w.i++
}

// closeGroup handles the ')' at p[i], which may end the look-around group
// being dropped from relaxed.
func (w *pcreRewriter) closeGroup() {
	w.i++
	if w.drop > 0 {
		if w.depth == 0 {
			w.drop = 0
			w.nb.WriteString(")")
			return
		}
		w.depth--
	}
	w.write(")")
}

// isLookAround reports whether rest starts with a look-ahead or
// look-behind group.
func isLookAround(rest string) bool {
	return strings.HasPrefix(rest, "(?=") || strings.HasPrefix(rest, "(?!") ||
		strings.HasPrefix(rest, "(?<=") || strings.HasPrefix(rest, "(?<!")
}

// hasXFlag reports whether the flags after "(?" at the start of rest
// include x.
func hasXFlag(rest string) bool {
	for j := 2; j < len(rest) && strings.IndexByte("imsxuUR-", rest[j]) >= 0; j++ {
		if rest[j] == 'x' {
			return true
		}
	}
	return false
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
