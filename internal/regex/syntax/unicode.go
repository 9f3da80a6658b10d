package syntax

import (
	"sync"
	"unicode"
)

// This file resolves Unicode classes the way regex-syntax does (perl
// classes, \p{..} names with loose matching, POSIX classes), from the
// tables of Go's unicode package. Properties Go has no table for are
// derived from their definitions in the UCD where that is possible.

func tableClass(t *unicode.RangeTable) RuneClass {
	var rs []RuneRange
	add := func(lo, hi, stride rune) {
		if stride == 1 {
			rs = append(rs, RuneRange{lo, hi})
			return
		}
		for c := lo; c <= hi; c += stride {
			rs = append(rs, RuneRange{c, c})
		}
	}
	for _, r := range t.R16 {
		add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	for _, r := range t.R32 {
		add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	return canon(rs)
}

func tables(ts ...*unicode.RangeTable) RuneClass {
	var c RuneClass
	for _, t := range ts {
		c = c.union(tableClass(t))
	}
	return c
}

func runesWhere(f func(rune) bool) RuneClass {
	var rs []RuneRange
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r == 0xD800 {
			r = 0xDFFF
			continue
		}
		if f(r) {
			if n := len(rs); n > 0 && rs[n-1].Hi == r-1 {
				rs[n-1].Hi = r
			} else {
				rs = append(rs, RuneRange{r, r})
			}
		}
	}
	return rs
}

// lazyClass computes a class once.
type lazyClass struct {
	once sync.Once
	cls  RuneClass
	f    func() RuneClass
}

func (l *lazyClass) get() RuneClass {
	l.once.Do(func() { l.cls = l.f() })
	return l.cls
}

func lazy(f func() RuneClass) *lazyClass { return &lazyClass{f: f} }

var (
	clsAlphabetic = lazy(func() RuneClass {
		return tables(unicode.Lu, unicode.Ll, unicode.Lt, unicode.Lm, unicode.Lo, unicode.Nl, unicode.Other_Alphabetic)
	})
	clsPerlWord = lazy(func() RuneClass {
		return clsAlphabetic.get().union(tables(unicode.M, unicode.Nd, unicode.Pc, unicode.Join_Control))
	})
	clsPerlDigit = lazy(func() RuneClass { return tableClass(unicode.Nd) })
	clsPerlSpace = lazy(func() RuneClass { return tableClass(unicode.White_Space) })
	clsAssigned  = lazy(func() RuneClass { return tableClass(unicode.Categories["Cn"]).negate() })
	clsLowercase = lazy(func() RuneClass { return tables(unicode.Ll, unicode.Other_Lowercase) })
	clsUppercase = lazy(func() RuneClass { return tables(unicode.Lu, unicode.Other_Uppercase) })
	clsIDStart   = lazy(func() RuneClass {
		return tables(unicode.Lu, unicode.Ll, unicode.Lt, unicode.Lm, unicode.Lo, unicode.Nl, unicode.Other_ID_Start).
			difference(tables(unicode.Pattern_Syntax, unicode.Pattern_White_Space))
	})
	clsIDContinue = lazy(func() RuneClass {
		// U+200C, U+200D, U+30FB and U+FF65 joined Other_ID_Continue in
		// Unicode 15.1, after Go's tables.
		extra := RuneClass{{0x200C, 0x200D}, {0x30FB, 0x30FB}, {0xFF65, 0xFF65}}
		return clsIDStart.get().union(tables(unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue)).
			union(extra).difference(tables(unicode.Pattern_Syntax, unicode.Pattern_White_Space))
	})
	// XID_Start and XID_Continue differ from ID_Start and ID_Continue by
	// the characters whose NFKC form is not an identifier.
	clsXIDStart = lazy(func() RuneClass {
		return clsIDStart.get().difference(xidStartExclusions)
	})
	clsXIDContinue = lazy(func() RuneClass {
		return clsIDContinue.get().difference(xidContinueExclusions)
	})
	clsGraphemeExtend = lazy(func() RuneClass { return tables(unicode.Me, unicode.Mn, unicode.Other_Grapheme_Extend) })
	clsCased          = lazy(func() RuneClass {
		return clsLowercase.get().union(clsUppercase.get()).union(tableClass(unicode.Lt))
	})
	clsCWL = lazy(func() RuneClass { return runesWhere(func(r rune) bool { return unicode.ToLower(r) != r }) })
	clsCWU = lazy(func() RuneClass {
		return runesWhere(func(r rune) bool { return unicode.ToUpper(r) != r }).union(specialUpper)
	})
	clsCWT = lazy(func() RuneClass {
		return runesWhere(func(r rune) bool { return unicode.ToTitle(r) != r }).union(specialUpper.difference(titleSelf))
	})
	clsCWCF = lazy(func() RuneClass {
		return runesWhere(func(r rune) bool {
			switch {
			case 0x13A0 <= r && r <= 0x13F5: // Cherokee folds to upper case
				return false
			case 0x13F8 <= r && r <= 0x13FD || 0xAB70 <= r && r <= 0xABBF:
				return true
			}
			return r != 0x131 && unicode.ToLower(unicode.ToUpper(r)) != r
		}).union(specialUpper).union(RuneClass{{0x1E9E, 0x1E9E}}).difference(foldUnchangedNFD)
	})
)

var (
	xidStartExclusions = RuneClass{{0x37A, 0x37A}, {0xE33, 0xE33}, {0xEB3, 0xEB3}, {0x309B, 0x309C},
		{0xFC5E, 0xFC63}, {0xFDFA, 0xFDFB}, {0xFE70, 0xFE70}, {0xFE72, 0xFE72}, {0xFE74, 0xFE74},
		{0xFE76, 0xFE76}, {0xFE78, 0xFE78}, {0xFE7A, 0xFE7A}, {0xFE7C, 0xFE7C}, {0xFE7E, 0xFE7E}, {0xFF9E, 0xFF9F}}
	xidContinueExclusions = RuneClass{{0x37A, 0x37A}, {0x309B, 0x309C}, {0xFC5E, 0xFC63}, {0xFDFA, 0xFDFB},
		{0xFE70, 0xFE70}, {0xFE72, 0xFE72}, {0xFE74, 0xFE74}, {0xFE76, 0xFE76}, {0xFE78, 0xFE78},
		{0xFE7A, 0xFE7A}, {0xFE7C, 0xFE7C}, {0xFE7E, 0xFE7E}}
	// specialUpper are the characters whose full (SpecialCasing) upper
	// case mapping differs from them although the simple one does not.
	specialUpper = RuneClass{{0xDF, 0xDF}, {0x149, 0x149}, {0x1F0, 0x1F0}, {0x390, 0x390}, {0x3B0, 0x3B0},
		{0x587, 0x587}, {0x1E96, 0x1E9A}, {0x1F50, 0x1F50}, {0x1F52, 0x1F52}, {0x1F54, 0x1F54}, {0x1F56, 0x1F56},
		{0x1F80, 0x1FAF}, {0x1FB2, 0x1FB4}, {0x1FB6, 0x1FB7}, {0x1FBC, 0x1FBC}, {0x1FC2, 0x1FC4}, {0x1FC6, 0x1FC7},
		{0x1FCC, 0x1FCC}, {0x1FD2, 0x1FD3}, {0x1FD6, 0x1FD7}, {0x1FE2, 0x1FE4}, {0x1FE6, 0x1FE7}, {0x1FF2, 0x1FF4},
		{0x1FF6, 0x1FF7}, {0x1FFC, 0x1FFC}, {0xFB00, 0xFB06}, {0xFB13, 0xFB17}}
	// foldUnchangedNFD are characters whose decomposition is unchanged by
	// case folding, so they do not change when case folded.
	foldUnchangedNFD = RuneClass{{0x1F0, 0x1F0}, {0x390, 0x390}, {0x3B0, 0x3B0}, {0x1E96, 0x1E99}, {0x1F50, 0x1F50},
		{0x1F52, 0x1F52}, {0x1F54, 0x1F54}, {0x1F56, 0x1F56}, {0x1FB6, 0x1FB6}, {0x1FBE, 0x1FBE}, {0x1FC6, 0x1FC6},
		{0x1FD2, 0x1FD3}, {0x1FD6, 0x1FD7}, {0x1FE2, 0x1FE4}, {0x1FE6, 0x1FE7}, {0x1FF6, 0x1FF6}}
	// titleSelf are the characters of specialUpper that are their own
	// title case.
	titleSelf = RuneClass{{0x1F88, 0x1F8F}, {0x1F98, 0x1F9F}, {0x1FA8, 0x1FAF}, {0x1FBC, 0x1FBC}, {0x1FCC, 0x1FCC}, {0x1FFC, 0x1FFC}}
)

func notAssigned() RuneClass { return clsAssigned.get().negate() }

var binaryProps = map[string]func() RuneClass{
	"alphabetic":                 clsAlphabetic.get,
	"asciihexdigit":              func() RuneClass { return tableClass(unicode.ASCII_Hex_Digit) },
	"bidicontrol":                func() RuneClass { return tableClass(unicode.Bidi_Control) },
	"cased":                      clsCased.get,
	"caseignorable":              caseIgnorable,
	"changeswhencasefolded":      clsCWCF.get,
	"changeswhencasemapped":      func() RuneClass { return clsCWL.get().union(clsCWU.get()).union(clsCWT.get()) },
	"changeswhenlowercased":      clsCWL.get,
	"changeswhentitlecased":      clsCWT.get,
	"changeswhenuppercased":      clsCWU.get,
	"dash":                       func() RuneClass { return tableClass(unicode.Dash) },
	"defaultignorablecodepoint":  defaultIgnorable,
	"deprecated":                 func() RuneClass { return tableClass(unicode.Deprecated) },
	"diacritic":                  func() RuneClass { return tableClass(unicode.Diacritic) },
	"extender":                   func() RuneClass { return tableClass(unicode.Extender) },
	"graphemebase":               graphemeBase,
	"graphemeextend":             clsGraphemeExtend.get,
	"hexdigit":                   func() RuneClass { return tableClass(unicode.Hex_Digit) },
	"idsbinaryoperator":          func() RuneClass { return tableClass(unicode.IDS_Binary_Operator) },
	"idstrinaryoperator":         func() RuneClass { return tableClass(unicode.IDS_Trinary_Operator) },
	"idcontinue":                 clsIDContinue.get,
	"idstart":                    clsIDStart.get,
	"ideographic":                func() RuneClass { return tableClass(unicode.Ideographic) },
	"joincontrol":                func() RuneClass { return tableClass(unicode.Join_Control) },
	"logicalorderexception":      func() RuneClass { return tableClass(unicode.Logical_Order_Exception) },
	"lowercase":                  clsLowercase.get,
	"math":                       func() RuneClass { return tables(unicode.Sm, unicode.Other_Math) },
	"noncharactercodepoint":      func() RuneClass { return tableClass(unicode.Noncharacter_Code_Point) },
	"patternsyntax":              func() RuneClass { return tableClass(unicode.Pattern_Syntax) },
	"patternwhitespace":          func() RuneClass { return tableClass(unicode.Pattern_White_Space) },
	"prependedconcatenationmark": func() RuneClass { return tableClass(unicode.Prepended_Concatenation_Mark) },
	"quotationmark":              func() RuneClass { return tableClass(unicode.Quotation_Mark) },
	"radical":                    func() RuneClass { return tableClass(unicode.Radical) },
	"regionalindicator":          func() RuneClass { return tableClass(unicode.Regional_Indicator) },
	"sentenceterminal":           func() RuneClass { return tableClass(unicode.Sentence_Terminal) },
	"softdotted":                 func() RuneClass { return tableClass(unicode.Soft_Dotted) },
	"terminalpunctuation":        func() RuneClass { return tableClass(unicode.Terminal_Punctuation) },
	"unifiedideograph":           func() RuneClass { return tableClass(unicode.Unified_Ideograph) },
	"uppercase":                  clsUppercase.get,
	"variationselector":          func() RuneClass { return tableClass(unicode.Variation_Selector) },
	"whitespace":                 clsPerlSpace.get,
	"xidcontinue":                clsXIDContinue.get,
	"xidstart":                   clsXIDStart.get,
}

// propAliases maps normalized aliases of binary properties to the keys of
// binaryProps, and the names of the enumerated properties regex-syntax
// accepts in \p{name=value}.
var propAliases = map[string]string{
	"alpha": "alphabetic", "ahex": "asciihexdigit", "bidic": "bidicontrol", "ci": "caseignorable",
	"cwcf": "changeswhencasefolded", "cwcm": "changeswhencasemapped", "cwl": "changeswhenlowercased",
	"cwt": "changeswhentitlecased", "cwu": "changeswhenuppercased", "di": "defaultignorablecodepoint",
	"dep": "deprecated", "dia": "diacritic", "ext": "extender", "grbase": "graphemebase",
	"grext": "graphemeextend", "hex": "hexdigit", "idsb": "idsbinaryoperator", "idst": "idstrinaryoperator",
	"idc": "idcontinue", "ids": "idstart", "ideo": "ideographic", "joinc": "joincontrol",
	"loe": "logicalorderexception", "lower": "lowercase", "nchar": "noncharactercodepoint",
	"patsyn": "patternsyntax", "patws": "patternwhitespace", "pcm": "prependedconcatenationmark",
	"qmark": "quotationmark", "ri": "regionalindicator", "sterm": "sentenceterminal", "sd": "softdotted",
	"term": "terminalpunctuation", "uideo": "unifiedideograph", "upper": "uppercase", "vs": "variationselector",
	"wspace": "whitespace", "space": "whitespace", "xidc": "xidcontinue", "xids": "xidstart",
	// Enumerated properties.
	"gc": "generalcategory", "sc": "script", "scx": "scriptextensions",
	"gcb": "graphemeclusterbreak", "sb": "sentencebreak", "wb": "wordbreak",
}

// enumeratedProps are property names valid on the left of \p{name=value}.
var enumeratedProps = map[string]bool{
	"generalcategory": true, "script": true, "scriptextensions": true, "age": true,
	"graphemeclusterbreak": true, "sentencebreak": true, "wordbreak": true,
}

func caseIgnorable() RuneClass {
	c := tables(unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
	var rs []RuneRange
	for _, r := range []rune{0x27, 0x2E, 0x3A, 0x5E, 0x60, 0xA8, 0xAD, 0xAF, 0xB4, 0xB7, 0xB8, 0x387, 0x55F, 0x5F4, 0x2018, 0x2019, 0x2024, 0x2027, 0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A} {
		rs = append(rs, RuneRange{r, r})
	}
	return c.union(rs)
}

func defaultIgnorable() RuneClass {
	c := tables(unicode.Other_Default_Ignorable_Code_Point, unicode.Cf, unicode.Variation_Selector)
	return c.difference(tables(unicode.White_Space, unicode.Prepended_Concatenation_Mark)).
		difference(RuneClass{{0xFFF9, 0xFFFB}, {0x13430, 0x1343F}})
}

func graphemeBase() RuneClass {
	excl := tables(unicode.Cc, unicode.Cf, unicode.Cs, unicode.Co, unicode.Zl, unicode.Zp).
		union(notAssigned()).union(clsGraphemeExtend.get())
	return excl.negate()
}

// gencats maps normalized general category names and aliases to a
// constructor of the class (filled by unicodeTables).
var gencats = map[string]func() RuneClass{}

// unicodeTables fills gencats and scriptNames, once, when a pattern first
// names a Unicode class: not at the library's load, whose package
// initialisation a host's first call may wait for.
var unicodeTables = sync.OnceFunc(func() {
	add := func(f func() RuneClass, names ...string) {
		for _, n := range names {
			gencats[n] = f
		}
	}
	cat := func(name string) func() RuneClass {
		return func() RuneClass { return tableClass(unicode.Categories[name]) }
	}
	add(func() RuneClass { return tables(unicode.Cc, unicode.Cf, unicode.Cs, unicode.Co).union(notAssigned()) }, "c", "other")
	add(cat("Cc"), "cc", "control", "cntrl")
	add(cat("Cf"), "cf", "format")
	add(notAssigned, "cn", "unassigned")
	add(cat("Co"), "co", "privateuse")
	add(cat("Cs"), "cs", "surrogate")
	add(cat("L"), "l", "letter")
	add(func() RuneClass { return tables(unicode.Lu, unicode.Ll, unicode.Lt) }, "lc", "casedletter")
	add(cat("Ll"), "ll", "lowercaseletter")
	add(cat("Lm"), "lm", "modifierletter")
	add(cat("Lo"), "lo", "otherletter")
	add(cat("Lt"), "lt", "titlecaseletter")
	add(cat("Lu"), "lu", "uppercaseletter")
	add(cat("M"), "m", "mark", "combiningmark")
	add(cat("Mc"), "mc", "spacingmark")
	add(cat("Me"), "me", "enclosingmark")
	add(cat("Mn"), "mn", "nonspacingmark")
	add(cat("N"), "n", "number")
	add(cat("Nd"), "nd", "decimalnumber", "digit")
	add(cat("Nl"), "nl", "letternumber")
	add(cat("No"), "no", "othernumber")
	add(cat("P"), "p", "punctuation", "punct")
	add(cat("Pc"), "pc", "connectorpunctuation")
	add(cat("Pd"), "pd", "dashpunctuation")
	add(cat("Pe"), "pe", "closepunctuation")
	add(cat("Pf"), "pf", "finalpunctuation")
	add(cat("Pi"), "pi", "initialpunctuation")
	add(cat("Po"), "po", "otherpunctuation")
	add(cat("Ps"), "ps", "openpunctuation")
	add(cat("S"), "s", "symbol")
	add(cat("Sc"), "sc", "currencysymbol")
	add(cat("Sk"), "sk", "modifiersymbol")
	add(cat("Sm"), "sm", "mathsymbol")
	add(cat("So"), "so", "othersymbol")
	add(cat("Z"), "z", "separator")
	add(cat("Zl"), "zl", "lineseparator")
	add(cat("Zp"), "zp", "paragraphseparator")
	add(cat("Zs"), "zs", "spaceseparator")
	add(func() RuneClass { return RuneClass{{0, 0xD7FF}, {0xE000, unicode.MaxRune}} }, "any")
	add(clsAssigned.get, "assigned")
	add(func() RuneClass { return RuneClass{{0, 0x7F}} }, "ascii")

	for name := range unicode.Scripts {
		scriptNames[symbolicNameNormalize(name)] = name
	}
	for code, name := range scriptCodes {
		scriptNames[code] = name
	}
})

// scriptNames maps normalized script names and codes to Go's script names
// (filled by unicodeTables).
var scriptNames = map[string]string{}

func scriptClass(norm string) (RuneClass, bool) {
	name, ok := scriptNames[norm]
	if !ok {
		return nil, false
	}
	return tableClass(unicode.Scripts[name]), true
}

// symbolicNameNormalize is UAX44-LM3 loose matching as regex-syntax does it:
// ASCII only, case, spaces, underscores and hyphens ignored, and a leading
// "is" dropped.
func symbolicNameNormalize(s string) string {
	b := []byte(s)
	start := 0
	startsWithIs := false
	if len(b) >= 2 && (b[0] == 'i' || b[0] == 'I') && (b[1] == 's' || b[1] == 'S') {
		startsWithIs = true
		start = 2
	}
	out := make([]byte, 0, len(b))
	for _, c := range b[start:] {
		switch {
		case c == ' ' || c == '_' || c == '-':
		case 'A' <= c && c <= 'Z':
			out = append(out, c+'a'-'A')
		case c <= 0x7F:
			out = append(out, c)
		}
	}
	if startsWithIs && len(out) == 1 && out[0] == 'c' {
		return "isc"
	}
	return string(out)
}

// unicodeClassFor resolves \pN, \p{Name} and \p{name=value} (negation not
// applied).
func unicodeClassFor(u unicodeClass) (RuneClass, errKind, bool) {
	unicodeTables()
	switch u.kind {
	case uniOneLetter:
		return namedClass(string(u.letter))
	case uniNamed:
		return namedClass(u.name)
	}
	pname := symbolicNameNormalize(u.name)
	pvalue := symbolicNameNormalize(u.value)
	if a, ok := propAliases[pname]; ok {
		pname = a
	}
	if !enumeratedProps[pname] {
		if _, ok := binaryProps[pname]; ok {
			return nil, errUnicodePropertyValueNotFound, false
		}
		return nil, errUnicodePropertyNotFound, false
	}
	switch pname {
	case "generalcategory":
		if f, ok := gencats[pvalue]; ok {
			return f(), 0, true
		}
		return nil, errUnicodePropertyValueNotFound, false
	case "script", "scriptextensions":
		// Script_Extensions is approximated by Script: Go has no table for it.
		if c, ok := scriptClass(pvalue); ok {
			return c, 0, true
		}
		return nil, errUnicodePropertyValueNotFound, false
	}
	// Age, Grapheme_Cluster_Break, Sentence_Break, Word_Break: no tables.
	return nil, errUnicodePropertyValueNotFound, false
}

func namedClass(name string) (RuneClass, errKind, bool) {
	norm := symbolicNameNormalize(name)
	if norm != "cf" && norm != "sc" && norm != "lc" {
		key := norm
		if a, ok := propAliases[key]; ok {
			key = a
		}
		if f, ok := binaryProps[key]; ok {
			return f(), 0, true
		}
	}
	if f, ok := gencats[norm]; ok {
		return f(), 0, true
	}
	if c, ok := scriptClass(norm); ok {
		return c, 0, true
	}
	if norm == "unknown" || norm == "zzzz" {
		// regex-syntax knows the Unknown script but has no table for it.
		return nil, errUnicodePropertyValueNotFound, false
	}
	return nil, errUnicodePropertyNotFound, false
}

// perlUnicode returns \d, \s or \w in their Unicode meaning.
func perlUnicode(k perlKind) RuneClass {
	switch k {
	case perlDigit:
		return clsPerlDigit.get()
	case perlSpace:
		return clsPerlSpace.get()
	}
	return clsPerlWord.get()
}

// PerlWord returns \w in its Unicode meaning: one shared class, which
// must not be modified (so a compiler can tell it by identity and reuse
// what it derives from it).
func PerlWord() RuneClass { return clsPerlWord.get() }

// perlASCII returns \d, \s or \w in their (?-u) meaning.
func perlASCII(k perlKind) ByteClass {
	switch k {
	case perlDigit:
		return ByteClass{{'0', '9'}}
	case perlSpace:
		return ByteClass{{'\t', '\r'}, {' ', ' '}}
	}
	return ByteClass{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}
}

func asciiClassBytes(k asciiKind) ByteClass {
	switch k {
	case asciiAlnum:
		return ByteClass{{'0', '9'}, {'A', 'Z'}, {'a', 'z'}}
	case asciiAlpha:
		return ByteClass{{'A', 'Z'}, {'a', 'z'}}
	case asciiASCII:
		return ByteClass{{0, 0x7F}}
	case asciiBlank:
		return ByteClass{{'\t', '\t'}, {' ', ' '}}
	case asciiCntrl:
		return ByteClass{{0, 0x1F}, {0x7F, 0x7F}}
	case asciiDigit:
		return ByteClass{{'0', '9'}}
	case asciiGraph:
		return ByteClass{{'!', '~'}}
	case asciiLower:
		return ByteClass{{'a', 'z'}}
	case asciiPrint:
		return ByteClass{{' ', '~'}}
	case asciiPunct:
		return ByteClass{{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}}
	case asciiSpace:
		return ByteClass{{'\t', '\r'}, {' ', ' '}}
	case asciiUpper:
		return ByteClass{{'A', 'Z'}}
	case asciiWord:
		return ByteClass{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}
	}
	return ByteClass{{'0', '9'}, {'A', 'F'}, {'a', 'f'}}
}

// IsWordRune is Unicode \w membership, with an ASCII fast path.
func IsWordRune(r rune) bool {
	if r < 0x80 {
		return IsWordByte(byte(r))
	}
	return clsPerlWord.get().contains(r)
}

// IsWordByte is ASCII \w membership.
func IsWordByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_'
}

// scriptCodes maps ISO 15924 codes (lowercased) to the script names of Go's
// unicode.Scripts table.
var scriptCodes = map[string]string{
	"adlm": "Adlam", "ahom": "Ahom", "hluw": "Anatolian_Hieroglyphs", "arab": "Arabic",
	"armn": "Armenian", "avst": "Avestan", "bali": "Balinese", "bamu": "Bamum",
	"bass": "Bassa_Vah", "batk": "Batak", "beng": "Bengali", "bhks": "Bhaiksuki",
	"bopo": "Bopomofo", "brah": "Brahmi", "brai": "Braille", "bugi": "Buginese", "buhd": "Buhid",
	"cans": "Canadian_Aboriginal", "cari": "Carian", "aghb": "Caucasian_Albanian",
	"cakm": "Chakma", "cham": "Cham", "cher": "Cherokee", "chrs": "Chorasmian", "zyyy": "Common",
	"copt": "Coptic", "xsux": "Cuneiform", "cprt": "Cypriot", "cpmn": "Cypro_Minoan",
	"cyrl": "Cyrillic", "dsrt": "Deseret", "deva": "Devanagari", "diak": "Dives_Akuru",
	"dogr": "Dogra", "dupl": "Duployan", "egyp": "Egyptian_Hieroglyphs", "elba": "Elbasan",
	"elym": "Elymaic", "ethi": "Ethiopic", "geor": "Georgian", "glag": "Glagolitic",
	"goth": "Gothic", "gran": "Grantha", "grek": "Greek", "gujr": "Gujarati",
	"gong": "Gunjala_Gondi", "guru": "Gurmukhi", "hani": "Han", "hang": "Hangul",
	"rohg": "Hanifi_Rohingya", "hano": "Hanunoo", "hatr": "Hatran", "hebr": "Hebrew",
	"hira": "Hiragana", "armi": "Imperial_Aramaic", "zinh": "Inherited",
	"phli": "Inscriptional_Pahlavi", "prti": "Inscriptional_Parthian", "java": "Javanese",
	"kthi": "Kaithi", "knda": "Kannada", "kana": "Katakana", "kawi": "Kawi", "kali": "Kayah_Li",
	"khar": "Kharoshthi", "kits": "Khitan_Small_Script", "khmr": "Khmer", "khoj": "Khojki",
	"sind": "Khudawadi", "laoo": "Lao", "latn": "Latin", "lepc": "Lepcha", "limb": "Limbu",
	"lina": "Linear_A", "linb": "Linear_B", "lisu": "Lisu", "lyci": "Lycian", "lydi": "Lydian",
	"mahj": "Mahajani", "maka": "Makasar", "mlym": "Malayalam", "mand": "Mandaic",
	"mani": "Manichaean", "marc": "Marchen", "gonm": "Masaram_Gondi", "medf": "Medefaidrin",
	"mtei": "Meetei_Mayek", "mend": "Mende_Kikakui", "merc": "Meroitic_Cursive",
	"mero": "Meroitic_Hieroglyphs", "plrd": "Miao", "modi": "Modi", "mong": "Mongolian",
	"mroo": "Mro", "mult": "Multani", "mymr": "Myanmar", "nbat": "Nabataean",
	"nagm": "Nag_Mundari", "nand": "Nandinagari", "talu": "New_Tai_Lue", "newa": "Newa",
	"nkoo": "Nko", "nshu": "Nushu", "hmnp": "Nyiakeng_Puachue_Hmong", "ogam": "Ogham",
	"olck": "Ol_Chiki", "hung": "Old_Hungarian", "ital": "Old_Italic",
	"narb": "Old_North_Arabian", "perm": "Old_Permic", "xpeo": "Old_Persian",
	"sogo": "Old_Sogdian", "sarb": "Old_South_Arabian", "orkh": "Old_Turkic",
	"ougr": "Old_Uyghur", "orya": "Oriya", "osge": "Osage", "osma": "Osmanya",
	"hmng": "Pahawh_Hmong", "palm": "Palmyrene", "pauc": "Pau_Cin_Hau", "phag": "Phags_Pa",
	"phnx": "Phoenician", "phlp": "Psalter_Pahlavi", "rjng": "Rejang", "runr": "Runic",
	"samr": "Samaritan", "saur": "Saurashtra", "shrd": "Sharada", "shaw": "Shavian",
	"sidd": "Siddham", "sgnw": "SignWriting", "sinh": "Sinhala", "sogd": "Sogdian",
	"sora": "Sora_Sompeng", "soyo": "Soyombo", "sund": "Sundanese", "sylo": "Syloti_Nagri",
	"syrc": "Syriac", "tglg": "Tagalog", "tagb": "Tagbanwa", "tale": "Tai_Le", "lana": "Tai_Tham",
	"tavt": "Tai_Viet", "takr": "Takri", "taml": "Tamil", "tnsa": "Tangsa", "tang": "Tangut",
	"telu": "Telugu", "thaa": "Thaana", "thai": "Thai", "tibt": "Tibetan", "tfng": "Tifinagh",
	"tirh": "Tirhuta", "toto": "Toto", "ugar": "Ugaritic", "vaii": "Vai", "vith": "Vithkuqi",
	"wcho": "Wancho", "wara": "Warang_Citi", "yezi": "Yezidi", "yiii": "Yi",
	"zanb": "Zanabazar_Square", "qaac": "Coptic", "qaai": "Inherited",
}
