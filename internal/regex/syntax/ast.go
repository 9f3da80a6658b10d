package syntax

// This file holds the abstract syntax tree of a pattern in the reference's
// dialect (Rust's regex-syntax). The parser in parse.go builds it, the
// translator in translate.go lowers it to a hir.

// position is a point in the pattern: byte offset, 1-based line and 1-based
// column counted in characters, as regex-syntax reports them.
type position struct{ offset, line, column int }

// span is a half-open range of the pattern.
type span struct{ start, end position }

func (s span) isOneLine() bool { return s.start.line == s.end.line }

type astKind uint8

const (
	astEmpty astKind = iota
	astFlags         // (?flags): changes the flags of the rest of the group
	astLiteral
	astDot
	astAssertion
	astClassUnicode // \pN, \p{Name}
	astClassPerl    // \d \s \w and negations
	astClassBracketed
	astRepetition
	astGroup
	astAlternation
	astConcat
)

type literalKind uint8

const (
	litVerbatim literalKind = iota
	litMeta
	litSuperfluous
	litHexFixedX // \xNN: the only kind that denotes a raw byte in (?-u) mode
	litHexOther  // \uNNNN, \UNNNNNNNN, \x{..}, \u{..}, \U{..}
	litSpecial   // \a \f \t \n \r \v
)

type literal struct {
	span span
	kind literalKind
	c    rune
}

// byteValue reports the raw byte a literal denotes when Unicode mode is off.
func (l literal) byteValue() (byte, bool) {
	if l.kind == litHexFixedX && l.c <= 0xFF {
		return byte(l.c), true
	}
	return 0, false
}

type assertionKind uint8

const (
	assertStartLine       assertionKind = iota // ^
	assertEndLine                              // $
	assertStartText                            // \A
	assertEndText                              // \z
	assertWordBoundary                         // \b
	assertNotWordBoundary                      // \B
	assertWordStart                            // \< and \b{start}
	assertWordEnd                              // \> and \b{end}
	assertWordStartHalf                        // \b{start-half}
	assertWordEndHalf                          // \b{end-half}
)

type perlKind uint8

const (
	perlDigit perlKind = iota
	perlSpace
	perlWord
)

type unicodeClassKind uint8

const (
	uniOneLetter unicodeClassKind = iota
	uniNamed
	uniNamedValue
)

type unicodeOp uint8

const (
	uniOpEqual unicodeOp = iota
	uniOpColon
	uniOpNotEqual
)

type unicodeClass struct {
	kind    unicodeClassKind
	negated bool
	letter  rune
	name    string
	op      unicodeOp
	value   string
}

type flag uint8

const (
	flagCaseInsensitive flag = iota
	flagMultiLine
	flagDotMatchesNewLine
	flagSwapGreed
	flagUnicode
	flagCRLF
	flagIgnoreWhitespace
)

type flagsItem struct {
	span     span
	negation bool
	flag     flag
}

type flagsAST struct {
	span  span
	items []flagsItem
}

// state reports whether f is set (+1), cleared (-1) or absent (0).
func (fs flagsAST) state(f flag) int {
	neg := false
	for _, it := range fs.items {
		if it.negation {
			neg = true
			continue
		}
		if it.flag == f {
			if neg {
				return -1
			}
			return 1
		}
	}
	return 0
}

type groupKind uint8

const (
	groupCaptureIndex groupKind = iota
	groupCaptureName
	groupNonCapturing
)

type repetitionKind uint8

const (
	repZeroOrOne repetitionKind = iota
	repZeroOrMore
	repOneOrMore
	repExactly
	repAtLeast
	repBounded
)

type astNode struct {
	kind astKind
	span span

	lit     literal
	assert  assertionKind
	perl    perlKind
	negated bool // perl class negation
	uni     unicodeClass
	brk     *classBracketed

	// repetition
	repOp     span
	repKind   repetitionKind
	repMin    uint32
	repMax    uint32
	greedy    bool
	groupKind groupKind
	capName   string
	flags     flagsAST // astFlags, and groupNonCapturing's flags

	subs []*astNode // concat, alternation; sub[0] of group and repetition
}

type classItemKind uint8

const (
	ciEmpty classItemKind = iota
	ciLiteral
	ciRange
	ciASCII
	ciUnicode
	ciPerl
	ciBracketed
	ciUnion
)

type asciiKind uint8

const (
	asciiAlnum asciiKind = iota
	asciiAlpha
	asciiASCII
	asciiBlank
	asciiCntrl
	asciiDigit
	asciiGraph
	asciiLower
	asciiPrint
	asciiPunct
	asciiSpace
	asciiUpper
	asciiWord
	asciiXdigit
)

var asciiNames = map[string]asciiKind{
	"alnum": asciiAlnum, "alpha": asciiAlpha, "ascii": asciiASCII, "blank": asciiBlank,
	"cntrl": asciiCntrl, "digit": asciiDigit, "graph": asciiGraph, "lower": asciiLower,
	"print": asciiPrint, "punct": asciiPunct, "space": asciiSpace, "upper": asciiUpper,
	"word": asciiWord, "xdigit": asciiXdigit,
}

type classItem struct {
	kind     classItemKind
	span     span
	lit      literal // ciLiteral
	lo, hi   literal // ciRange
	ascii    asciiKind
	negated  bool // ciASCII, ciPerl
	perl     perlKind
	uni      unicodeClass
	brk      *classBracketed
	union    []classItem
	uniSpan  span // span of a ciUnicode item, for errors
	perlSpan span
}

type classOpKind uint8

const (
	opIntersection classOpKind = iota
	opDifference
	opSymmetricDifference
)

// classSet is either an item (op == nil) or a binary operation.
type classSet struct {
	span span
	item *classItem
	op   *classBinaryOp
}

type classBinaryOp struct {
	kind     classOpKind
	lhs, rhs classSet
}

type classBracketed struct {
	span    span
	negated bool
	set     classSet
}
