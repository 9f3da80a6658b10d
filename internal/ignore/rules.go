package ignore

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

type ruleKind uint8

const (
	kAll        ruleKind = iota // matches every entry
	kBaseLit                    // basename == lit
	kBaseExt                    // basename ends with lit, lit = ".ext" without another '.'
	kBasePrefix                 // basename starts with lit
	kBaseSuffix                 // basename ends with lit
	kBaseProg                   // basename matches prog
	kPathLit                    // relative path == lit
	kPathProg                   // relative path matches prog
)

// rule is one compiled pattern of an ignore file. A line whose pattern
// has small alternations or classes may be expanded into several rules
// sharing its line number.
type rule struct {
	line      int32 // index of the source line among the file's patterns
	kind      ruleKind
	whitelist bool
	dirOnly   bool
	lit       string
	prefix    string // literal every match starts with (kBaseProg, kPathProg)
	suffix    string // literal every match ends with (kBaseProg, kPathProg)
	inner     string // literal every match contains (kBaseProg)
	prog      *prog
}

// best holds the highest line of the rules of a lookup group, for rules
// that match anything (any) and for directory-only rules (dir); -1 when
// none.
type best struct{ any, dir int32 }

// ruleFile is one compiled ignore file. Patterns are matched against paths
// relative to dir.
type ruleFile struct {
	dir     string          // directory the patterns are relative to ("" is "/")
	white   []bool          // per line: whether it is a whitelist (negated) pattern
	lits    map[string]best // kBaseLit rules by literal
	exts    map[string]best // kBaseExt rules by extension (with the dot)
	litLens uint64          // bit min(len, 63) set for every key of lits
	extLens uint64          // same for exts
	others  []rule          // all other rules, by ascending line
}

func lenBit(n int) uint64 { return 1 << min(n, 63) }

// parseRuleFile compiles the content of an ignore file whose patterns are
// relative to dir. It returns nil when the file has no usable rule.
//
// Line handling follows ripgrep: lines split on "\n" (a "\r" before it is
// dropped), reading stops at the first line that is not valid UTF-8, leading
// byte order marks of the first line are dropped, and a line that fails to
// parse is skipped.
func parseRuleFile(dir string, data []byte) *ruleFile {
	f := &ruleFile{dir: dir}
	for i := 0; len(data) > 0; i++ {
		var line []byte
		if j := bytes.IndexByte(data, '\n'); j >= 0 {
			line, data = data[:j], data[j+1:]
			line = bytes.TrimSuffix(line, []byte{'\r'})
		} else {
			line, data = data, nil
		}
		if !utf8.Valid(line) {
			break
		}
		s := string(line)
		if i == 0 {
			for strings.HasPrefix(s, "\uFEFF") {
				s = s[len("\uFEFF"):]
			}
		}
		rules, white, ok := parseLine(s)
		if !ok {
			continue
		}
		n := int32(len(f.white))
		f.white = append(f.white, white)
		for _, r := range rules {
			r.line = n
			f.add(r)
		}
	}
	if len(f.white) == 0 {
		return nil
	}
	return f
}

func (f *ruleFile) add(r rule) {
	var m *map[string]best
	switch r.kind {
	case kBaseLit:
		m = &f.lits
		f.litLens |= lenBit(len(r.lit))
	case kBaseExt:
		m = &f.exts
		f.extLens |= lenBit(len(r.lit))
	default:
		f.others = append(f.others, r)
		return
	}
	if *m == nil {
		*m = make(map[string]best)
	}
	b, ok := (*m)[r.lit]
	if !ok {
		b = best{-1, -1}
	}
	if r.dirOnly {
		b.dir = r.line
	} else {
		b.any = r.line
	}
	(*m)[r.lit] = b
}

