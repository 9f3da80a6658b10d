package readcache

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"unicode/utf8"
)

// hugeChunk is the size of a streamed read's reads.
const hugeChunk = 256 << 10

// hugePiece, when > 0, cuts each read into pieces of that size before
// they are taken (tests: every byte a boundary).
var hugePiece = 0

// readHuge answers a read of a file over the engine's size limit with
// what pi's read shows for it, streaming the file once and keeping only
// the lines it may show (at most pi's 2000 lines or 50 KB, and the line
// after): the first lines of the range and pi's notice, whose "of N" and
// "N more lines" need the file's line count, so the file is read to its
// end. Only where no notice needs that count does the read stop early: a
// range (a limit) whose first line alone exceeds the byte limit stops at
// the range's end (details.truncation still counts the range's lines and
// bytes). The file is read up to its size when opened, as pi 1.x reads
// it (a growing log still ends).
//
// Such a read is mode full with Reason "streamed" and no Meta: nothing is
// stored, and no marker or diff will be served against it. Bases are
// ignored. The selection must be strict UTF-8 (else baseline, as for any
// file); lines outside it are only counted. An image is baseline.
func readHuge(res Result, byLines bool, cancel func() bool) (Result, error) {
	r := res.Resolved
	f, err := os.OpenFile(r.AbsPath, openFlags, 0)
	if err != nil {
		res.Mode, res.Reason = ModeBaseline, "unreadable"
		return res, nil
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		res.Mode, res.Reason = ModeBaseline, "unreadable"
		return res, nil
	case !fi.Mode().IsRegular():
		return Result{}, &Error{Code: CodeNotRegular, Message: fmt.Sprintf("Not a regular file: %s: refusing to read it", r.AbsPath)}
	}
	s := streamer{start: 0, end: math.MaxInt}
	if r.Offset != nil && *r.Offset > 0 {
		s.start = *r.Offset - 1
	}
	if r.Limit != nil {
		s.end = s.start + min(*r.Limit, math.MaxInt-s.start)
		s.stopEarly = true
	}
	buf := make([]byte, min(int64(hugeChunk), fi.Size()+1))
	in := io.LimitReader(f, fi.Size())
	first := true
	for !s.stopped {
		if cancelled(cancel) {
			return Result{}, errCancelled()
		}
		n, err := io.ReadFull(in, buf)
		if first {
			if isImage(buf[:n]) {
				res.Mode, res.Reason = ModeBaseline, "image"
				return res, nil
			}
			first = false
		}
		for p := buf[:n]; len(p) > 0; {
			k := len(p)
			if hugePiece > 0 {
				k = min(k, hugePiece)
			}
			s.feed(p[:k])
			p = p[k:]
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			s.eof()
			break
		}
		if err != nil {
			res.Mode, res.Reason = ModeBaseline, "unreadable"
			return res, nil
		}
	}
	if s.utf.bad {
		res.Mode, res.Reason = ModeBaseline, "invalid_utf8"
		return res, nil
	}
	total := s.line + 1 // lines split on "\n" (meaningful when not stopped)
	if !s.stopped && s.start >= total {
		return Result{}, &Error{Code: CodeOffsetBeyond, Message: fmt.Sprintf("Offset %d is beyond end of file (%d lines total)", *r.Offset, total)}
	}
	t := truncateHead(s.kept, byLines)
	// The selection's own counts: the lines kept may be fewer, or cut.
	t.TotalLines = s.selLines
	if byLines && s.lastEmpty {
		t.TotalLines--
	}
	t.TotalBytes = s.lineBytes + max(s.selLines-1, 0)
	w := window{start: s.start, end: min(s.end, total), userLimit: r.Limit != nil, totalLines: total}
	res.Mode, res.Reason = ModeFull, "streamed"
	res.Text, res.Truncation = renderPi(t, s.firstLineBytes, w, r.Path)
	return res, nil
}

// streamer selects lines [start, end) of a text fed in pieces, as pi's
// read would, counting every line and keeping only those truncateHead may
// show.
type streamer struct {
	start, end int
	// stopEarly: the read may stop at the range's end when the first
	// selected line alone exceeds the byte limit (no notice then needs
	// the file's line count).
	stopEarly, stopped bool

	line int // the current line (0-based)

	// kept are the first selected lines, each cut to maxBytes+1 bytes,
	// until the caps are passed (and one line more: pi 1.x's truncation
	// drops a trailing empty line, so the line after the caps decides).
	kept      []string
	keptBytes int
	pastCaps  bool
	cur       []byte // the current selected line's kept bytes
	curLen    int    // and its whole size

	selLines       int // selected lines finished
	lineBytes      int // their bytes, separators aside
	firstLineBytes int
	lastEmpty      bool

	utf utf8Check // the selection's bytes
}

