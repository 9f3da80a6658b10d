package index

import "slices"

// fold maps ASCII upper-case letters to lower case, every other byte to
// itself: trigrams are indexed and looked up folded, so one index answers
// case-sensitive and case-insensitive patterns (a case-sensitive literal
// looks up its folded trigrams, a superset).
var fold = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] = byte(i + 32)
		}
	}
	return t
}()

// gramSet collects the distinct trigrams of a buffer. The zero value is
// ready; it holds a bitmap of every trigram (2 MiB) once used.
type gramSet struct {
	seen *[1 << 18]uint64
	list []uint32
}

// pauseBytes is how much data of returns at most between two calls of
// its pause function (well under a millisecond of work).
const pauseBytes = 256 << 10

// of returns the distinct folded trigrams of data, in no order. The slice
// is reused by the next call.
func (s *gramSet) of(data []byte) []uint32 { return s.ofPaused(data, nil) }

// ofPaused is of, calling pause (when not nil) after every pauseBytes of
// data.
func (s *gramSet) ofPaused(data []byte, pause func()) []uint32 {
	if s.seen == nil {
		s.seen = new([1 << 18]uint64)
	}
	for _, t := range s.list {
		s.seen[t>>6] = 0
	}
	s.list = s.list[:0]
	if len(data) < 3 {
		return s.list
	}
	seen, list := s.seen, s.list
	t := uint32(fold[data[0]])<<8 | uint32(fold[data[1]])
	for rest := data[2:]; len(rest) > 0; {
		chunk := rest[:min(len(rest), pauseBytes)]
		rest = rest[len(chunk):]
		for _, c := range chunk {
			t = (t<<8 | uint32(fold[c])) & 0xFFFFFF
			w, m := t>>6, uint64(1)<<(t&63)
			if seen[w]&m == 0 {
				seen[w] |= m
				list = append(list, t)
			}
		}
		if pause != nil && len(rest) > 0 {
			pause()
		}
	}
	s.list = list
	return list
}

// gramsOf returns the distinct folded trigrams of the string s, sorted.
func gramsOf(s string) []uint32 {
	var out []uint32
	for i := 0; i+2 < len(s); i++ {
		out = append(out, uint32(fold[s[i]])<<16|uint32(fold[s[i+1]])<<8|uint32(fold[s[i+2]]))
	}
	slices.Sort(out)
	return slices.Compact(out)
}
