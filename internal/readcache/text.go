package readcache

import (
	"fmt"
	"strconv"
	"strings"
)

// pi's read limits (truncate.ts: DEFAULT_MAX_LINES, DEFAULT_MAX_BYTES).
const (
	maxLines = 2000
	maxBytes = 50 * 1024
)

// formatSize is pi's formatSize. JavaScript's toFixed(1) rounds a tie up,
// so the digit is computed in integers rather than by strconv (which rounds
// a tie to even).
func formatSize(b int) string {
	switch {
	case b < 1024:
		return strconv.Itoa(b) + "B"
	case b < 1024*1024:
		n := (int64(b)*10 + 512) / 1024
		return fmt.Sprintf("%d.%dKB", n/10, n%10)
	default:
		n := (int64(b)*10 + 512*1024) / (1024 * 1024)
		return fmt.Sprintf("%d.%dMB", n/10, n%10)
	}
}

// How line totals are counted (Options.LineCount).
const (
	// LineCountSplit is pi 0.73's count: the text split on "\n", so a
	// trailing newline makes a last empty line (a 120-line file ending in
	// a newline has 121).
	LineCountSplit = "split"
	// LineCountLines is pi 1.x's count of details.truncation.totalLines:
	// a trailing empty line is not counted, and empty content has 0
	// lines. It also decides truncation (pi 1.x's truncateHead): 2000
	// lines ending in a newline are not truncated.
	LineCountLines = "lines"
)

// counted are the lines a line count counts: all of them (split), or
// (lines) without a trailing empty one, none for empty content.
func counted(lines []string, byLines bool) []string {
	if byLines && len(lines) > 0 && lines[len(lines)-1] == "" {
		return lines[:len(lines)-1]
	}
	return lines
}

// lineTotal is the number of lines of a file as the markers and the diff
// header say it.
func lineTotal(lines []string, byLines bool) int { return len(counted(lines, byLines)) }

// truncateHead is pi's truncateHead with the default limits, over the
// lines of the selected content (content split on "\n"); byLines is pi
// 1.x's (which counts and keeps lines without a trailing empty one).
func truncateHead(lines []string, byLines bool) Truncation {
	// The content's size without joining it: a truncated answer joins only
	// the lines it keeps (a large file's lines are not copied whole).
	total := len(lines) - 1
	for _, l := range lines {
		total += len(l)
	}
	all := lines
	lines = counted(lines, byLines)
	t := Truncation{TotalLines: len(lines), TotalBytes: total, MaxLines: maxLines, MaxBytes: maxBytes}
	if len(lines) <= maxLines && total <= maxBytes {
		t.Content = strings.Join(all, "\n")
		t.OutputLines, t.OutputBytes = len(lines), total
		return t
	}
	t.Truncated = true
	by := "bytes"
	t.TruncatedBy = &by
	if len(lines[0]) > maxBytes {
		t.FirstLineExceedsLimit = true
		return t
	}
	n, size := 0, 0
	cutByLines := true
	for i := 0; i < len(lines) && i < maxLines; i++ {
		lb := len(lines[i])
		if i > 0 {
			lb++
		}
		if size+lb > maxBytes {
			cutByLines = false
			break
		}
		n++
		size += lb
	}
	if n >= maxLines && size <= maxBytes {
		cutByLines = true
	}
	if cutByLines {
		by = "lines"
	}
	t.Content = strings.Join(lines[:n], "\n")
	t.OutputLines, t.OutputBytes = n, len(t.Content)
	return t
}

// window is a read's lines as pi's read selects them.
type window struct {
	start      int  // 0-based first line
	end        int  // 0-based line after the last
	userLimit  bool // the caller's limit, not the file's end, chose end
	totalLines int
}

// selectWindow is pi's offset/limit arithmetic: offset 0 or absent is the
// first line; an offset past the last line is pi's error.
func selectWindow(totalLines int, offset, limit *int) (window, error) {
	w := window{totalLines: totalLines, end: totalLines}
	if offset != nil && *offset > 0 {
		w.start = *offset - 1
	}
	if w.start >= totalLines {
		return w, &Error{Code: CodeOffsetBeyond, Message: fmt.Sprintf("Offset %d is beyond end of file (%d lines total)", *offset, totalLines)}
	}
	if limit != nil {
		w.end = min(w.start+*limit, totalLines)
		w.userLimit = true
	}
	return w, nil
}

// piText is the text (and details.truncation) pi's read tool returns for
// lines[w.start:w.end] of a file; path is the tool's path argument, which
// pi quotes in the notice for a first line over the byte limit. byLines
// is pi 1.x's truncation (LineCountLines); its notices count lines as pi
// 0.73 does (w.totalLines, the split count), as pi 1.x's do.
func piText(lines []string, w window, path string, byLines bool) (string, *Truncation) {
	return renderPi(truncateHead(lines[w.start:w.end], byLines), len(lines[w.start]), w, path)
}

// renderPi is pi's read text for the selected lines' truncation t;
// firstLineBytes is the size of the first selected line (quoted when it
// alone exceeds the byte limit).
func renderPi(t Truncation, firstLineBytes int, w window, path string) (string, *Truncation) {
	startDisplay := w.start + 1
	switch {
	case t.FirstLineExceedsLimit:
		return fmt.Sprintf("[Line %d is %s, exceeds %s limit. Use bash: sed -n '%dp' %s | head -c %d]",
			startDisplay, formatSize(firstLineBytes), formatSize(maxBytes), startDisplay, path, maxBytes), &t
	case t.Truncated:
		endDisplay := startDisplay + t.OutputLines - 1
		if *t.TruncatedBy == "lines" {
			return fmt.Sprintf("%s\n\n[Showing lines %d-%d of %d. Use offset=%d to continue.]",
				t.Content, startDisplay, endDisplay, w.totalLines, endDisplay+1), &t
		}
		return fmt.Sprintf("%s\n\n[Showing lines %d-%d of %d (%s limit). Use offset=%d to continue.]",
			t.Content, startDisplay, endDisplay, w.totalLines, formatSize(maxBytes), endDisplay+1), &t
	case w.userLimit && w.end < w.totalLines:
		return fmt.Sprintf("%s\n\n[%d more lines in file. Use offset=%d to continue.]",
			t.Content, w.totalLines-w.end, w.end+1), nil
	}
	return t.Content, nil
}

// The markers of §9.1 and the diff header of §9.2.
func markerUnchanged(total int) string {
	return fmt.Sprintf("[readcache: unchanged, %d lines]", total)
}

func markerUnchangedRange(start, end, total int) string {
	return fmt.Sprintf("[readcache: unchanged in lines %d-%d of %d]", start, end, total)
}

func markerUnchangedRangeElsewhere(start, end int) string {
	return fmt.Sprintf("[readcache: unchanged in lines %d-%d; changes exist outside this range]", start, end)
}

func diffHeader(changed, total int) string {
	return fmt.Sprintf("[readcache: %d lines changed of %d]\n", changed, total)
}