// feed takes the next piece of the text.
func (s *streamer) feed(p []byte) {
	for len(p) > 0 && !s.stopped {
		if s.line < s.start || s.line >= s.end {
			// Outside the selection: lines are only counted.
			n := bytes.Count(p, []byte{'\n'})
			if s.line >= s.end || s.line+n < s.start {
				s.line += n
				return
			}
			for s.line < s.start {
				i := bytes.IndexByte(p, '\n')
				s.line++
				p = p[i+1:]
			}
			continue
		}
		if s.pastCaps && s.selLines > 0 && s.bulk(p) {
			return
		}
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.add(p)
			return
		}
		s.add(p[:i])
		s.finish()
		s.line++
		p = p[i+1:]
		if s.line < s.end {
			s.utf.write([]byte{'\n'})
		} else if s.stopEarly && s.firstLineBytes > maxBytes {
			s.stopped = true
		}
	}
}

// bulk takes p, all of it selected lines past those kept, when it does
// not reach the range's end: its lines are counted, measured and checked
// in one pass each (a line at a time costs 10 times more on a 1 GB file).
// It reports whether it took p.
func (s *streamer) bulk(p []byte) bool {
	k := bytes.Count(p, []byte{'\n'})
	if s.end != math.MaxInt && s.line+k >= s.end {
		return false // the range ends in p: a line at a time
	}
	s.utf.write(p)
	if k == 0 {
		s.curLen += len(p)
		return true
	}
	last := bytes.LastIndexByte(p, '\n')
	// The lines finished in p: the current one and k-1 more, newlines
	// aside; the bytes after the last newline start the next.
	s.lineBytes += s.curLen + last + 1 - k
	s.selLines += k
	s.line += k
	s.curLen = len(p) - last - 1
	return true
}

// eof ends the text: its last line (after the last "\n", maybe empty).
func (s *streamer) eof() {
	if s.line >= s.start && s.line < s.end {
		s.finish()
	}
}

// add appends a piece of the current selected line.
func (s *streamer) add(p []byte) {
	s.utf.write(p)
	s.curLen += len(p)
	if !s.pastCaps && len(s.cur) <= maxBytes {
		s.cur = append(s.cur, p[:min(len(p), maxBytes+1-len(s.cur))]...)
	}
}

// finish ends the current selected line.
func (s *streamer) finish() {
	s.utf.boundary()
	if !s.pastCaps {
		if len(s.kept) > maxLines || s.keptBytes > maxBytes {
			s.pastCaps = true // this line is the last kept
		}
		if len(s.kept) > 0 {
			s.keptBytes++
		}
		s.kept = append(s.kept, string(s.cur))
		s.keptBytes += len(s.cur)
	}
	if s.selLines == 0 {
		s.firstLineBytes = s.curLen
	}
	s.selLines++
	s.lineBytes += s.curLen
	s.lastEmpty = s.curLen == 0
	s.cur, s.curLen = s.cur[:0], 0
}

// utf8Check validates UTF-8 written in pieces: a character may be cut
// between two pieces, not at a boundary (a line's end, the text's end).
type utf8Check struct {
	carry [utf8.UTFMax]byte
	n     int
	bad   bool
}

func (u *utf8Check) write(p []byte) {
	if u.bad {
		return
	}
	for u.n > 0 && len(p) > 0 && !utf8.FullRune(u.carry[:u.n]) {
		u.carry[u.n] = p[0]
		u.n++
		p = p[1:]
	}
	if u.n > 0 {
		if !utf8.FullRune(u.carry[:u.n]) {
			return // still cut: more to come
		}
		if !utf8.Valid(u.carry[:u.n]) {
			u.bad = true
			return
		}
		u.n = 0
	}
	// A last character cut short is carried to the next piece.
	i := len(p) - 1
	for i >= 0 && i > len(p)-utf8.UTFMax && !utf8.RuneStart(p[i]) {
		i--
	}
	if i >= 0 && !utf8.FullRune(p[i:]) {
		u.n = copy(u.carry[:], p[i:])
		p = p[:i]
	}
	if !utf8.Valid(p) {
		u.bad = true
	}
}

// boundary: no character may be cut here.
func (u *utf8Check) boundary() {
	if u.n > 0 {
		u.bad = true
		u.n = 0
	}
}
