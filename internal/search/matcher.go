package search

import (
	"strings"
	"sync"

	"github.com/fscache/fscache/internal/cancel"
)

// Options of one compiled search.
type Options struct {
	// Pattern is a regular expression in the reference's dialect (Rust's
	// regex crate).
	Pattern string
	// IgnoreCase makes the whole pattern case-insensitive (Unicode simple
	// case folding); (?-i) inside the pattern still turns it off.
	IgnoreCase bool
	// Multiline turns on (?m). Matches never span lines either way.
	Multiline bool
	// ContextBefore and ContextAfter are the context lines to report around
	// each matching line, already resolved by the caller.
	ContextBefore, ContextAfter int
	// MaxColumns, when HasMaxColumns is set, cuts reported lines (and
	// context lines) longer than MaxColumns bytes to MaxColumns-3 bytes
	// plus "..." at a character boundary. The reference's maxColumns: 0 is
	// HasMaxColumns with MaxColumns 0: every non-empty line becomes "...".
	MaxColumns    int
	HasMaxColumns bool
}

// ContextLine is a line reported around a match.
type ContextLine struct {
	LineNumber int    `json:"lineNumber"`
	Line       string `json:"line"`
}

// Match is one matching line.
type Match struct {
	LineNumber    int
	Line          string
	Truncated     bool
	ContextBefore []ContextLine
	ContextAfter  []ContextLine
}

type searchMode uint8

const (
	modeDFA       searchMode = iota // run the automaton over the buffer
	modePrefilter                   // find candidate lines by literal, verify
	modePure                        // the pattern is a set of strings
	modeMatchAll                    // every line matches
	modeNever                       // no line can match
	modeBacktrack                   // lines are checked by the backtracker
)

// Matcher is a compiled search. It is immutable and safe for concurrent use
// by many goroutines.
type Matcher struct {
	opts    Options
	maxCols int
	n       *nfa
	line    *dfaShared

	lineMode searchMode
	lineLits []lit
	// lineChecks are further required sets a candidate line must hold (one
	// member of each) before the automaton runs on it.
	lineChecks [][]*finder

	bufMode    searchMode
	bufFinders []*finder

	bufOnce sync.Once
	buf     *dfaShared
	bufPool sync.Pool

	pool sync.Pool

	// bt, when set, is the backtracking engine that runs a pattern with
	// look-around or backreferences (backtrack.go); the fields above are
	// then unused.
	bt *backtracker

	// forceNFA makes Search check every line with the NFA simulation
	// (tests compare the paths).
	forceNFA bool
}

// searchState is the per-goroutine scratch of a search.
type searchState struct {
	dfa     *dfaCache
	mf      *multiFinder
	scratch []byte
}

// Compile compiles o.Pattern. An invalid pattern yields an *Error whose
// message starts with "Regex error:", as the reference's.
func Compile(o Options) (*Matcher, error) {
	return compile(o, true)
}

// compile is Compile; withBacktrack lets a look-around or backreference
// rejection go to the backtracking engine.
func compile(o Options, withBacktrack bool) (*Matcher, error) {
	h, err := patternHIR(o)
	if err != nil {
		if withBacktrack && isBacktrackError(err) {
			if bt, e := compileBacktrack(o.Pattern, o); e == nil {
				return newBacktrackMatcher(o, bt), nil
			}
		}
		return nil, &Error{Pattern: o.Pattern, Msg: err.Error()}
	}
	n, err := compileNFA(h)
	if err != nil {
		return nil, &Error{Pattern: o.Pattern, Msg: err.Error()}
	}
	m := &Matcher{opts: o, n: n, maxCols: -1}
	if o.HasMaxColumns {
		m.maxCols = max(o.MaxColumns, 0)
	}
	m.plan(h)
	m.line = newDFAShared(n, true)
	m.pool.New = func() any {
		st := &searchState{dfa: newDFACache(m.line)}
		if len(m.lineLits) > 0 {
			st.mf = newMultiFinder(m.lineLits)
		}
		return st
	}
	return m, nil
}

// patternHIR is the hir of o.Pattern as the reference builds it: braces
// that cannot be a repetition escaped, and, when parsing fails with an
// unclosed or unopened group, the parentheses escaped and the pattern
// tried once more.
func patternHIR(o Options) (*hir, error) {
	sanitized := sanitizeBraces(o.Pattern)
	h, err := buildHIR(sanitized, o)
	if err != nil {
		msg := err.Error()
		if strings.Contains(msg, "unclosed group") || strings.Contains(msg, "unopened group") {
			if esc := escapeParens(sanitized); esc != sanitized {
				h, err = buildHIR(esc, o)
			}
		}
	}
	return h, err
}

// buildHIR parses and translates one candidate pattern the way grep-regex
// does: the pattern is wrapped in (?:...), which is why error messages
// show it so.
func buildHIR(p string, o Options) (*hir, error) {
	wrapped := "(?:" + p + ")"
	a, e := parseRust(wrapped)
	if e != nil {
		return nil, e
	}
	h, e := translate(wrapped, a, hirFlags{caseInsensitive: o.IgnoreCase, multiLine: o.Multiline, unicode: true})
	if e != nil {
		return nil, e
	}
	if rustSize(h) > rustSizeLimit {
		return nil, sizeLimitError{}
	}
	return h, nil
}

const maxPrefilterLits = 8

