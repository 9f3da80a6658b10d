package syntax

// hirFlags are the flags in effect while translating.
type hirFlags struct {
	caseInsensitive bool
	multiLine       bool
	dotNL           bool
	swapGreed       bool
	unicode         bool
	crlf            bool
}

type translator struct {
	pattern string
	flags   hirFlags
}

func (t *translator) err(sp span, k errKind) *syntaxError {
	return &syntaxError{kind: k, pattern: t.pattern, span: sp}
}

func (t *translator) applyFlags(f flagsAST) {
	neg := false
	for _, it := range f.items {
		if it.negation {
			neg = true
			continue
		}
		v := !neg
		switch it.flag {
		case flagCaseInsensitive:
			t.flags.caseInsensitive = v
		case flagMultiLine:
			t.flags.multiLine = v
		case flagDotMatchesNewLine:
			t.flags.dotNL = v
		case flagSwapGreed:
			t.flags.swapGreed = v
		case flagUnicode:
			t.flags.unicode = v
		case flagCRLF:
			t.flags.crlf = v
		}
	}
}

// translate lowers an AST to a hir, reporting the errors regex-syntax's
// translator reports, in the same order.
func translate(pattern string, a *astNode, f hirFlags) (*Hir, *syntaxError) {
	t := &translator{pattern: pattern, flags: f}
	return t.node(a)
}

func (t *translator) node(a *astNode) (*Hir, *syntaxError) {
	switch a.kind {
	case astEmpty, astFlags:
		if a.kind == astFlags {
			t.applyFlags(a.flags)
		}
		return &Hir{Kind: HirEmpty}, nil
	case astLiteral:
		return t.literal(a.lit)
	case astDot:
		return t.dot(), nil
	case astAssertion:
		return &Hir{Kind: HirLook, Look: t.assertion(a.assert)}, nil
	case astClassPerl:
		if t.flags.unicode {
			c := perlUnicode(a.perl)
			if a.negated {
				c = c.negate()
			}
			return hClass(c), nil
		}
		c := perlASCII(a.perl)
		if a.negated {
			c = c.negate()
		}
		return hBytes(c), nil
	case astClassUnicode:
		if !t.flags.unicode {
			return nil, t.err(a.span, errUnicodeNotAllowed)
		}
		c, e := t.unicodeClass(a.uni, a.span)
		if e != nil {
			return nil, e
		}
		return hClass(c), nil
	case astClassBracketed:
		if t.flags.unicode {
			c, e := t.bracketedUnicode(a.brk)
			if e != nil {
				return nil, e
			}
			return hClass(c), nil
		}
		c, e := t.bracketedBytes(a.brk)
		if e != nil {
			return nil, e
		}
		return hBytes(c), nil
	case astRepetition:
		sub, e := t.node(a.subs[0])
		if e != nil {
			return nil, e
		}
		return &Hir{Kind: HirRepeat, Min: a.repMin, Max: a.repMax, Subs: []*Hir{sub}}, nil
	case astGroup:
		saved := t.flags
		if a.groupKind == groupNonCapturing {
			t.applyFlags(a.flags)
		}
		sub, e := t.node(a.subs[0])
		t.flags = saved
		return sub, e
	case astConcat, astAlternation:
		subs := make([]*Hir, 0, len(a.subs))
		for _, s := range a.subs {
			h, e := t.node(s)
			if e != nil {
				return nil, e
			}
			subs = append(subs, h)
		}
		k := HirConcat
		if a.kind == astAlternation {
			k = HirAlt
		}
		return &Hir{Kind: k, Subs: subs}, nil
	}
	panic("search: unknown ast kind")
}

func (t *translator) literal(l literal) (*Hir, *syntaxError) {
	c := l.c
	if !t.flags.unicode {
		if b, ok := l.byteValue(); ok && b > 0x7F {
			return hLit([]byte{b}), nil
		}
	}
	if t.flags.caseInsensitive {
		if t.flags.unicode {
			return hClass(RuneClass{{c, c}}.caseFold()), nil
		}
		if c <= 0x7F {
			return hBytes(ByteClass{{byte(c), byte(c)}}.asciiFold()), nil
		}
	}
	return hRune(c), nil
}

