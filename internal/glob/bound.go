package glob

import (
	"fmt"
	"strings"
)

// maxNestCost bounds how deeply braces may nest. The reference compiles a
// glob into a regex whose parser refuses more than 250 levels of nesting; a
// group of alternatives ("{a,b}") costs it two levels, a group without a
// comma ("{a}") one. Patterns the reference accepts stay accepted (124
// nested "{a," or 249 nested "{a"); deeper ones are refused with a clear
// message rather than the reference's "error parsing pattern 0".
const maxNestCost = 250

// checkNesting returns why p nests braces too deeply, or "". Classes are
// skipped as check skips them.
func checkNesting(p string) string {
	// costs holds, per open brace, 1 plus 1 once a comma was seen in it.
	var costs []int
	total := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '[':
			i = classEnd(p, i)
		case '{':
			costs = append(costs, 1)
			total++
		case ',':
			if n := len(costs); n > 0 && costs[n-1] == 1 {
				costs[n-1] = 2
				total++
			}
		case '}':
			if n := len(costs); n > 0 {
				total -= costs[n-1]
				costs = costs[:n-1]
			}
		}
		if total >= maxNestCost {
			return fmt.Sprintf("braces nest too deeply (over %d levels; a group with a comma counts twice)", maxNestCost-1)
		}
	}
	return ""
}

// collapseEmptyGroups reduces nested groups that hold nothing ("{{{}}}")
// to one "{}": the reference answers "{" repeated 10000 times (which
// Normalize closes) as a pattern with one empty group, whereas keeping
// every level would nest past maxNestCost. Classes are left alone.
func collapseEmptyGroups(p string) string {
	if !strings.Contains(p, "{{}}") {
		return p
	}
	out := make([]byte, 0, len(p))
	var opens []int // offsets in out of the open '{'
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '[':
			end := classEnd(p, i)
			out = append(out, p[i:end+1]...)
			i = end
		case '{':
			opens = append(opens, len(out))
			out = append(out, c)
		case '}':
			if n := len(opens); n > 0 {
				if opens[n-1] == len(out)-3 && string(out[len(out)-2:]) == "{}" {
					out = out[:len(out)-2]
				}
				opens = opens[:n-1]
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return string(out)
}

// classEnd returns the index of the ']' closing the class opened at p[i]
// (with globset's rules: a ']' first, after an optional '!' or '^', is a
// member), or len(p)-1 when it is unclosed.
func classEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for j < len(p) && p[j] != ']' {
		j++
	}
	return min(j, len(p)-1)
}