// parseLine compiles one line of an ignore file into one or more rules
// (without their line number). ok is false for blank lines, comments and
// lines that do not parse.
func parseLine(line string) (rules []rule, white, ok bool) {
	var r rule
	if strings.HasPrefix(line, "#") {
		return nil, false, false
	}
	if !strings.HasSuffix(line, "\\ ") {
		line = strings.TrimRightFunc(line, unicode.IsSpace)
	}
	if line == "" {
		return nil, false, false
	}
	absolute := false
	if strings.HasPrefix(line, "\\!") || strings.HasPrefix(line, "\\#") {
		line = line[1:]
	} else {
		if strings.HasPrefix(line, "!") {
			r.whitelist = true
			line = line[1:]
		}
		if strings.HasPrefix(line, "/") {
			line = line[1:]
			absolute = true
		}
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly = true
		line = line[:len(line)-1]
		line = strings.TrimSuffix(line, "\\")
	}
	actual := line
	if !absolute && !strings.Contains(line, "/") &&
		!strings.HasPrefix(actual, "**/") && actual != "**" {
		actual = "**/" + actual
	}
	if strings.HasSuffix(actual, "/**") {
		actual += "/*"
	}
	toks, err := parseGlob(actual)
	if err != nil {
		return nil, false, false
	}
	variants := expand(toks)
	if variants == nil {
		variants = [][]token{toks}
	}
	for _, v := range variants {
		rv := r
		classify(&rv, v)
		if (rv.kind == kBaseProg || rv.kind == kPathProg) && rv.prog == nil {
			return nil, false, false // too large to match in bounded time
		}
		rules = append(rules, rv)
	}
	return rules, r.whitelist, true
}

// maxVariants bounds the expansion of alternations and classes.
const maxVariants = 16

// expand rewrites a pattern with alternations and small ASCII classes into
// the equivalent list of patterns without them, so that for example
// `*.{js,ts}` or `*.py[cod]` become plain extension rules. It returns nil
// when there is nothing to expand or the expansion would be too large.
func expand(toks []token) [][]token {
	has := false
	for i := range toks {
		if toks[i].kind == tAlt || toks[i].kind == tClass {
			has = true
		}
	}
	if !has {
		return nil
	}
	out, ok := expandSeq(toks)
	if !ok {
		return nil
	}
	for _, v := range out {
		// A lone "**" means "everything" only as a whole glob.
		if len(v) == 1 && v[0].kind == tRecPrefix {
			return nil
		}
	}
	return out
}

func expandSeq(toks []token) ([][]token, bool) {
	out := [][]token{nil}
	for i := range toks {
		t := &toks[i]
		var alts [][]token
		switch t.kind {
		case tAlt:
			for _, br := range t.alts {
				if len(br) == 0 {
					continue // empty branches are dropped by globset
				}
				sub, ok := expandSeq(br)
				if !ok {
					return nil, false
				}
				alts = append(alts, sub...)
			}
			if len(alts) == 0 {
				continue // an alternation of empty branches matches ""
			}
		case tClass:
			set := classSet(t)
			for c := 0; c < 256; c++ {
				if set.has(byte(c)) {
					if c >= utf8.RuneSelf || len(alts) == maxVariants {
						return nil, false
					}
					alts = append(alts, []token{{kind: tLit, ch: rune(c)}})
				}
			}
		default:
			for j := range out {
				out[j] = append(out[j], *t)
			}
			continue
		}
		if len(out)*len(alts) > maxVariants {
			return nil, false
		}
		next := make([][]token, 0, len(out)*len(alts))
		for _, o := range out {
			for _, a := range alts {
				v := make([]token, 0, len(o)+len(a))
				next = append(next, append(append(v, o...), a...))
			}
		}
		out = next
	}
	return out, true
}

// classify picks the cheapest exact matching strategy for toks.
func classify(r *rule, toks []token) {
	if len(toks) == 1 && toks[0].kind == tRecPrefix {
		r.kind = kAll // "**" is special-cased to ".*" by globset
		return
	}
	if len(toks) > 0 && toks[0].kind == tRecPrefix {
		rest := toks[1:]
		baseOnly := true
		for i := range rest {
			if canMatchSlash(&rest[i]) {
				baseOnly = false
				break
			}
		}
		if baseOnly {
			// (?:/?|.*/)X with X unable to match '/' matches exactly the
			// paths whose basename matches X.
			if lit, ok := literalOf(rest); ok {
				r.kind, r.lit = kBaseLit, lit
				return
			}
			if len(rest) == 1 && rest[0].kind == tStar {
				r.kind = kAll
				return
			}
			if rest[0].kind == tStar {
				if lit, ok := literalOf(rest[1:]); ok && lit != "" {
					if lit[0] == '.' && !strings.Contains(lit[1:], ".") {
						r.kind = kBaseExt
					} else {
						r.kind = kBaseSuffix
					}
					r.lit = lit
					return
				}
			}
			if rest[len(rest)-1].kind == tStar {
				if lit, ok := literalOf(rest[:len(rest)-1]); ok && lit != "" {
					r.kind, r.lit = kBasePrefix, lit
					return
				}
			}
			r.kind, r.prog = kBaseProg, compileProg(rest)
			r.prefix, r.suffix = literalEnds(rest)
			r.inner = longestLiteral(rest)
			return
		}
	}
	if lit, ok := literalOf(toks); ok {
		r.kind, r.lit = kPathLit, lit
		return
	}
	r.kind, r.prog = kPathProg, compileProg(toks)
	r.prefix, r.suffix = literalEnds(toks)
}

