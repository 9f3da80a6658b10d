package fuzzy

import "strings"

// Character masks: a cheap necessary condition for a match, to skip the
// scorer for most entries of a cached snapshot.
//
// Every way Score can match needs each character of the query's normalised
// form to occur in the normalised form of the basename (a query without
// '/') or of the path (a query with '/'): an exact, prefix or substring
// match of the lowercased query contains its normalised characters, and the
// subsequence and normalised-equality matches are over the normalised
// forms. A mask has the bit of each ASCII character that occurs; a string
// with a byte >= 0x80 gets NonASCII instead, which never rejects (its
// lowercasing is Unicode's, left to the scorer).

// NonASCII is the mask of a string holding non-ASCII bytes.
const NonASCII uint64 = 1 << 63

// charBit is the bit of the lowercased, non-dropped ASCII character c.
func charBit(c byte) uint64 { return 1 << (c % 63) }

// Mask returns the mask of s: the bits of the characters of its normalised
// form, or NonASCII.
func Mask(s string) uint64 {
	var m uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return NonASCII
		}
		if dropped(rune(c)) {
			continue
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		m |= charBit(c)
	}
	return m
}

// Masks returns the masks of path's basename and of path.
func Masks(path string) (base, whole uint64) {
	i := strings.LastIndexByte(path, '/')
	return Mask(path[i+1:]), Mask(path)
}

// Need returns the bits an entry's mask must have for q to match it, and
// whether the test applies to the basename's mask (else the path's). A
// query whose normalised form is not ASCII, or the empty query, needs
// nothing (0).
func (q Query) Need() (need uint64, onBase bool) {
	if q.raw == "" {
		return 0, true
	}
	need = Mask(q.norm)
	if need == NonASCII {
		need = 0
	}
	return need, !q.slash
}

// MayMatch reports whether an entry whose mask (of the basename or path, as
// Need says) is m can match a query needing need.
func MayMatch(m, need uint64) bool { return m&NonASCII != 0 || m&need == need }