func (t *translator) dot() *Hir {
	if t.flags.unicode {
		switch {
		case t.flags.dotNL:
			return hClass(RuneClass{{0, 0xD7FF}, {0xE000, 0x10FFFF}})
		case t.flags.crlf:
			return hClass(RuneClass{{'\n', '\n'}, {'\r', '\r'}}.negate())
		}
		return hClass(RuneClass{{'\n', '\n'}}.negate())
	}
	switch {
	case t.flags.dotNL:
		return hBytes(ByteClass{{0, 255}})
	case t.flags.crlf:
		return hBytes(ByteClass{{'\n', '\n'}, {'\r', '\r'}}.negate())
	}
	return hBytes(ByteClass{{'\n', '\n'}}.negate())
}

func (t *translator) assertion(k assertionKind) LookKind {
	u := t.flags.unicode
	pick := func(uni, ascii LookKind) LookKind {
		if u {
			return uni
		}
		return ascii
	}
	// line is ^ or $: of the text, or (multi-line) of a line ending in
	// \n or (crlf) in \r\n.
	line := func(text, crlf, lf LookKind) LookKind {
		switch {
		case !t.flags.multiLine:
			return text
		case t.flags.crlf:
			return crlf
		}
		return lf
	}
	switch k {
	case assertStartLine:
		return line(LookStart, LookStartCRLF, LookStartLF)
	case assertEndLine:
		return line(LookEnd, LookEndCRLF, LookEndLF)
	case assertStartText:
		return LookStart
	case assertEndText:
		return LookEnd
	case assertWordBoundary:
		return pick(LookWordUnicode, LookWordASCII)
	case assertNotWordBoundary:
		return pick(LookWordUnicodeNegate, LookWordASCIINegate)
	case assertWordStart:
		return pick(LookWordStartUnicode, LookWordStartASCII)
	case assertWordEnd:
		return pick(LookWordEndUnicode, LookWordEndASCII)
	case assertWordStartHalf:
		return pick(LookWordStartHalfUnicode, LookWordStartHalfASCII)
	}
	return pick(LookWordEndHalfUnicode, LookWordEndHalfASCII)
}

func (t *translator) unicodeClass(u unicodeClass, sp span) (RuneClass, *syntaxError) {
	c, k, ok := unicodeClassFor(u)
	if !ok {
		return nil, t.err(sp, k)
	}
	negated := u.negated
	if u.kind == uniNamedValue && u.op == uniOpNotEqual {
		negated = !negated
	}
	return t.foldNegate(c, negated), nil
}

func (t *translator) foldNegate(c RuneClass, negated bool) RuneClass {
	return foldNegated(c, t.flags.caseInsensitive, RuneClass.caseFold, negated)
}

func (t *translator) foldNegateBytes(c ByteClass, negated bool) ByteClass {
	return foldNegated(c, t.flags.caseInsensitive, ByteClass.asciiFold, negated)
}

// classOps are the operations of RuneClass and ByteClass that the
// translation of classes runs on either.
type classOps[C any] interface {
	union(C) C
	negate() C
	intersect(C) C
	difference(C) C
	symmetricDifference(C) C
}

// foldNegated is c, case-folded with caseFold when fold, then complemented
// when negated.
func foldNegated[C classOps[C]](c C, fold bool, caseFold func(C) C, negated bool) C {
	if fold {
		c = caseFold(c)
	}
	if negated {
		c = c.negate()
	}
	return c
}

// unionItems is the union of the classes of items, each translated by item.
func unionItems[C classOps[C]](items []classItem, item func(classItem) (C, *syntaxError)) (C, *syntaxError) {
	var c C
	for _, sub := range items {
		sc, e := item(sub)
		if e != nil {
			var none C
			return none, e
		}
		c = c.union(sc)
	}
	return c, nil
}

