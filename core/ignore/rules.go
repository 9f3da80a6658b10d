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

// rule is one compiled line of an ignore file.
type rule struct {
	kind      ruleKind
	whitelist bool
	dirOnly   bool
	lit       string
	prefix    string // literal every match starts with (kBaseProg, kPathProg)
	suffix    string // literal every match ends with (kBaseProg, kPathProg)
	prog      *prog
}

// best holds the highest index of a rule of a lookup group, for rules that
// match anything (any) and for directory-only rules (dir); -1 when none.
type best struct{ any, dir int32 }

// ruleFile is one compiled ignore file. Patterns are matched against paths
// relative to dir.
type ruleFile struct {
	dir    string // directory the patterns are relative to ("" is "/")
	rules  []rule
	lits   map[string]best // kBaseLit rules by literal
	exts   map[string]best // kBaseExt rules by extension (with the dot)
	others []int32         // indices of all other rules, ascending
}

// parseRuleFile compiles the content of an ignore file whose patterns are
// relative to dir. It returns nil when the file has no usable rule.
//
// Line handling follows ripgrep: lines split on "\n" (a "\r" before it is
// dropped), reading stops at the first line that is not valid UTF-8, leading
// byte order marks of the first line are dropped, a line that fails to parse
// is skipped, and a class that globset could not compile to a regex voids
// the whole file.
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
		r, ok, broken := parseLine(s)
		if broken {
			return nil
		}
		if ok {
			f.rules = append(f.rules, r)
		}
	}
	if len(f.rules) == 0 {
		return nil
	}
	for i := range f.rules {
		r := &f.rules[i]
		var m *map[string]best
		switch r.kind {
		case kBaseLit:
			m = &f.lits
		case kBaseExt:
			m = &f.exts
		default:
			f.others = append(f.others, int32(i))
			continue
		}
		if *m == nil {
			*m = make(map[string]best)
		}
		b, ok := (*m)[r.lit]
		if !ok {
			b = best{-1, -1}
		}
		if r.dirOnly {
			b.dir = int32(i)
		} else {
			b.any = int32(i)
		}
		(*m)[r.lit] = b
	}
	return f
}

// parseLine compiles one line of an ignore file. ok is false for blank
// lines, comments and lines that do not parse; broken is true when the line
// would make ripgrep drop the whole file.
func parseLine(line string) (r rule, ok, broken bool) {
	if strings.HasPrefix(line, "#") {
		return r, false, false
	}
	if !strings.HasSuffix(line, "\\ ") {
		line = strings.TrimRightFunc(line, unicode.IsSpace)
	}
	if line == "" {
		return r, false, false
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
		return r, false, false
	}
	if !classify(&r, toks) {
		return r, false, true
	}
	return r, true, false
}

// classify picks the cheapest exact matching strategy for toks. It returns
// false when the pattern's regex would not compile in globset.
func classify(r *rule, toks []token) bool {
	if len(toks) == 1 && toks[0].kind == tRecPrefix {
		r.kind = kAll // "**" is special-cased to ".*" by globset
		return true
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
				return true
			}
			if len(rest) == 1 && rest[0].kind == tStar {
				r.kind = kAll
				return true
			}
			if rest[0].kind == tStar {
				if lit, ok := literalOf(rest[1:]); ok && lit != "" {
					if lit[0] == '.' && !strings.Contains(lit[1:], ".") {
						r.kind = kBaseExt
					} else {
						r.kind = kBaseSuffix
					}
					r.lit = lit
					return true
				}
			}
			if rest[len(rest)-1].kind == tStar {
				if lit, ok := literalOf(rest[:len(rest)-1]); ok && lit != "" {
					r.kind, r.lit = kBasePrefix, lit
					return true
				}
			}
			p, ok := compileProg(rest)
			r.kind, r.prog = kBaseProg, p
			r.prefix, r.suffix = literalEnds(rest)
			return ok
		}
	}
	if lit, ok := literalOf(toks); ok {
		r.kind, r.lit = kPathLit, lit
		return true
	}
	p, ok := compileProg(toks)
	r.kind, r.prog = kPathProg, p
	r.prefix, r.suffix = literalEnds(toks)
	return ok
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
		if !strings.HasPrefix(name, r.prefix) || !strings.HasSuffix(name, r.suffix) {
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
	if f.lits != nil {
		if b, ok := f.lits[name]; ok {
			hi = b.any
			if isDir && b.dir > hi {
				hi = b.dir
			}
		}
	}
	if f.exts != nil {
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
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
		idx := f.others[j]
		if idx <= hi {
			break
		}
		r := &f.rules[idx]
		if r.dirOnly && !isDir {
			continue
		}
		if r.matches(rel, slash, name) {
			hi = idx
			break
		}
	}
	if hi < 0 {
		return None
	}
	if f.rules[hi].whitelist {
		return Whitelist
	}
	return Ignore
}