// plan decides how lines are found: by literal search, by automaton, or not
// at all.
func (m *Matcher) plan(h *hir) {
	if !hasLook(h) && nullable(h) {
		m.lineMode, m.bufMode = modeMatchAll, modeMatchAll
		return
	}
	info := extractLits(h)
	pure := info.exact != nil && !info.lossy && !info.look && allNonEmpty(info.exact)

	// Buffer mode (HasMatch): the strings as they are.
	m.bufMode = modeDFA
	var bufLits []lit
	if pure && len(info.exact) <= maxPrefilterLits {
		m.bufMode, bufLits = modePure, info.exact
	} else if best := pickSet(info, false); best != nil {
		m.bufMode, bufLits = modePrefilter, best
	}
	for _, l := range bufLits {
		m.bufFinders = append(m.bufFinders, newFinder(l))
	}

	// Line mode: strings holding '\n' cannot occur in a line.
	m.lineMode = modeDFA
	if pure {
		ex := withoutNewline(info.exact)
		if len(ex) == 0 {
			m.lineMode = modeNever
			return
		}
		if len(ex) <= maxPrefilterLits {
			m.lineMode, m.lineLits = modePure, ex
			return
		}
	}
	sets := candidateSets(info)
	for _, s := range sets {
		if len(withoutNewline(s)) == 0 {
			m.lineMode = modeNever
			return
		}
	}
	best := pickSet(info, true)
	if best == nil || setCost(best) >= 0.02 {
		return
	}
	m.lineMode, m.lineLits = modePrefilter, best
	for _, s := range sets {
		s = withoutNewline(s)
		if !allNonEmpty(s) || len(s) > maxPrefilterLits || sameLits(s, best) || len(m.lineChecks) == 3 {
			continue
		}
		var fs []*finder
		for _, l := range s {
			fs = append(fs, newFinder(l))
		}
		m.lineChecks = append(m.lineChecks, fs)
	}
}

func sameLits(a, b []lit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// passesChecks reports whether line holds a member of every check set.
func (m *Matcher) passesChecks(line []byte) bool {
	for _, fs := range m.lineChecks {
		ok := false
		for _, f := range fs {
			if f.contains(line) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func candidateSets(info litInfo) [][]lit {
	var sets [][]lit
	if info.exact != nil && allNonEmpty(info.exact) {
		sets = append(sets, info.exact)
	}
	return append(sets, info.req...)
}

// pickSet returns the cheapest usable required set, or nil.
func pickSet(info litInfo, line bool) []lit {
	var best []lit
	bestCost := 0.0
	for _, s := range candidateSets(info) {
		if line {
			s = withoutNewline(s)
		}
		if !allNonEmpty(s) || len(s) > maxPrefilterLits {
			continue
		}
		if c := setCost(s); best == nil || c < bestCost {
			best, bestCost = s, c
		}
	}
	return best
}

func hasLook(h *hir) bool {
	if h.kind == hirLook {
		return true
	}
	for _, s := range h.subs {
		if hasLook(s) {
			return true
		}
	}
	return false
}

// nullable reports whether h can match the empty string (assertions
// assumed to hold).
func nullable(h *hir) bool {
	switch h.kind {
	case hirEmpty, hirLook:
		return true
	case hirLiteral:
		return len(h.lit) == 0
	case hirClass, hirBytes:
		return false
	case hirRepeat:
		return h.min == 0 || nullable(h.subs[0])
	case hirConcat:
		for _, s := range h.subs {
			if !nullable(s) {
				return false
			}
		}
		return true
	case hirAlt:
		for _, s := range h.subs {
			if nullable(s) {
				return true
			}
		}
		return false
	}
	return false
}

// HasMatchCancel reports whether data contains a match of the pattern
// anywhere, looking at the raw bytes (matches may span lines here, as in
// the reference's filesWithMatches mode), with the cancel token of Search, whose error
// it returns once the token stopped. It fails too when the automaton
// simulation runs out of its budget, and a pattern on the backtracking
// engine with a *BudgetError; that engine looks at the data line by line.
func (m *Matcher) HasMatchCancel(data []byte, tok *cancel.Token) (bool, error) {
	if m.bt != nil {
		_, n, err := m.Search(data, 0, false, nil, tok)
		return n > 0 && err == nil, err
	}
	return m.hasMatch(data, tok)
}

func (m *Matcher) hasMatch(data []byte, tok *cancel.Token) (bool, error) {
	if tok.Stopped() {
		return false, tok.Err()
	}
	switch m.bufMode {
	case modeMatchAll:
		return true, nil
	case modeNever:
		return false, nil
	case modePure, modePrefilter:
		found := false
		for _, f := range m.bufFinders {
			if f.find(data, 0, len(data)) >= 0 {
				found = true
				break
			}
		}
		if !found {
			return false, nil
		}
		if m.bufMode == modePure {
			return true, nil
		}
	}
	m.bufOnce.Do(func() {
		m.buf = newDFAShared(m.n, false)
		m.bufPool.New = func() any { return newDFACache(m.buf) }
	})
	d := m.bufPool.Get().(*dfaCache)
	defer m.bufPool.Put(d)
	d.badClr = 0
	d.tok = tok
	defer func() { d.tok = nil }()
	if d.sim != nil {
		d.sim.resetWork()
	}
	ok := d.matchHaystack(data)
	if tok.Stopped() {
		return false, tok.Err()
	}
	if d.sim != nil && d.sim.over {
		return false, &BudgetError{Line: 1, Limit: nfaBudgetText}
	}
	return ok, nil
}
