package search

import "bytes"

// Helpers of the tests, which the engine does without: it calls
// HasMatchCancel and looks for a NUL byte itself.

// HasMatch is HasMatchCancel without cancellation or its error.
func (m *Matcher) HasMatch(data []byte) bool {
	ok, _ := m.HasMatchCancel(data, nil)
	return ok
}

// IsBinary reports whether data holds a NUL byte, which makes the
// reference skip a file's content and count matches.
func IsBinary(data []byte) bool { return bytes.IndexByte(data, 0) >= 0 }
