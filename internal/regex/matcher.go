package regex

import (
	"sync"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/regex/syntax"
)

// Options of one compiled pattern.
type Options struct {
	// Pattern is a regular expression in the reference's dialect (Rust's
	// regex crate).
	Pattern string
	// IgnoreCase makes the whole pattern case-insensitive (Unicode simple
	// case folding); (?-i) inside the pattern still turns it off.
	IgnoreCase bool
	// Multiline turns on (?m). Matches never span lines either way.
	Multiline bool
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

// Regexp is a compiled pattern. It is immutable and safe for concurrent use
// by many goroutines.
type Regexp struct {
	opts Options
	n    *nfa
	line *dfaShared

	lineMode searchMode
	lineLits []syntax.Lit
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

	// forceNFA makes LineIter check every line with the NFA simulation
	// (tests compare the paths).
	forceNFA bool
}

// searchState is the per-goroutine scratch of a search.
type searchState struct {
	dfa *dfaCache
	mf  *multiFinder
}

// Compile compiles o.Pattern. An invalid pattern yields an *Error whose
// message starts with "Regex error:", as the reference's. A pattern the
// dialect rejects only for look-around or a backreference compiles to the
// backtracking engine (Backtracks).
func Compile(o Options) (*Regexp, error) {
	return compile(o, true)
}

// compile is Compile; withBacktrack lets a look-around or backreference
// rejection go to the backtracking engine.
func compile(o Options, withBacktrack bool) (*Regexp, error) {
	h, err := patternHIR(o)
	if err != nil {
		if withBacktrack && syntax.IsBacktrackError(err) {
			if bt, e := compileBacktrack(o.Pattern, o); e == nil {
				return newBacktrackRegexp(o, bt), nil
			}
		}
		return nil, &Error{Pattern: o.Pattern, Msg: err.Error()}
	}
	n, err := compileNFA(h)
	if err != nil {
		return nil, &Error{Pattern: o.Pattern, Msg: err.Error()}
	}
	m := &Regexp{opts: o, n: n}
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

// patternHIR is the hir of o.Pattern as the reference builds it
// (syntax.Parse), rejected when the reference's compiled program would
// exceed its size limit.
func patternHIR(o Options) (*syntax.Hir, error) {
	h, err := syntax.Parse(o.Pattern, o.IgnoreCase, o.Multiline)
	if err != nil {
		return nil, err
	}
	if rustSize(h) > rustSizeLimit {
		return nil, sizeLimitError{}
	}
	return h, nil
}

const maxPrefilterLits = 8

// plan decides how lines are found: by literal search, by automaton, or not
// at all.
func (m *Regexp) plan(h *syntax.Hir) {
	if !hasLook(h) && nullable(h) {
		m.lineMode, m.bufMode = modeMatchAll, modeMatchAll
		return
	}
	info := syntax.Literals(h)
	pure := info.Exact != nil && !info.Lossy && !info.Look && syntax.AllNonEmpty(info.Exact)

	// Buffer mode (HasMatch): the strings as they are.
	m.bufMode = modeDFA
	var bufLits []syntax.Lit
	if pure && len(info.Exact) <= maxPrefilterLits {
		m.bufMode, bufLits = modePure, info.Exact
	} else if best := pickSet(info, false); best != nil {
		m.bufMode, bufLits = modePrefilter, best
	}
	for _, l := range bufLits {
		m.bufFinders = append(m.bufFinders, newFinder(l))
	}

	// Line mode: strings holding '\n' cannot occur in a line.
	m.lineMode = modeDFA
	if pure {
		ex := syntax.WithoutNewline(info.Exact)
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
		if len(syntax.WithoutNewline(s)) == 0 {
			m.lineMode = modeNever
			return
		}
	}
	best := pickSet(info, true)
	if best == nil || syntax.SetCost(best) >= 0.02 {
		return
	}
	m.lineMode, m.lineLits = modePrefilter, best
	for _, s := range sets {
		s = syntax.WithoutNewline(s)
		if !syntax.AllNonEmpty(s) || len(s) > maxPrefilterLits || sameLits(s, best) || len(m.lineChecks) == 3 {
			continue
		}
		var fs []*finder
		for _, l := range s {
			fs = append(fs, newFinder(l))
		}
		m.lineChecks = append(m.lineChecks, fs)
	}
}

func sameLits(a, b []syntax.Lit) bool {
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
func (m *Regexp) passesChecks(line []byte) bool {
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

func candidateSets(info syntax.LitInfo) [][]syntax.Lit {
	var sets [][]syntax.Lit
	if info.Exact != nil && syntax.AllNonEmpty(info.Exact) {
		sets = append(sets, info.Exact)
	}
	return append(sets, info.Req...)
}

// pickSet returns the cheapest usable required set, or nil.
func pickSet(info syntax.LitInfo, line bool) []syntax.Lit {
	var best []syntax.Lit
	bestCost := 0.0
	for _, s := range candidateSets(info) {
		if line {
			s = syntax.WithoutNewline(s)
		}
		if !syntax.AllNonEmpty(s) || len(s) > maxPrefilterLits {
			continue
		}
		if c := syntax.SetCost(s); best == nil || c < bestCost {
			best, bestCost = s, c
		}
	}
	return best
}

func hasLook(h *syntax.Hir) bool {
	if h.Kind == syntax.HirLook {
		return true
	}
	for _, s := range h.Subs {
		if hasLook(s) {
			return true
		}
	}
	return false
}

// nullable reports whether h can match the empty string (assertions
// assumed to hold).
func nullable(h *syntax.Hir) bool {
	switch h.Kind {
	case syntax.HirEmpty, syntax.HirLook:
		return true
	case syntax.HirLiteral:
		return len(h.Lit) == 0
	case syntax.HirClass, syntax.HirBytes:
		return false
	case syntax.HirRepeat:
		return h.Min == 0 || nullable(h.Subs[0])
	case syntax.HirConcat:
		for _, s := range h.Subs {
			if !nullable(s) {
				return false
			}
		}
		return true
	case syntax.HirAlt:
		for _, s := range h.Subs {
			if nullable(s) {
				return true
			}
		}
		return false
	}
	return false
}

// Backtracks reports whether the pattern runs on the backtracking engine
// (look-around, backreferences): its lines are checked one by one with
// time budgets, and HasMatch does not apply.
func (m *Regexp) Backtracks() bool { return m.bt != nil }

// HasMatch reports whether data contains a match of the pattern anywhere,
// looking at the raw bytes (matches may span lines here, as in the
// reference's filesWithMatches mode), under the cancel token tok, whose
// error it returns once the token stopped. It fails too with a
// *BudgetError when the automaton simulation runs out of its budget. The
// Regexp must not be one that Backtracks.
func (m *Regexp) HasMatch(data []byte, tok *cancel.Token) (bool, error) {
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
