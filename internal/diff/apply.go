package diff

import (
	"fmt"
	"strconv"
	"strings"
)

// splitKeep splits s into lines, each keeping its "\n".
func splitKeep(s string) []string {
	var ls []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			ls = append(ls, s)
			break
		}
		ls = append(ls, s[:i+1])
		s = s[i+1:]
	}
	return ls
}

// parseRange parses "l,s" or "l" of a hunk header.
func parseRange(r string) (start, count int, err error) {
	l, s, ok := strings.Cut(r, ",")
	if start, err = strconv.Atoi(l); err != nil {
		return 0, 0, err
	}
	count = 1
	if ok {
		if count, err = strconv.Atoi(s); err != nil {
			return 0, 0, err
		}
		if count == 1 {
			return 0, 0, fmt.Errorf("range %q: a count of 1 is printed without ,1", r)
		}
	}
	return start, count, nil
}

// Apply applies a unified diff made by Unified (or diff -u) to a and
// returns the result, checking everything it can: headers, hunk order and
// counts, every context and deleted line, the "\ No newline" markers, no
// empty hunks. The read cache applies each patch it serves to the base and
// serves it only when the result is the current text.
func Apply(a, patch string) (string, error) {
	if patch == "" {
		return a, nil
	}
	pl := splitKeep(patch)
	if len(pl) < 3 || !strings.HasPrefix(pl[0], "--- ") || !strings.HasPrefix(pl[1], "+++ ") {
		return "", fmt.Errorf("diff: bad file header")
	}
	old := splitKeep(a)
	var out []string
	pos := 0
	k := 2
	for k < len(pl) {
		h := strings.TrimSuffix(pl[k], "\n")
		var or, nr string
		if _, err := fmt.Sscanf(h, "@@ -%s +%s @@", &or, &nr); err != nil || h != "@@ -"+or+" +"+nr+" @@" {
			return "", fmt.Errorf("line %d: bad hunk header %q", k+1, h)
		}
		k++
		os, oc, err := parseRange(or)
		if err != nil {
			return "", fmt.Errorf("hunk %q: %v", h, err)
		}
		ns, nc, err := parseRange(nr)
		if err != nil {
			return "", fmt.Errorf("hunk %q: %v", h, err)
		}
		// With no line, the start is the line before; else 1-based.
		oi, ni := os, ns
		if oc > 0 {
			oi--
		}
		if nc > 0 {
			ni--
		}
		if oi < pos || oi > len(old) {
			return "", fmt.Errorf("hunk %q: old start %d out of order (at %d of %d)", h, oi, pos, len(old))
		}
		out = append(out, old[pos:oi]...)
		pos = oi
		if ni != len(out) {
			return "", fmt.Errorf("hunk %q: new start %d, output has %d lines", h, ni, len(out))
		}
		gotO, gotN, changes := 0, 0, 0
		for k < len(pl) && !strings.HasPrefix(pl[k], "@@ ") {
			l := pl[k]
			k++
			if !strings.HasSuffix(l, "\n") {
				return "", fmt.Errorf("patch line %d lacks its newline", k)
			}
			text := l[1:]
			if k < len(pl) && pl[k] == "\\ No newline at end of file\n" {
				text = strings.TrimSuffix(text, "\n")
				k++
			}
			switch l[0] {
			case ' ', '-':
				if pos >= len(old) || old[pos] != text {
					return "", fmt.Errorf("hunk %q: line %d of a is not %q", h, pos+1, text)
				}
				pos++
				gotO++
				if l[0] == ' ' {
					out = append(out, text)
					gotN++
				} else {
					changes++
				}
			case '+':
				out = append(out, text)
				gotN++
				changes++
			default:
				return "", fmt.Errorf("patch line %d: bad prefix in %q", k, l)
			}
		}
		if gotO != oc || gotN != nc {
			return "", fmt.Errorf("hunk %q: body has %d old and %d new lines", h, gotO, gotN)
		}
		if changes == 0 {
			return "", fmt.Errorf("hunk %q has no change", h)
		}
	}
	out = append(out, old[pos:]...)
	res := strings.Join(out, "")
	// A line that lost its newline must be the last one.
	for i, l := range out[:max(len(out)-1, 0)] {
		if !strings.HasSuffix(l, "\n") {
			return "", fmt.Errorf("output line %d lacks its newline but is not last", i+1)
		}
	}
	return res, nil
}
