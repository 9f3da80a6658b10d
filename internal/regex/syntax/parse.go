package syntax

import (
	"sort"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// NestLimit is grep-regex's default nesting limit.
const NestLimit = 250

// parser is a port of the behaviour of regex-syntax's AST parser: same
// grammar, same error kinds, same error spans, same order of detection.
type parser struct {
	pattern      string
	pos          position
	captureIndex uint32
	ignoreWS     bool
	stackGroup   []groupState
	stackClass   []classState
	captureNames []capName
}

type capName struct {
	name string
	span span
}

type concat struct {
	span span
	asts []*astNode
}

func (c concat) intoAST() *astNode {
	switch len(c.asts) {
	case 0:
		return &astNode{kind: astEmpty, span: c.span}
	case 1:
		return c.asts[0]
	}
	return &astNode{kind: astConcat, span: c.span, subs: c.asts}
}

type groupState struct {
	isAlt bool
	// group
	concat   concat
	group    *astNode
	ignoreWS bool
	// alternation
	alt *astNode
}

type classUnion struct {
	span  span
	items []classItem
}

func (u *classUnion) push(it classItem) {
	if len(u.items) == 0 {
		u.span.start = it.span.start
	}
	u.span.end = it.span.end
	u.items = append(u.items, it)
}

func (u classUnion) intoItem() classItem {
	switch len(u.items) {
	case 0:
		return classItem{kind: ciEmpty, span: u.span}
	case 1:
		return u.items[0]
	}
	return classItem{kind: ciUnion, span: u.span, union: u.items}
}

type classState struct {
	isOp bool
	// open
	union classUnion
	set   *classBracketed
	// op
	opKind classOpKind
	lhs    classSet
}

func parseRust(pattern string) (*astNode, *syntaxError) {
	p := &parser{pattern: pattern, pos: position{0, 1, 1}}
	return p.parse()
}

func (p *parser) err(sp span, kind errKind) *syntaxError {
	return &syntaxError{kind: kind, pattern: p.pattern, span: sp}
}

func (p *parser) errAux(sp span, kind errKind, aux span) *syntaxError {
	return &syntaxError{kind: kind, pattern: p.pattern, span: sp, aux: &aux}
}

func (p *parser) isEOF() bool { return p.pos.offset >= len(p.pattern) }

func (p *parser) charAt(i int) rune {
	r, _ := decodeRuneStr(p.pattern[i:])
	return r
}

func (p *parser) char() rune {
	if p.isEOF() {
		return -1
	}
	return p.charAt(p.pos.offset)
}

func decodeRuneStr(s string) (rune, int) {
	if len(s) == 0 {
		return -1, 0
	}
	if s[0] < utf8.RuneSelf {
		return rune(s[0]), 1
	}
	return utf8.DecodeRuneInString(s)
}

func (p *parser) bump() bool {
	if p.isEOF() {
		return false
	}
	c, w := decodeRuneStr(p.pattern[p.pos.offset:])
	if c == '\n' {
		p.pos.line++
		p.pos.column = 1
	} else {
		p.pos.column++
	}
	p.pos.offset += w
	return !p.isEOF()
}

func (p *parser) bumpIf(prefix string) bool {
	if len(p.pattern)-p.pos.offset >= len(prefix) && p.pattern[p.pos.offset:p.pos.offset+len(prefix)] == prefix {
		for range utf8.RuneCountInString(prefix) {
			p.bump()
		}
		return true
	}
	return false
}

func (p *parser) isLookaroundPrefix() bool {
	return p.bumpIf("?=") || p.bumpIf("?!") || p.bumpIf("?<=") || p.bumpIf("?<!")
}

func (p *parser) bumpAndBumpSpace() bool {
	if !p.bump() {
		return false
	}
	p.bumpSpace()
	return !p.isEOF()
}

func (p *parser) bumpSpace() {
	if !p.ignoreWS {
		return
	}
	for !p.isEOF() {
		c := p.char()
		if unicode.IsSpace(c) {
			p.bump()
		} else if c == '#' {
			p.bump()
			for !p.isEOF() {
				c := p.char()
				p.bump()
				if c == '\n' {
					break
				}
			}
		} else {
			break
		}
	}
}

func (p *parser) peek() rune {
	if p.isEOF() {
		return -1
	}
	_, w := decodeRuneStr(p.pattern[p.pos.offset:])
	r, _ := decodeRuneStr(p.pattern[p.pos.offset+w:])
	return r
}

func (p *parser) peekSpace() rune {
	if !p.ignoreWS {
		return p.peek()
	}
	if p.isEOF() {
		return -1
	}
	_, w := decodeRuneStr(p.pattern[p.pos.offset:])
	start := p.pos.offset + w
	inComment := false
	rest := p.pattern[start:]
	for i, c := range rest {
		if unicode.IsSpace(c) {
			continue
		} else if !inComment && c == '#' {
			inComment = true
		} else if inComment && c == '\n' {
			inComment = false
		} else {
			start += i
			break
		}
	}
	r, _ := decodeRuneStr(p.pattern[start:])
	return r
}

func (p *parser) span() span { return span{p.pos, p.pos} }

func (p *parser) spanChar() span {
	next := p.pos
	c, w := decodeRuneStr(p.pattern[p.pos.offset:])
	next.offset += w
	next.column++
	if c == '\n' {
		next.line++
		next.column = 1
	}
	return span{p.pos, next}
}

func (p *parser) parse() (*astNode, *syntaxError) {
	cc := concat{span: p.span()}
	var e *syntaxError
	for {
		p.bumpSpace()
		if p.isEOF() {
			break
		}
		switch p.char() {
		case '(':
			cc, e = p.pushGroup(cc)
		case ')':
			cc, e = p.popGroup(cc)
		case '|':
			cc = p.pushAlternate(cc)
		case '[':
			var cls *classBracketed
			cls, e = p.parseSetClass()
			if e == nil {
				cc.asts = append(cc.asts, &astNode{kind: astClassBracketed, span: cls.span, brk: cls})
			}
		case '?':
			cc, e = p.parseUncountedRepetition(cc, repZeroOrOne)
		case '*':
			cc, e = p.parseUncountedRepetition(cc, repZeroOrMore)
		case '+':
			cc, e = p.parseUncountedRepetition(cc, repOneOrMore)
		case '{':
			cc, e = p.parseCountedRepetition(cc)
		default:
			var prim *astNode
			prim, e = p.parsePrimitive()
			if e == nil {
				cc.asts = append(cc.asts, prim)
			}
		}
		if e != nil {
			return nil, e
		}
	}
	ast, e := p.popGroupEnd(cc)
	if e != nil {
		return nil, e
	}
	if e := p.checkNest(ast, 0); e != nil {
		return nil, e
	}
	return ast, nil
}

func (p *parser) pushAlternate(cc concat) concat {
	cc.span.end = p.pos
	p.pushOrAddAlternation(cc)
	p.bump()
	return concat{span: p.span()}
}

func (p *parser) pushOrAddAlternation(cc concat) {
	if n := len(p.stackGroup); n > 0 && p.stackGroup[n-1].isAlt {
		alt := p.stackGroup[n-1].alt
		alt.subs = append(alt.subs, cc.intoAST())
		return
	}
	p.stackGroup = append(p.stackGroup, groupState{isAlt: true, alt: &astNode{
		kind: astAlternation,
		span: span{cc.span.start, p.pos},
		subs: []*astNode{cc.intoAST()},
	}})
}

func (p *parser) pushGroup(cc concat) (concat, *syntaxError) {
	isFlags, node, e := p.parseGroup()
	if e != nil {
		return cc, e
	}
	if isFlags {
		if v := node.flags.state(flagIgnoreWhitespace); v != 0 {
			p.ignoreWS = v > 0
		}
		cc.asts = append(cc.asts, node)
		return cc, nil
	}
	old := p.ignoreWS
	nw := old
	if node.groupKind == groupNonCapturing {
		if v := node.flags.state(flagIgnoreWhitespace); v != 0 {
			nw = v > 0
		}
	}
	p.stackGroup = append(p.stackGroup, groupState{concat: cc, group: node, ignoreWS: old})
	p.ignoreWS = nw
	return concat{span: p.span()}, nil
}

func (p *parser) popGroup(groupConcat concat) (concat, *syntaxError) {
	var st groupState
	var alt *astNode
	n := len(p.stackGroup)
	if n == 0 {
		return groupConcat, p.err(p.spanChar(), errGroupUnopened)
	}
	st = p.stackGroup[n-1]
	p.stackGroup = p.stackGroup[:n-1]
	if st.isAlt {
		alt = st.alt
		n--
		if n == 0 || p.stackGroup[n-1].isAlt {
			return groupConcat, p.err(p.spanChar(), errGroupUnopened)
		}
		st = p.stackGroup[n-1]
		p.stackGroup = p.stackGroup[:n-1]
	}
	p.ignoreWS = st.ignoreWS
	groupConcat.span.end = p.pos
	p.bump()
	group := st.group
	group.span.end = p.pos
	if alt != nil {
		alt.span.end = groupConcat.span.end
		alt.subs = append(alt.subs, groupConcat.intoAST())
		group.subs = []*astNode{altIntoAST(alt)}
	} else {
		group.subs = []*astNode{groupConcat.intoAST()}
	}
	prior := st.concat
	prior.asts = append(prior.asts, group)
	return prior, nil
}

func altIntoAST(alt *astNode) *astNode {
	switch len(alt.subs) {
	case 0:
		return &astNode{kind: astEmpty, span: alt.span}
	case 1:
		return alt.subs[0]
	}
	return alt
}

func (p *parser) popGroupEnd(cc concat) (*astNode, *syntaxError) {
	cc.span.end = p.pos
	n := len(p.stackGroup)
	var ast *astNode
	if n == 0 {
		ast = cc.intoAST()
	} else {
		st := p.stackGroup[n-1]
		p.stackGroup = p.stackGroup[:n-1]
		if !st.isAlt {
			return nil, p.err(st.group.span, errGroupUnclosed)
		}
		st.alt.span.end = p.pos
		st.alt.subs = append(st.alt.subs, cc.intoAST())
		ast = altIntoAST(st.alt)
	}
	if n := len(p.stackGroup); n > 0 {
		st := p.stackGroup[n-1]
		return nil, p.err(st.group.span, errGroupUnclosed)
	}
	return ast, nil
}

// popRepeated takes the expression a repetition operator at p.pos applies
// to, the last of cc, off cc; there must be one, and not a flag group.
func (p *parser) popRepeated(cc concat) (concat, *astNode, *syntaxError) {
	n := len(cc.asts)
	if n == 0 {
		return cc, nil, p.err(p.span(), errRepetitionMissing)
	}
	ast := cc.asts[n-1]
	if ast.kind == astEmpty || ast.kind == astFlags {
		return cc, nil, p.err(p.span(), errRepetitionMissing)
	}
	cc.asts = cc.asts[:n-1]
	return cc, ast, nil
}

func (p *parser) parseUncountedRepetition(cc concat, kind repetitionKind) (concat, *syntaxError) {
	opStart := p.pos
	cc, ast, e := p.popRepeated(cc)
	if e != nil {
		return cc, e
	}
	greedy := true
	if p.bump() && p.char() == '?' {
		greedy = false
		p.bump()
	}
	rep := &astNode{kind: astRepetition, span: span{ast.span.start, p.pos}, repOp: span{opStart, p.pos}, repKind: kind, greedy: greedy, subs: []*astNode{ast}}
	switch kind {
	case repZeroOrOne:
		rep.repMin, rep.repMax = 0, 1
	case repZeroOrMore:
		rep.repMin, rep.repMax = 0, ^uint32(0)
	case repOneOrMore:
		rep.repMin, rep.repMax = 1, ^uint32(0)
	}
	cc.asts = append(cc.asts, rep)
	return cc, nil
}

func (p *parser) parseCountedRepetition(cc concat) (concat, *syntaxError) {
	start := p.pos
	cc, ast, e := p.popRepeated(cc)
	if e != nil {
		return cc, e
	}
	if !p.bumpAndBumpSpace() {
		return cc, p.err(span{start, p.pos}, errRepetitionCountUnclosed)
	}
	countStart, e := p.parseDecimal()
	if e != nil {
		if e.kind == errDecimalEmpty {
			e.kind = errRepetitionCountDecimalEmpty
		}
		return cc, e
	}
	kind := repExactly
	countEnd := countStart
	if p.isEOF() {
		return cc, p.err(span{start, p.pos}, errRepetitionCountUnclosed)
	}
	if p.char() == ',' {
		if !p.bumpAndBumpSpace() {
			return cc, p.err(span{start, p.pos}, errRepetitionCountUnclosed)
		}
		if p.char() != '}' {
			countEnd, e = p.parseDecimal()
			if e != nil {
				if e.kind == errDecimalEmpty {
					e.kind = errRepetitionCountDecimalEmpty
				}
				return cc, e
			}
			kind = repBounded
		} else {
			kind = repAtLeast
			countEnd = ^uint32(0)
		}
	}
	if p.isEOF() || p.char() != '}' {
		return cc, p.err(span{start, p.pos}, errRepetitionCountUnclosed)
	}
	greedy := true
	if p.bumpAndBumpSpace() && p.char() == '?' {
		greedy = false
		p.bump()
	}
	opSpan := span{start, p.pos}
	if kind == repBounded && countStart > countEnd {
		return cc, p.err(opSpan, errRepetitionCountInvalid)
	}
	cc.asts = append(cc.asts, &astNode{kind: astRepetition, span: span{ast.span.start, p.pos}, repOp: opSpan,
		repKind: kind, repMin: countStart, repMax: countEnd, greedy: greedy, subs: []*astNode{ast}})
	return cc, nil
}

// parseGroup parses `(` and what follows up to the group's content. It
// returns isFlags=true and an astFlags node for `(?flags)`.
func (p *parser) parseGroup() (bool, *astNode, *syntaxError) {
	openSpan := p.spanChar()
	p.bump()
	p.bumpSpace()
	if p.isLookaroundPrefix() {
		return false, nil, p.err(span{openSpan.start, p.span().end}, errUnsupportedLookAround)
	}
	innerSpan := p.span()
	if p.bumpIf("?P<") || p.bumpIf("?<") {
		if p.captureIndex == ^uint32(0) {
			return false, nil, p.err(openSpan, errCaptureLimitExceeded)
		}
		p.captureIndex++
		name, e := p.parseCaptureName()
		if e != nil {
			return false, nil, e
		}
		return false, &astNode{kind: astGroup, span: openSpan, groupKind: groupCaptureName, capName: name}, nil
	}
	if p.bumpIf("?") {
		if p.isEOF() {
			return false, nil, p.err(openSpan, errGroupUnclosed)
		}
		flags, e := p.parseFlags()
		if e != nil {
			return false, nil, e
		}
		charEnd := p.char()
		p.bump()
		if charEnd == ')' {
			if len(flags.items) == 0 {
				return false, nil, p.err(innerSpan, errRepetitionMissing)
			}
			return true, &astNode{kind: astFlags, span: span{openSpan.start, p.pos}, flags: flags}, nil
		}
		return false, &astNode{kind: astGroup, span: openSpan, groupKind: groupNonCapturing, flags: flags}, nil
	}
	if p.captureIndex == ^uint32(0) {
		return false, nil, p.err(openSpan, errCaptureLimitExceeded)
	}
	p.captureIndex++
	return false, &astNode{kind: astGroup, span: openSpan, groupKind: groupCaptureIndex}, nil
}

func isCaptureChar(c rune, first bool) bool {
	if first {
		return c == '_' || unicode.IsLetter(c) || unicode.Is(unicode.Other_Alphabetic, c) || unicode.Is(unicode.Nl, c)
	}
	return c == '_' || c == '.' || c == '[' || c == ']' || isAlphanumeric(c)
}

// isAlphanumeric mirrors Rust's char::is_alphanumeric (Alphabetic or N*).
func isAlphanumeric(c rune) bool {
	return unicode.IsLetter(c) || unicode.Is(unicode.Other_Alphabetic, c) || unicode.Is(unicode.Nl, c) || unicode.IsNumber(c)
}

func (p *parser) parseCaptureName() (string, *syntaxError) {
	if p.isEOF() {
		return "", p.err(p.span(), errGroupNameUnexpectedEOF)
	}
	start := p.pos
	for {
		if p.char() == '>' {
			break
		}
		if !isCaptureChar(p.char(), p.pos == start) {
			return "", p.err(p.spanChar(), errGroupNameInvalid)
		}
		if !p.bump() {
			break
		}
	}
	end := p.pos
	if p.isEOF() {
		return "", p.err(p.span(), errGroupNameUnexpectedEOF)
	}
	p.bump()
	name := p.pattern[start.offset:end.offset]
	if name == "" {
		return "", p.err(span{start, start}, errGroupNameEmpty)
	}
	sp := span{start, end}
	i := sort.Search(len(p.captureNames), func(i int) bool { return p.captureNames[i].name >= name })
	if i < len(p.captureNames) && p.captureNames[i].name == name {
		return "", p.errAux(sp, errGroupNameDuplicate, p.captureNames[i].span)
	}
	p.captureNames = append(p.captureNames, capName{})
	copy(p.captureNames[i+1:], p.captureNames[i:])
	p.captureNames[i] = capName{name, sp}
	return name, nil
}

func (p *parser) parseFlags() (flagsAST, *syntaxError) {
	flags := flagsAST{span: p.span()}
	var lastNegation *span
	for p.char() != ':' && p.char() != ')' {
		if p.char() == '-' {
			sc := p.spanChar()
			lastNegation = &sc
			for _, it := range flags.items {
				if it.negation {
					return flags, p.errAux(sc, errFlagRepeatedNegation, it.span)
				}
			}
			flags.items = append(flags.items, flagsItem{span: sc, negation: true})
		} else {
			lastNegation = nil
			f, e := p.parseFlag()
			if e != nil {
				return flags, e
			}
			sc := p.spanChar()
			for _, it := range flags.items {
				if !it.negation && it.flag == f {
					return flags, p.errAux(sc, errFlagDuplicate, it.span)
				}
			}
			flags.items = append(flags.items, flagsItem{span: sc, flag: f})
		}
		if !p.bump() {
			return flags, p.err(p.span(), errFlagUnexpectedEOF)
		}
	}
	if lastNegation != nil {
		return flags, p.err(*lastNegation, errFlagDanglingNegation)
	}
	flags.span.end = p.pos
	return flags, nil
}

func (p *parser) parseFlag() (flag, *syntaxError) {
	switch p.char() {
	case 'i':
		return flagCaseInsensitive, nil
	case 'm':
		return flagMultiLine, nil
	case 's':
		return flagDotMatchesNewLine, nil
	case 'U':
		return flagSwapGreed, nil
	case 'u':
		return flagUnicode, nil
	case 'R':
		return flagCRLF, nil
	case 'x':
		return flagIgnoreWhitespace, nil
	}
	return 0, p.err(p.spanChar(), errFlagUnrecognized)
}

func (p *parser) parsePrimitive() (*astNode, *syntaxError) {
	switch c := p.char(); c {
	case '\\':
		return p.parseEscape()
	case '.':
		n := &astNode{kind: astDot, span: p.spanChar()}
		p.bump()
		return n, nil
	case '^':
		n := &astNode{kind: astAssertion, span: p.spanChar(), assert: assertStartLine}
		p.bump()
		return n, nil
	case '$':
		n := &astNode{kind: astAssertion, span: p.spanChar(), assert: assertEndLine}
		p.bump()
		return n, nil
	default:
		n := &astNode{kind: astLiteral, span: p.spanChar(), lit: literal{span: p.spanChar(), kind: litVerbatim, c: c}}
		p.bump()
		return n, nil
	}
}

func isMetaCharacter(c rune) bool {
	switch c {
	case '\\', '.', '+', '*', '?', '(', ')', '|', '[', ']', '{', '}', '^', '$', '#', '&', '-', '~':
		return true
	}
	return false
}

func isEscapeableCharacter(c rune) bool {
	if isMetaCharacter(c) {
		return true
	}
	if c < 0 || c > 0x7F {
		return false
	}
	switch {
	case '0' <= c && c <= '9', 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', c == '<', c == '>':
		return false
	}
	return true
}

// parseEscape parses the escape sequence whose backslash is at p.pos: a
// backreference (an error: unsupported), a hexadecimal literal, a Unicode
// class, a Perl class, or a one-character escape (parseCharEscape).
func (p *parser) parseEscape() (*astNode, *syntaxError) {
	start := p.pos
	if !p.bump() {
		return nil, p.err(span{start, p.pos}, errEscapeUnexpectedEOF)
	}
	c := p.char()
	switch {
	case '0' <= c && c <= '9':
		return nil, p.err(span{start, p.spanChar().end}, errUnsupportedBackreference)
	case c == 'x' || c == 'u' || c == 'U':
		lit, e := p.parseHex()
		if e != nil {
			return nil, e
		}
		lit.span.start = start
		return &astNode{kind: astLiteral, span: lit.span, lit: lit}, nil
	case c == 'p' || c == 'P':
		cls, sp, e := p.parseUnicodeClass()
		if e != nil {
			return nil, e
		}
		sp.start = start
		return &astNode{kind: astClassUnicode, span: sp, uni: cls}, nil
	case c == 'd' || c == 's' || c == 'w' || c == 'D' || c == 'S' || c == 'W':
		return p.parsePerlClassEscape(start, c), nil
	}
	return p.parseCharEscape(start, c)
}

// parsePerlClassEscape parses the Perl class \d, \s or \w, or its negation
// \D, \S or \W, whose letter c is at p.pos; start is the backslash's
// position.
func (p *parser) parsePerlClassEscape(start position, c rune) *astNode {
	sp := p.spanChar()
	p.bump()
	sp.start = start
	n := &astNode{kind: astClassPerl, span: sp}
	switch c {
	case 'd', 'D':
		n.perl = perlDigit
	case 's', 'S':
		n.perl = perlSpace
	default:
		n.perl = perlWord
	}
	n.negated = c == 'D' || c == 'S' || c == 'W'
	return n
}

// parseCharEscape parses the one-character escape whose character c is at
// p.pos (start is the backslash's position): an escaped meta character, a
// superfluous escape of a punctuation character, a special character such
// as \n, or an assertion (\A, \z, \b, \b{...}, \B, \<, \>). Any other
// character is an unrecognized escape.
func (p *parser) parseCharEscape(start position, c rune) (*astNode, *syntaxError) {
	p.bump()
	sp := span{start, p.pos}
	if isMetaCharacter(c) {
		return &astNode{kind: astLiteral, span: sp, lit: literal{span: sp, kind: litMeta, c: c}}, nil
	}
	if isEscapeableCharacter(c) {
		return &astNode{kind: astLiteral, span: sp, lit: literal{span: sp, kind: litSuperfluous, c: c}}, nil
	}
	if r, ok := specialEscape(c); ok {
		return &astNode{kind: astLiteral, span: sp, lit: literal{span: sp, kind: litSpecial, c: r}}, nil
	}
	var k assertionKind
	switch c {
	case 'A':
		k = assertStartText
	case 'z':
		k = assertEndText
	case 'b':
		return p.parseWordBoundaryEscape(start, sp)
	case 'B':
		k = assertNotWordBoundary
	case '<':
		k = assertWordStart
	case '>':
		k = assertWordEnd
	default:
		return nil, p.err(sp, errEscapeUnrecognized)
	}
	return &astNode{kind: astAssertion, span: sp, assert: k}, nil
}

// specialEscape returns the character that the escape \c of a special
// character stands for (\a, \f, \t, \n, \r, \v), and whether c is one.
func specialEscape(c rune) (rune, bool) {
	switch c {
	case 'a':
		return '\x07', true
	case 'f':
		return '\x0C', true
	case 't':
		return '\t', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 'v':
		return '\x0B', true
	}
	return 0, false
}

// parseWordBoundaryEscape parses what follows \b, whose span is sp (start
// is the backslash's position): a special word boundary \b{start}, \b{end},
// \b{start-half} or \b{end-half} when a '{' follows, or else a plain word
// boundary (the '{' then begins a repetition).
func (p *parser) parseWordBoundaryEscape(start position, sp span) (*astNode, *syntaxError) {
	n := &astNode{kind: astAssertion, span: sp, assert: assertWordBoundary}
	if !p.isEOF() && p.char() == '{' {
		kind, ok, e := p.maybeParseSpecialWordBoundary(start)
		if e != nil {
			return nil, e
		}
		if ok {
			n.assert = kind
			n.span.end = p.pos
		}
	}
	return n, nil
}

func (p *parser) maybeParseSpecialWordBoundary(wbStart position) (assertionKind, bool, *syntaxError) {
	isValid := func(c rune) bool { return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || c == '-' }
	start := p.pos
	if !p.bumpAndBumpSpace() {
		return 0, false, p.err(span{wbStart, p.pos}, errSpecialWordOrRepetitionUnexpectedEOF)
	}
	startContents := p.pos
	if !isValid(p.char()) {
		p.pos = start
		return 0, false, nil
	}
	var name []rune
	for !p.isEOF() && isValid(p.char()) {
		name = append(name, p.char())
		p.bumpAndBumpSpace()
	}
	if p.isEOF() || p.char() != '}' {
		return 0, false, p.err(span{start, p.pos}, errSpecialWordBoundaryUnclosed)
	}
	end := p.pos
	p.bump()
	switch string(name) {
	case "start":
		return assertWordStart, true, nil
	case "end":
		return assertWordEnd, true, nil
	case "start-half":
		return assertWordStartHalf, true, nil
	case "end-half":
		return assertWordEndHalf, true, nil
	}
	return 0, false, p.err(span{startContents, end}, errSpecialWordBoundaryUnrecognized)
}

func isHex(c rune) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func (p *parser) parseHex() (literal, *syntaxError) {
	digits := 2
	kind := litHexFixedX
	switch p.char() {
	case 'u':
		digits, kind = 4, litHexOther
	case 'U':
		digits, kind = 8, litHexOther
	}
	if !p.bumpAndBumpSpace() {
		return literal{}, p.err(p.span(), errEscapeUnexpectedEOF)
	}
	if p.char() == '{' {
		return p.parseHexBrace()
	}
	return p.parseHexDigits(digits, kind)
}

func (p *parser) parseHexDigits(digits int, kind literalKind) (literal, *syntaxError) {
	var hex []rune
	start := p.pos
	for i := 0; i < digits; i++ {
		if i > 0 && !p.bumpAndBumpSpace() {
			return literal{}, p.err(p.span(), errEscapeUnexpectedEOF)
		}
		if !isHex(p.char()) {
			return literal{}, p.err(p.spanChar(), errEscapeHexInvalidDigit)
		}
		hex = append(hex, p.char())
	}
	p.bumpAndBumpSpace()
	end := p.pos
	c, ok := hexScalar(string(hex))
	if !ok {
		return literal{}, p.err(span{start, end}, errEscapeHexInvalid)
	}
	return literal{span: span{start, end}, kind: kind, c: c}, nil
}

func hexScalar(s string) (rune, bool) {
	v, err := strconv.ParseUint(s, 16, 32)
	if err != nil || v > unicode.MaxRune || (v >= 0xD800 && v <= 0xDFFF) {
		return 0, false
	}
	return rune(v), true
}

func (p *parser) parseHexBrace() (literal, *syntaxError) {
	var hex []rune
	bracePos := p.pos
	start := p.spanChar().end
	for p.bumpAndBumpSpace() && p.char() != '}' {
		if !isHex(p.char()) {
			return literal{}, p.err(p.spanChar(), errEscapeHexInvalidDigit)
		}
		hex = append(hex, p.char())
	}
	if p.isEOF() {
		return literal{}, p.err(span{bracePos, p.pos}, errEscapeUnexpectedEOF)
	}
	end := p.pos
	p.bumpAndBumpSpace()
	if len(hex) == 0 {
		return literal{}, p.err(span{bracePos, p.pos}, errEscapeHexEmpty)
	}
	c, ok := hexScalar(string(hex))
	if !ok {
		return literal{}, p.err(span{start, end}, errEscapeHexInvalid)
	}
	return literal{span: span{start, p.pos}, kind: litHexOther, c: c}, nil
}

func (p *parser) parseDecimal() (uint32, *syntaxError) {
	var digits []byte
	for !p.isEOF() && unicode.IsSpace(p.char()) {
		p.bump()
	}
	start := p.pos
	for !p.isEOF() && '0' <= p.char() && p.char() <= '9' {
		digits = append(digits, byte(p.char()))
		p.bumpAndBumpSpace()
	}
	sp := span{start, p.pos}
	for !p.isEOF() && unicode.IsSpace(p.char()) {
		p.bumpAndBumpSpace()
	}
	if len(digits) == 0 {
		return 0, p.err(sp, errDecimalEmpty)
	}
	v, err := strconv.ParseUint(string(digits), 10, 32)
	if err != nil {
		return 0, p.err(sp, errDecimalInvalid)
	}
	return uint32(v), nil
}

func (p *parser) parseUnicodeClass() (unicodeClass, span, *syntaxError) {
	negated := p.char() == 'P'
	if !p.bumpAndBumpSpace() {
		return unicodeClass{}, span{}, p.err(p.span(), errEscapeUnexpectedEOF)
	}
	var cls unicodeClass
	var start position
	if p.char() == '{' {
		start = p.spanChar().end
		var name []rune
		for p.bumpAndBumpSpace() && p.char() != '}' {
			name = append(name, p.char())
		}
		if p.isEOF() {
			return unicodeClass{}, span{}, p.err(p.span(), errEscapeUnexpectedEOF)
		}
		p.bump()
		s := string(name)
		if i := indexStr(s, "!="); i >= 0 {
			cls = unicodeClass{kind: uniNamedValue, op: uniOpNotEqual, name: s[:i], value: s[i+2:]}
		} else if i := indexStr(s, ":"); i >= 0 {
			cls = unicodeClass{kind: uniNamedValue, op: uniOpColon, name: s[:i], value: s[i+1:]}
		} else if i := indexStr(s, "="); i >= 0 {
			cls = unicodeClass{kind: uniNamedValue, op: uniOpEqual, name: s[:i], value: s[i+1:]}
		} else {
			cls = unicodeClass{kind: uniNamed, name: s}
		}
	} else {
		start = p.pos
		c := p.char()
		if c == '\\' {
			return unicodeClass{}, span{}, p.err(p.spanChar(), errUnicodeClassInvalid)
		}
		p.bumpAndBumpSpace()
		cls = unicodeClass{kind: uniOneLetter, letter: c}
	}
	cls.negated = negated
	return cls, span{start, p.pos}, nil
}

func indexStr(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// ---- character classes ----

// classSetOp is the class set operator written with c doubled: &&, --, ~~.
func classSetOp(c rune) classOpKind {
	switch c {
	case '&':
		return opIntersection
	case '-':
		return opDifference
	}
	return opSymmetricDifference
}

func (p *parser) parseSetClass() (*classBracketed, *syntaxError) {
	union := classUnion{span: p.span()}
	for {
		p.bumpSpace()
		if p.isEOF() {
			return nil, p.unclosedClassError()
		}
		switch p.char() {
		case '[':
			if len(p.stackClass) > 0 {
				if it, ok := p.maybeParseASCIIClass(); ok {
					union.push(it)
					continue
				}
			}
			var e *syntaxError
			union, e = p.pushClassOpen(union)
			if e != nil {
				return nil, e
			}
		case ']':
			nested, top := p.popClass(union)
			if top != nil {
				return top, nil
			}
			union = nested
		case '&', '-', '~':
			// Doubled, the character is a set operator (&&, --, ~~).
			if c := p.char(); p.peek() == c {
				p.bumpIf(string([]rune{c, c}))
				union = p.pushClassOp(classSetOp(c), union)
				continue
			}
			fallthrough
		default:
			it, e := p.parseSetClassRange()
			if e != nil {
				return nil, e
			}
			union.push(it)
		}
	}
}

func (p *parser) unclosedClassError() *syntaxError {
	for i := len(p.stackClass) - 1; i >= 0; i-- {
		if !p.stackClass[i].isOp {
			return p.err(p.stackClass[i].set.span, errClassUnclosed)
		}
	}
	panic("search: no open character class")
}

func (p *parser) pushClassOpen(parent classUnion) (classUnion, *syntaxError) {
	set, nested, e := p.parseSetClassOpen()
	if e != nil {
		return parent, e
	}
	p.stackClass = append(p.stackClass, classState{union: parent, set: set})
	return nested, nil
}

func itemSet(it classItem) classSet {
	c := it
	return classSet{span: it.span, item: &c}
}

func (p *parser) popClass(nested classUnion) (classUnion, *classBracketed) {
	item := itemSet(nested.intoItem())
	prevset := p.popClassOp(item)
	n := len(p.stackClass)
	st := p.stackClass[n-1]
	p.stackClass = p.stackClass[:n-1]
	if st.isOp {
		panic("search: unexpected class op state")
	}
	p.bump()
	st.set.span.end = p.pos
	st.set.set = prevset
	if len(p.stackClass) == 0 {
		return classUnion{}, st.set
	}
	u := st.union
	u.push(classItem{kind: ciBracketed, span: st.set.span, brk: st.set})
	return u, nil
}

func (p *parser) pushClassOp(kind classOpKind, next classUnion) classUnion {
	item := itemSet(next.intoItem())
	lhs := p.popClassOp(item)
	p.stackClass = append(p.stackClass, classState{isOp: true, opKind: kind, lhs: lhs})
	return classUnion{span: p.span()}
}

func (p *parser) popClassOp(rhs classSet) classSet {
	n := len(p.stackClass)
	st := p.stackClass[n-1]
	if !st.isOp {
		return rhs
	}
	p.stackClass = p.stackClass[:n-1]
	return classSet{span: span{st.lhs.span.start, rhs.span.end}, op: &classBinaryOp{kind: st.opKind, lhs: st.lhs, rhs: rhs}}
}

func (p *parser) parseSetClassOpen() (*classBracketed, classUnion, *syntaxError) {
	start := p.pos
	if !p.bumpAndBumpSpace() {
		return nil, classUnion{}, p.err(span{start, p.pos}, errClassUnclosed)
	}
	negated := false
	if p.char() == '^' {
		if !p.bumpAndBumpSpace() {
			return nil, classUnion{}, p.err(span{start, p.pos}, errClassUnclosed)
		}
		negated = true
	}
	union := classUnion{span: p.span()}
	for p.char() == '-' {
		sc := p.spanChar()
		union.push(classItem{kind: ciLiteral, span: sc, lit: literal{span: sc, kind: litVerbatim, c: '-'}})
		if !p.bumpAndBumpSpace() {
			return nil, classUnion{}, p.err(span{start, start}, errClassUnclosed)
		}
	}
	if len(union.items) == 0 && p.char() == ']' {
		sc := p.spanChar()
		union.push(classItem{kind: ciLiteral, span: sc, lit: literal{span: sc, kind: litVerbatim, c: ']'}})
		if !p.bumpAndBumpSpace() {
			return nil, classUnion{}, p.err(span{start, p.pos}, errClassUnclosed)
		}
	}
	set := &classBracketed{span: span{start, p.pos}, negated: negated}
	return set, union, nil
}

func (p *parser) maybeParseASCIIClass() (classItem, bool) {
	start := p.pos
	negated := false
	if !p.bump() || p.char() != ':' {
		p.pos = start
		return classItem{}, false
	}
	if !p.bump() {
		p.pos = start
		return classItem{}, false
	}
	if p.char() == '^' {
		negated = true
		if !p.bump() {
			p.pos = start
			return classItem{}, false
		}
	}
	nameStart := p.pos.offset
	for p.char() != ':' && p.bump() {
	}
	if p.isEOF() {
		p.pos = start
		return classItem{}, false
	}
	name := p.pattern[nameStart:p.pos.offset]
	if !p.bumpIf(":]") {
		p.pos = start
		return classItem{}, false
	}
	kind, ok := asciiNames[name]
	if !ok {
		p.pos = start
		return classItem{}, false
	}
	return classItem{kind: ciASCII, span: span{start, p.pos}, ascii: kind, negated: negated}, true
}

func (p *parser) parseSetClassRange() (classItem, *syntaxError) {
	prim1, e := p.parseSetClassItem()
	if e != nil {
		return classItem{}, e
	}
	p.bumpSpace()
	if p.isEOF() {
		return classItem{}, p.unclosedClassError()
	}
	if p.char() != '-' || p.peekSpace() == ']' || p.peekSpace() == '-' {
		return p.intoClassSetItem(prim1)
	}
	if !p.bumpAndBumpSpace() {
		return classItem{}, p.unclosedClassError()
	}
	prim2, e := p.parseSetClassItem()
	if e != nil {
		return classItem{}, e
	}
	sp := span{prim1.span.start, prim2.span.end}
	if prim1.kind != astLiteral {
		return classItem{}, p.err(prim1.span, errClassRangeLiteral)
	}
	if prim2.kind != astLiteral {
		return classItem{}, p.err(prim2.span, errClassRangeLiteral)
	}
	if prim1.lit.c > prim2.lit.c {
		return classItem{}, p.err(sp, errClassRangeInvalid)
	}
	return classItem{kind: ciRange, span: sp, lo: prim1.lit, hi: prim2.lit}, nil
}

func (p *parser) intoClassSetItem(prim *astNode) (classItem, *syntaxError) {
	switch prim.kind {
	case astLiteral:
		return classItem{kind: ciLiteral, span: prim.span, lit: prim.lit}, nil
	case astClassPerl:
		return classItem{kind: ciPerl, span: prim.span, perl: prim.perl, negated: prim.negated}, nil
	case astClassUnicode:
		return classItem{kind: ciUnicode, span: prim.span, uni: prim.uni}, nil
	}
	return classItem{}, p.err(prim.span, errClassEscapeInvalid)
}

func (p *parser) parseSetClassItem() (*astNode, *syntaxError) {
	if p.char() == '\\' {
		return p.parseEscape()
	}
	sc := p.spanChar()
	n := &astNode{kind: astLiteral, span: sc, lit: literal{span: sc, kind: litVerbatim, c: p.char()}}
	p.bump()
	return n, nil
}

// checkNest reproduces regex-syntax's NestLimiter: every repetition, group,
// alternation, concatenation, bracketed class, class union and class
// operation adds one level.
func (p *parser) checkNest(n *astNode, depth int) *syntaxError {
	switch n.kind {
	case astEmpty, astFlags, astLiteral, astDot, astAssertion, astClassUnicode, astClassPerl:
		return nil
	}
	depth++
	if depth > NestLimit {
		return p.err(n.span, errNestLimitExceeded)
	}
	if n.kind == astClassBracketed {
		return p.checkNestSet(n.brk.set, depth)
	}
	for _, s := range n.subs {
		if e := p.checkNest(s, depth); e != nil {
			return e
		}
	}
	return nil
}

func (p *parser) checkNestSet(s classSet, depth int) *syntaxError {
	if s.op != nil {
		depth++
		if depth > NestLimit {
			return p.err(s.span, errNestLimitExceeded)
		}
		if e := p.checkNestSet(s.op.lhs, depth); e != nil {
			return e
		}
		return p.checkNestSet(s.op.rhs, depth)
	}
	return p.checkNestItem(*s.item, depth)
}

func (p *parser) checkNestItem(it classItem, depth int) *syntaxError {
	switch it.kind {
	case ciBracketed:
		depth++
		if depth > NestLimit {
			return p.err(it.span, errNestLimitExceeded)
		}
		return p.checkNestSet(it.brk.set, depth)
	case ciUnion:
		depth++
		if depth > NestLimit {
			return p.err(it.span, errNestLimitExceeded)
		}
		for _, sub := range it.union {
			if e := p.checkNestItem(sub, depth); e != nil {
				return e
			}
		}
	}
	return nil
}
