package syntax

import "unicode/utf8"

// Hir is the high-level intermediate representation a pattern is lowered
// to: regex-syntax's Hir without captures. Flags are resolved: case
// insensitivity is expressed with classes, anchors and word boundaries
// carry their exact meaning, and Unicode classes are explicit.
type Hir struct {
	Kind HirKind
	Lit  []byte    // hirLiteral
	Cls  RuneClass // hirClass (Unicode scalar values, matched as UTF-8)
	Bcls ByteClass // hirBytes (raw bytes, from (?-u) classes)
	Look LookKind  // hirLook
	Min  uint32    // hirRepeat
	Max  uint32    // hirRepeat; unbounded when max == repeatInf
	Subs []*Hir    // hirRepeat (one), hirConcat, hirAlt
}

// RepeatInf is the Max of a repetition without an upper bound.
const RepeatInf = ^uint32(0)

// HirKind is the kind of a Hir node.
type HirKind uint8

const (
	HirEmpty HirKind = iota
	HirLiteral
	HirClass
	HirBytes
	HirLook
	HirRepeat
	HirConcat
	HirAlt
)

// LookKind is a zero-width assertion.
type LookKind uint8

const (
	LookStart             LookKind = iota // \A, or ^ without (?m)
	LookEnd                               // \z, or $ without (?m)
	LookStartLF                           // (?m)^
	LookEndLF                             // (?m)$
	LookStartCRLF                         // (?mR)^
	LookEndCRLF                           // (?mR)$
	LookWordASCII                         // (?-u)\b
	LookWordASCIINegate                   // (?-u)\B
	LookWordUnicode                       // \b
	LookWordUnicodeNegate                 // \B
	LookWordStartASCII                    // (?-u)\<
	LookWordEndASCII                      // (?-u)\>
	LookWordStartUnicode                  // \<
	LookWordEndUnicode                    // \>
	LookWordStartHalfASCII
	LookWordEndHalfASCII
	LookWordStartHalfUnicode
	LookWordEndHalfUnicode
	NumLooks
)

// IsUnicodeWord reports whether k is a Unicode word-boundary assertion,
// which the lazy DFA decides only on ASCII input.
func (k LookKind) IsUnicodeWord() bool {
	switch k {
	case LookWordUnicode, LookWordUnicodeNegate, LookWordStartUnicode, LookWordEndUnicode,
		LookWordStartHalfUnicode, LookWordEndHalfUnicode:
		return true
	}
	return false
}

func hLit(b []byte) *Hir { return &Hir{Kind: HirLiteral, Lit: b} }

func hRune(r rune) *Hir {
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	return hLit(append([]byte(nil), buf[:n]...))
}

// hClass returns a class node, or a literal when the class holds one rune.
func hClass(c RuneClass) *Hir {
	if len(c) == 1 && c[0].Lo == c[0].Hi {
		return hRune(c[0].Lo)
	}
	return &Hir{Kind: HirClass, Cls: c}
}

func hBytes(c ByteClass) *Hir {
	if len(c) == 1 && c[0].Lo == c[0].Hi {
		return hLit([]byte{c[0].Lo})
	}
	return &Hir{Kind: HirBytes, Bcls: c}
}
