package diff

import (
	"fmt"
	"strconv"
	"strings"
)

// block is one run of changes: old[i0:i1] replaced by new[j0:j1].
type block struct{ i0, i1, j0, j1 int }

// noNewline follows a side's last line when it lacks its "\n".
const noNewline = "\n\\ No newline at end of file\n"

// blocks lists the runs of changes in order.
func (d *differ) blocks() ([]block, error) {
	co, cn := d.old.changed, d.new.changed
	n, m := d.old.n(), d.new.n()
	var bs []block
	i, j := 0, 0
	for i < n || j < m {
		if i < n && j < m && !co[i+1] && !cn[j+1] {
			i++
			j++
			continue
		}
		b := block{i0: i, j0: j}
		for i < n && co[i+1] {
			i++
		}
		for j < m && cn[j+1] {
			j++
		}
		b.i1, b.j1 = i, j
		if b.i0 == b.i1 && b.j0 == b.j1 {
			// Unreachable when the marks pair every unchanged line; a
			// guard against looping forever if they did not.
			return nil, fmt.Errorf("diff: internal error: unpaired unchanged lines at %d and %d", i, j)
		}
		bs = append(bs, b)
	}
	return bs, nil
}

// hunk is a run of blocks printed together, old[i0:i1] against new[j0:j1]
// with context.
type hunk struct {
	i0, i1, j0, j1 int
	blocks         []block
}

// rangeLen is the length of a hunk header's range "l,s" (GNU's
// print_unidiff_number_range).
func rangeLen(start, count int) int {
	switch count {
	case 0:
		return len(strconv.Itoa(start)) + 2
	case 1:
		return len(strconv.Itoa(start + 1))
	}
	return len(strconv.Itoa(start+1)) + 1 + len(strconv.Itoa(count))
}

func writeRange(w *strings.Builder, start, count int) {
	var a [48]byte
	buf := a[:0]
	switch count {
	case 0:
		buf = strconv.AppendInt(buf, int64(start), 10)
		buf = append(buf, ",0"...)
	case 1:
		buf = strconv.AppendInt(buf, int64(start+1), 10)
	default:
		buf = strconv.AppendInt(buf, int64(start+1), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(count), 10)
	}
	w.Write(buf)
}

// linesLen is the printed length of lines [i0, i1) of s, each with its
// one-character prefix.
func linesLen(s *side, i0, i1 int) int {
	if i0 >= i1 {
		return 0
	}
	l := int(s.off[i1]-s.off[i0]) + (i1 - i0)
	if i1 == s.n() && !strings.HasSuffix(s.text, "\n") {
		l += len(noNewline)
	}
	return l
}

// format groups the changes into hunks with ctx lines of context, counts
// the patch's bytes and, unless they pass maxBytes (> 0), writes it.
func (d *differ) format(oldName, newName string, ctx, maxBytes int) (string, Stats, error) {
	bs, err := d.blocks()
	var st Stats
	if err != nil {
		return "", st, err
	}
	if len(bs) == 0 {
		return "", st, nil
	}
	n := d.old.n()
	// More context than lines is all of them (and no overflow below).
	ctx = min(ctx, n+d.new.n())
	var hunks []hunk
	for k := 0; k < len(bs); {
		h := hunk{i0: max(bs[k].i0-ctx, 0)}
		h.j0 = bs[k].j0 - (bs[k].i0 - h.i0)
		e := k + 1
		for e < len(bs) && bs[e].i0-bs[e-1].i1 <= 2*ctx {
			e++
		}
		last := bs[e-1]
		h.i1 = min(last.i1+ctx, n)
		h.j1 = last.j1 + (h.i1 - last.i1)
		h.blocks = bs[k:e]
		hunks = append(hunks, h)
		k = e
	}
	size := len("--- a/\n+++ b/\n") + len(oldName) + len(newName)
	for _, h := range hunks {
		size += len("@@ - + @@\n") + rangeLen(h.i0, h.i1-h.i0) + rangeLen(h.j0, h.j1-h.j0)
		i := h.i0
		for _, b := range h.blocks {
			size += linesLen(&d.old, i, b.i0) + linesLen(&d.old, b.i0, b.i1) + linesLen(&d.new, b.j0, b.j1)
			i = b.i1
			st.Deleted += b.i1 - b.i0
			st.Inserted += b.j1 - b.j0
			st.Changed += max(b.i1-b.i0, b.j1-b.j0)
		}
		size += linesLen(&d.old, i, h.i1)
	}
	st.Hunks = len(hunks)
	if maxBytes > 0 && size > maxBytes {
		return "", st, fmt.Errorf("%w: %d bytes, more than %d", ErrTooLarge, size, maxBytes)
	}
	var w strings.Builder
	w.Grow(size)
	w.WriteString("--- a/")
	w.WriteString(oldName)
	w.WriteString("\n+++ b/")
	w.WriteString(newName)
	w.WriteByte('\n')
	for _, h := range hunks {
		w.WriteString("@@ -")
		writeRange(&w, h.i0, h.i1-h.i0)
		w.WriteString(" +")
		writeRange(&w, h.j0, h.j1-h.j0)
		w.WriteString(" @@\n")
		i := h.i0
		for _, b := range h.blocks {
			writeLines(&w, &d.old, ' ', i, b.i0)
			writeLines(&w, &d.old, '-', b.i0, b.i1)
			writeLines(&w, &d.new, '+', b.j0, b.j1)
			i = b.i1
		}
		writeLines(&w, &d.old, ' ', i, h.i1)
	}
	if w.Len() != size {
		return "", st, fmt.Errorf("diff: internal error: patch is %d bytes, counted %d", w.Len(), size)
	}
	return w.String(), st, nil
}

// writeLines writes lines [i0, i1) of s, each after prefix.
func writeLines(w *strings.Builder, s *side, prefix byte, i0, i1 int) {
	for i := i0; i < i1; i++ {
		w.WriteByte(prefix)
		w.WriteString(s.line(i))
	}
	if i0 < i1 && i1 == s.n() && !strings.HasSuffix(s.text, "\n") {
		w.WriteString(noNewline)
	}
}