// literalEnds returns the literal runs at the start and at the end of toks.
func literalEnds(toks []token) (prefix, suffix string) {
	i := 0
	for i < len(toks) && toks[i].kind == tLit {
		i++
	}
	prefix, _ = literalOf(toks[:i])
	j := len(toks)
	for j > i && toks[j-1].kind == tLit {
		j--
	}
	suffix, _ = literalOf(toks[j:])
	return prefix, suffix
}

// longestLiteral returns the longest run of literal tokens in toks.
func longestLiteral(toks []token) string {
	bestLit := ""
	for i := 0; i < len(toks); {
		j := i
		for j < len(toks) && toks[j].kind == tLit {
			j++
		}
		if j > i {
			if lit, _ := literalOf(toks[i:j]); len(lit) > len(bestLit) {
				bestLit = lit
			}
			i = j
		} else {
			i++
		}
	}
	return bestLit
}

// A candidate path is name when slash is false, else rel + "/" + name.

func candLen(rel string, slash bool, name string) int {
	if !slash {
		return len(name)
	}
	return len(rel) + 1 + len(name)
}

func candHasPrefix(rel string, slash bool, name, pre string) bool {
	if !slash {
		return strings.HasPrefix(name, pre)
	}
	if len(pre) <= len(rel) {
		return strings.HasPrefix(rel, pre)
	}
	if pre[:len(rel)] != rel || pre[len(rel)] != '/' {
		return false
	}
	return strings.HasPrefix(name, pre[len(rel)+1:])
}

func candHasSuffix(rel string, slash bool, name, suf string) bool {
	if len(suf) <= len(name) {
		return strings.HasSuffix(name, suf)
	}
	if !slash {
		return false
	}
	k := len(suf) - len(name)
	if suf[k:] != name || suf[k-1] != '/' {
		return false
	}
	return strings.HasSuffix(rel, suf[:k-1])
}

// matches reports whether the rule's pattern matches the candidate (the
// directory-only flag is the caller's business).
func (r *rule) matches(rel string, slash bool, name string) bool {
	switch r.kind {
	case kAll:
		return true
	case kBaseLit:
		return name == r.lit
	case kBaseExt, kBaseSuffix:
		return strings.HasSuffix(name, r.lit)
	case kBasePrefix:
		return strings.HasPrefix(name, r.lit)
	case kBaseProg:
		if !strings.HasPrefix(name, r.prefix) || !strings.HasSuffix(name, r.suffix) ||
			!strings.Contains(name, r.inner) {
			return false
		}
		return r.prog.matchParts(name)
	case kPathLit:
		return candLen(rel, slash, name) == len(r.lit) && candHasPrefix(rel, slash, name, r.lit)
	case kPathProg:
		if !candHasSuffix(rel, slash, name, r.suffix) || !candHasPrefix(rel, slash, name, r.prefix) {
			return false
		}
		if !slash {
			return r.prog.matchParts(name)
		}
		return r.prog.matchParts(rel, "/", name)
	}
	return false
}

// match returns the verdict of the last rule of f matching the candidate.
func (f *ruleFile) match(rel string, slash bool, name string, isDir bool) Match {
	hi := int32(-1)
	if f.litLens&lenBit(len(name)) != 0 {
		if b, ok := f.lits[name]; ok {
			hi = b.any
			if isDir && b.dir > hi {
				hi = b.dir
			}
		}
	}
	if f.extLens != 0 {
		if i := strings.LastIndexByte(name, '.'); i >= 0 && f.extLens&lenBit(len(name)-i) != 0 {
			if b, ok := f.exts[name[i:]]; ok {
				if b.any > hi {
					hi = b.any
				}
				if isDir && b.dir > hi {
					hi = b.dir
				}
			}
		}
	}
	for j := len(f.others) - 1; j >= 0; j-- {
		r := &f.others[j]
		if r.line <= hi {
			break
		}
		if r.dirOnly && !isDir {
			continue
		}
		if r.matches(rel, slash, name) {
			hi = r.line
			break
		}
	}
	if hi < 0 {
		return None
	}
	if f.white[hi] {
		return Whitelist
	}
	return Ignore
}
