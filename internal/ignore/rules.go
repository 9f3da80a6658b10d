package ignore

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fscache/fscache/internal/glob"
)

// rule is one compiled pattern of an ignore file: a part of the line's
// glob (glob.CompileParts; a line whose pattern has small alternations or
// classes may give several rules sharing its line number).
type rule struct {
	glob.Part
	line      int32 // index of the source line among the file's patterns
	whitelist bool
	dirOnly   bool
}

// gitignoreSyntax is the glob syntax of gitignore lines: an unclosed class
// is literal, and a line too large to match in bounded time is skipped.
var gitignoreSyntax = glob.Syntax{UnclosedClassLiteral: true, MaxStates: glob.MaxIgnoreStates}

// best holds the highest line of the rules of a lookup group, for rules
// that match anything (any) and for directory-only rules (dir); -1 when
// none.
type best struct{ any, dir int32 }

// ruleFile is one compiled ignore file. Patterns are matched against paths
// relative to dir.
type ruleFile struct {
	dir     string          // directory the patterns are relative to ("" is "/")
	white   []bool          // per line: whether it is a whitelist (negated) pattern
	lits    map[string]best // BaseLit rules by literal
	exts    map[string]best // BaseExt rules by extension (with the dot)
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
	switch r.Kind {
	case glob.BaseLit:
		m = &f.lits
		f.litLens |= lenBit(len(r.Lit))
	case glob.BaseExt:
		m = &f.exts
		f.extLens |= lenBit(len(r.Lit))
	default:
		f.others = append(f.others, r)
		return
	}
	if *m == nil {
		*m = make(map[string]best)
	}
	b, ok := (*m)[r.Lit]
	if !ok {
		b = best{-1, -1}
	}
	if r.dirOnly {
		b.dir = r.line
	} else {
		b.any = r.line
	}
	(*m)[r.Lit] = b
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
	parts, err := glob.CompileParts(actual, gitignoreSyntax)
	if err != nil {
		return nil, false, false // does not parse, or too large (glob.ErrTooLarge)
	}
	for _, pt := range parts {
		rv := r
		rv.Part = pt
		rules = append(rules, rv)
	}
	return rules, r.whitelist, true
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
		if r.Match(rel, slash, name) {
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
