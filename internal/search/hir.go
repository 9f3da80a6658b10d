package search

import "unicode/utf8"

// hir is the high-level intermediate representation a pattern is lowered
// to: regex-syntax's Hir without captures. Flags are resolved: case
// insensitivity is expressed with classes, anchors and word boundaries
// carry their exact meaning, and Unicode classes are explicit.
type hir struct {
	kind hirKind
	lit  []byte    // hirLiteral
	cls  runeClass // hirClass (Unicode scalar values, matched as UTF-8)
	bcls byteClass // hirBytes (raw bytes, from (?-u) classes)
	look lookKind  // hirLook
	min  uint32    // hirRepeat
	max  uint32    // hirRepeat; unbounded when max == repeatInf
	subs []*hir    // hirRepeat (one), hirConcat, hirAlt
}

const repeatInf = ^uint32(0)

type hirKind uint8

const (
	hirEmpty hirKind = iota
	hirLiteral
	hirClass
	hirBytes
	hirLook
	hirRepeat
	hirConcat
	hirAlt
)

// lookKind is a zero-width assertion.
type lookKind uint8

const (
	lookStart             lookKind = iota // \A, or ^ without (?m)
	lookEnd                               // \z, or $ without (?m)
	lookStartLF                           // (?m)^
	lookEndLF                             // (?m)$
	lookStartCRLF                         // (?mR)^
	lookEndCRLF                           // (?mR)$
	lookWordASCII                         // (?-u)\b
	lookWordASCIINegate                   // (?-u)\B
	lookWordUnicode                       // \b
	lookWordUnicodeNegate                 // \B
	lookWordStartASCII                    // (?-u)\<
	lookWordEndASCII                      // (?-u)\>
	lookWordStartUnicode                  // \<
	lookWordEndUnicode                    // \>
	lookWordStartHalfASCII
	lookWordEndHalfASCII
	lookWordStartHalfUnicode
	lookWordEndHalfUnicode
	numLooks
)

func (k lookKind) isUnicodeWord() bool {
	switch k {
	case lookWordUnicode, lookWordUnicodeNegate, lookWordStartUnicode, lookWordEndUnicode,
		lookWordStartHalfUnicode, lookWordEndHalfUnicode:
		return true
	}
	return false
}

func hLit(b []byte) *hir { return &hir{kind: hirLiteral, lit: b} }

func hRune(r rune) *hir {
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	return hLit(append([]byte(nil), buf[:n]...))
}

// hClass returns a class node, or a literal when the class holds one rune.
func hClass(c runeClass) *hir {
	if len(c) == 1 && c[0].lo == c[0].hi {
		return hRune(c[0].lo)
	}
	return &hir{kind: hirClass, cls: c}
}

func hBytes(c byteClass) *hir {
	if len(c) == 1 && c[0].lo == c[0].hi {
		return hLit([]byte{c[0].lo})
	}
	return &hir{kind: hirBytes, bcls: c}
}
