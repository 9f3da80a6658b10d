package glob

import (
	"errors"
	"fmt"
)

// This file parses the glob dialect of ripgrep's globset crate (0.4.18) as
// both users configure it: literal_separator (`*` and `?` never match `/`),
// backslash escapes, `{a,b}` alternation (nested allowed, empty branches
// dropped) and the byte-oriented matching of its `(?-u)` regexes (`?`
// matches one byte, a class matches one byte). The one option that differs
// is Syntax.UnclosedClassLiteral: the ignore crate takes an unclosed `[`
// literally in gitignore lines; glob() refuses it, as pi-natives does.
//
// A pattern is parsed into tokens (here), expanded and classified into
// parts with a fast literal form where there is one (parts.go), the others
// compiled into a Thompson NFA run with bitsets (nfa.go). globset itself
// compiles to a regex; this is the same language, matched without one.

type tokKind uint8

const (
	tLit       tokKind = iota // one literal character
	tAny                      // ?      -> [^/]
	tStar                     // *      -> [^/]*
	tRecPrefix                // **/    -> (?:/?|.*/)
	tRecSuffix                // /**    -> /.*
	tRecZOM                   // /**/   -> (?:/|/.*/)
	tClass                    // [...]  -> one byte of a set
	tAlt                      // {a,b}  -> (?:a|b)
)

// token is 16 bytes: patterns are parsed at every uncached scan (each
// line of every ignore file), one token per literal character.
type token struct {
	kind    tokKind
	negated bool
	ch      rune
	*tokSets
}

// tokSets holds what a class or an alternation token has beside its kind.
type tokSets struct {
	ranges [][2]rune // tClass
	alts   [][]token // tAlt
}

// The parse errors, worded as globset's.
var (
	errDanglingEscape = errors.New(`dangling '\'`)
	errUnclosedAlt    = errors.New("unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)")
	errUnopenedAlt    = errors.New("unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)")
	errUnclosedClass  = errors.New("unclosed character class; missing ']'")
)

// invalidRange is globset's error for a descending class range.
func invalidRange(r [2]rune) error {
	return fmt.Errorf("invalid range; '%c' > '%c'", r[0], r[1])
}

// Syntax holds the parse options that differ between the dialect's users.
type Syntax struct {
	// UnclosedClassLiteral reads a '[' without its ']' as a literal, and
	// no later '[' as a class opener (gitignore lines); otherwise it is an
	// error.
	UnclosedClassLiteral bool
	// MaxStates, when positive, refuses a pattern whose automaton would
	// have more states (ErrTooLarge): gitignore lines skip such a line.
	// Zero compiles any size (a large automaton is matched without its
	// closure table, see prog.matchSparse).
	MaxStates int
}

const noRune rune = -1

type globParser struct {
	syn           Syntax
	chars         []rune
	idx           int
	prev, cur     rune
	branches      [][]token
	altStack      []int
	foundUnclosed bool
}

// parse parses s into tokens.
func parse(s string, syn Syntax) ([]token, error) {
	chars := []rune(s)
	p := &globParser{
		syn:   syn,
		chars: chars,
		prev:  noRune,
		cur:   noRune,
		// About one token per character: one allocation, not one per
		// doubling (gitignore files are parsed at every uncached scan).
		branches: [][]token{make([]token, 0, len(chars))},
	}
	for {
		c := p.bump()
		if c == noRune {
			break
		}
		var err error
		switch c {
		case '?':
			p.push(token{kind: tAny})
		case '*':
			err = p.parseStar()
		case '[':
			if p.foundUnclosed {
				p.push(token{kind: tLit, ch: '['})
			} else {
				err = p.parseClass()
			}
		case '{':
			p.altStack = append(p.altStack, len(p.branches))
			p.branches = append(p.branches, nil)
		case '}':
			if len(p.altStack) == 0 {
				return nil, errUnopenedAlt
			}
			start := p.altStack[len(p.altStack)-1]
			p.altStack = p.altStack[:len(p.altStack)-1]
			alts := append([][]token(nil), p.branches[start:]...)
			p.branches = p.branches[:start]
			p.push(token{kind: tAlt, tokSets: &tokSets{alts: alts}})
		case ',':
			if len(p.altStack) == 0 {
				p.push(token{kind: tLit, ch: ','})
			} else {
				p.branches = append(p.branches, nil)
			}
		case '\\':
			n := p.bump()
			if n == noRune {
				return nil, errDanglingEscape
			}
			p.push(token{kind: tLit, ch: n})
		default:
			p.push(token{kind: tLit, ch: c})
		}
		if err != nil {
			return nil, err
		}
	}
	if len(p.branches) > 1 {
		return nil, errUnclosedAlt
	}
	return p.branches[0], nil
}