func (t *translator) bracketedUnicode(b *classBracketed) (RuneClass, *syntaxError) {
	return bracketed(b, t.flags.caseInsensitive, RuneClass.caseFold, t.itemUnicode)
}

// bracketed translates a bracketed class, [...], to a class of type C
// (RuneClass or ByteClass), items by item; fold is (?i), done by caseFold.
func bracketed[C classOps[C]](b *classBracketed, fold bool, caseFold func(C) C, item func(classItem) (C, *syntaxError)) (C, *syntaxError) {
	c, e := evalClassSet(b.set, fold, caseFold, item)
	if e != nil {
		var none C
		return none, e
	}
	return foldNegated(c, fold, caseFold, b.negated), nil
}

// evalClassSet evaluates a class set expression (&&, --, ~~) over classes
// of type C (RuneClass or ByteClass), items by item; with fold, both sides
// of an operation are case-folded first.
func evalClassSet[C classOps[C]](s classSet, fold bool, caseFold func(C) C, item func(classItem) (C, *syntaxError)) (C, *syntaxError) {
	if s.op == nil {
		return item(*s.item)
	}
	var none C
	lhs, e := evalClassSet(s.op.lhs, fold, caseFold, item)
	if e != nil {
		return none, e
	}
	rhs, e := evalClassSet(s.op.rhs, fold, caseFold, item)
	if e != nil {
		return none, e
	}
	if fold {
		lhs, rhs = caseFold(lhs), caseFold(rhs)
	}
	switch s.op.kind {
	case opIntersection:
		return lhs.intersect(rhs), nil
	case opDifference:
		return lhs.difference(rhs), nil
	}
	return lhs.symmetricDifference(rhs), nil
}

func (t *translator) itemUnicode(it classItem) (RuneClass, *syntaxError) {
	switch it.kind {
	case ciEmpty:
		return RuneClass{}, nil
	case ciLiteral:
		return RuneClass{{it.lit.c, it.lit.c}}, nil
	case ciRange:
		return RuneClass{{it.lo.c, it.hi.c}}, nil
	case ciASCII:
		return t.foldNegate(asciiClassBytes(it.ascii).toRunes(), it.negated), nil
	case ciUnicode:
		return t.unicodeClass(it.uni, it.span)
	case ciPerl:
		return foldNegated(perlUnicode(it.perl), false, nil, it.negated), nil
	case ciBracketed:
		return t.bracketedUnicode(it.brk)
	}
	return unionItems(it.union, t.itemUnicode)
}

func (t *translator) bracketedBytes(b *classBracketed) (ByteClass, *syntaxError) {
	return bracketed(b, t.flags.caseInsensitive, ByteClass.asciiFold, t.itemBytes)
}

func (t *translator) classByte(l literal) (byte, *syntaxError) {
	if b, ok := l.byteValue(); ok {
		return b, nil
	}
	if l.c <= 0x7F {
		return byte(l.c), nil
	}
	return 0, t.err(l.span, errUnicodeNotAllowed)
}

func (t *translator) itemBytes(it classItem) (ByteClass, *syntaxError) {
	switch it.kind {
	case ciEmpty:
		return ByteClass{}, nil
	case ciLiteral:
		b, e := t.classByte(it.lit)
		if e != nil {
			return nil, e
		}
		return ByteClass{{b, b}}, nil
	case ciRange:
		lo, e := t.classByte(it.lo)
		if e != nil {
			return nil, e
		}
		hi, e := t.classByte(it.hi)
		if e != nil {
			return nil, e
		}
		return ByteClass{{lo, hi}}, nil
	case ciASCII:
		return t.foldNegateBytes(asciiClassBytes(it.ascii), it.negated), nil
	case ciUnicode:
		return nil, t.err(it.span, errUnicodeNotAllowed)
	case ciPerl:
		return foldNegated(perlASCII(it.perl), false, nil, it.negated), nil
	case ciBracketed:
		return t.bracketedBytes(it.brk)
	}
	return unionItems(it.union, t.itemBytes)
}