func (p *globParser) bump() rune {
	p.prev = p.cur
	if p.idx < len(p.chars) {
		p.cur = p.chars[p.idx]
		p.idx++
	} else {
		p.cur = noRune
	}
	return p.cur
}

func (p *globParser) peek() rune {
	if p.idx < len(p.chars) {
		return p.chars[p.idx]
	}
	return noRune
}

func (p *globParser) push(t token) {
	last := len(p.branches) - 1
	p.branches[last] = append(p.branches[last], t)
}

func (p *globParser) pop() token {
	last := len(p.branches) - 1
	b := p.branches[last]
	t := b[len(b)-1]
	p.branches[last] = b[:len(b)-1]
	return t
}

func (p *globParser) haveTokens() bool {
	return len(p.branches[len(p.branches)-1]) > 0
}

func (p *globParser) parseStar() error {
	prev := p.prev
	star := token{kind: tStar}
	if p.peek() != '*' {
		p.push(star)
		return nil
	}
	p.bump()
	if !p.haveTokens() {
		if pk := p.peek(); pk != noRune && pk != '/' {
			p.push(star)
			p.push(star)
		} else {
			p.push(token{kind: tRecPrefix})
			p.bump()
		}
		return nil
	}
	if prev != '/' {
		if len(p.branches) <= 1 || (prev != ',' && prev != '{') {
			p.push(star)
			p.push(star)
			return nil
		}
	}
	var isSuffix bool
	switch pk := p.peek(); {
	case pk == noRune:
		p.bump()
		isSuffix = true
	case (pk == ',' || pk == '}') && len(p.branches) >= 2:
		isSuffix = true
	case pk == '/':
		p.bump()
	default:
		p.push(star)
		p.push(star)
		return nil
	}
	switch t := p.pop(); t.kind {
	case tRecPrefix, tRecSuffix:
		p.push(t)
	default:
		if isSuffix {
			p.push(token{kind: tRecSuffix})
		} else {
			p.push(token{kind: tRecZOM})
		}
	}
	return nil
}

func (p *globParser) parseClass() error {
	savedIdx, savedPrev, savedCur := p.idx, p.prev, p.cur
	negated := false
	if pk := p.peek(); pk == '!' || pk == '^' {
		p.bump()
		negated = true
	}
	var ranges [][2]rune
	first, inRange := true, false
	for {
		c := p.bump()
		if c == noRune {
			if !p.syn.UnclosedClassLiteral {
				return errUnclosedClass
			}
			// Unclosed class: the '[' is a literal and no later '[' opens
			// a class.
			p.idx, p.prev, p.cur = savedIdx, savedPrev, savedCur
			p.foundUnclosed = true
			p.push(token{kind: tLit, ch: '['})
			return nil
		}
		if c == ']' && !first {
			break
		}
		switch {
		case c == ']':
			ranges = append(ranges, [2]rune{']', ']'})
		case c == '-' && first:
			ranges = append(ranges, [2]rune{'-', '-'})
		case c == '-' && inRange:
			r := &ranges[len(ranges)-1]
			r[1] = '-'
			if r[1] < r[0] {
				return invalidRange(*r)
			}
			inRange = false
		case c == '-':
			inRange = true
		default:
			if inRange {
				r := &ranges[len(ranges)-1]
				r[1] = c
				if r[1] < r[0] {
					return invalidRange(*r)
				}
			} else {
				ranges = append(ranges, [2]rune{c, c})
			}
			inRange = false
		}
		first = false
	}
	if inRange {
		ranges = append(ranges, [2]rune{'-', '-'})
	}
	p.push(token{kind: tClass, negated: negated, tokSets: &tokSets{ranges: ranges}})
	return nil
}

// silent reports whether globset translates toks into an empty regex: they
// are only groups whose branches are all silent ("", "{}", "{{},}"). globset
// drops such a branch from its group, so "{{},a}" matches "a" but not "".
func silent(toks []token) bool {
	for i := range toks {
		if toks[i].kind != tAlt {
			return false
		}
		for _, br := range toks[i].alts {
			if !silent(br) {
				return false
			}
		}
	}
	return true
}
