// Package diff computes line diffs and prints them as unified diffs, for
// the read cache's "diff" answers (seed 001, §9.2 and §16.3): when a file
// the model has seen changed, the model is shown a unified diff (context 3)
// against the version it saw, so the diff must be fast on large files (up
// to at least 16 MiB / 200k lines) and the patch small.
//
// The algorithm is git's histogram diff (xdiff/xhistogram.c): the common
// prefix and suffix are trimmed; the other lines are interned to integer
// ids (each hashed at most once, in a table holding no pointers; a new
// line equal to the old line on the diagonal of the last match takes its
// id unhashed); the rest is split at the longest run of common lines that
// occurs least often in the old side (an anchor of at most 64
// occurrences), and both sides of it are diffed the same way. A region
// that has common lines but no anchor (all of them occur too often, such
// as "}" and blank lines) is diffed with Myers' O(ND) algorithm in linear
// space, with xdiff's cost bound (past max(256, sqrt(N)) edit steps a
// search settles for the furthest point reached). Past a work budget
// proportional to the two sides' lines (Options.MaxWork) the diff gives up
// (ErrTooCostly): two files of 200k lines each drawn at random from 3
// distinct lines would take about 1.6 s and give up after 0.1 s, while a
// useful diff of edited code takes under half the budget. With
// Options.MaxBytes it also gives up as soon as the lines found changed
// make the patch too long. The changes are then slid to GNU diff's
// canonical positions (diffutils' shift_boundaries) and printed as GNU
// diff -u and git print them.
//
// On generated code-like files (BenchmarkUnified; make bench-diff for the
// comparison with jsdiff) a diff takes about 1 ms at 12k lines and 9-20 ms
// at 100k lines (0.01 to 0.13 of jsdiff 8's time), and its patch is within
// 1% of the size of jsdiff's minimal one. The work space is kept in a
// sync.Pool between calls (diffs of up to 1M lines).
//
// It is written here because no suitable maintained Go library is
// available on this project's module proxy: go-udiff (0.4.1) is not a
// minimal or anchored diff (its patches were 6 to 20 times jsdiff's on the
// read cache's benchmark inputs) and znkr.io/diff is refused by the proxy.
package diff

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// DefaultContext is the number of context lines when Options leaves it
// unset.
const DefaultContext = 3

// Options of Unified.
type Options struct {
	// Context is the number of unchanged lines printed around each change.
	// 0 means DefaultContext (3) unless ContextSet is true; a negative
	// value is an error.
	Context int
	// ContextSet makes Context taken as given, so that a Context of 0
	// prints no context lines (diff -U0).
	ContextSet bool
	// MaxBytes, when > 0, bounds the patch: when the patch would be longer
	// than MaxBytes bytes, Unified returns an error for which
	// errors.Is(err, ErrTooLarge) holds, without building the patch (the
	// Stats are still returned). The size is known exactly before the
	// patch is written.
	MaxBytes int
	// MaxWork bounds the diff's work, in its units (a line compared,
	// indexed or extended): past it Unified gives up with an error for
	// which errors.Is(err, ErrTooCostly) holds. 0 means the default,
	// DefaultWorkPerLine units per line of both sides plus MinWork
	// (more than twice what a diff small enough to be useful takes, a
	// sixteenth of what pathological inputs would); a negative value means
	// no bound.
	MaxWork int
	// Cancel, when not nil, is polled before the diff starts and then
	// about every 16k units of work (a line compared or indexed); once it
	// returns true Unified returns ErrCancelled.
	Cancel func() bool
}

// ErrTooLarge is returned (wrapped, with the patch's size; test it with
// errors.Is) when the patch would exceed Options.MaxBytes.
var ErrTooLarge = errors.New("diff: patch larger than MaxBytes")

// ErrTooCostly is returned (wrapped, with the work done; test it with
// errors.Is) when the diff's work passed Options.MaxWork.
var ErrTooCostly = errors.New("diff: over its work budget")

// The default work budget (Options.MaxWork 0): DefaultWorkPerLine units
// per line of both sides, plus MinWork (about 15 ms of work, so that small
// files never give up). Diffs of edited code-like files (BenchmarkUnified's,
// 2k to 100k lines, 10 to 1000 edits) take 1.6 to 12.3 units per line,
// and 14.5 with an edit every 4 lines (TestWorkBudget); those whose patch
// the read cache could serve (at most 50 KB) under 7. Two files of 200k
// lines drawn at random from 3 lines take about 260 (1.6 s without a
// bound, 0.1 s to give up).
const (
	DefaultWorkPerLine = 16
	MinWork            = 1 << 20
)

// ErrCancelled is returned when Options.Cancel returned true.
var ErrCancelled = errors.New("diff: cancelled")

// Stats of a patch.
type Stats struct {
	// Hunks is the number of "@@" hunks.
	Hunks int
	// Inserted and Deleted are the numbers of "+" and "-" lines.
	Inserted, Deleted int
	// Changed is the sum over change blocks (a run of deleted and
	// inserted lines with no unchanged line between) of the larger of the
	// block's inserted and deleted counts: a line replaced counts once.
	Changed int
}

// maxInput is the most bytes of both sides together Unified accepts: line
// offsets and line numbers are int32.
const maxInput = math.MaxInt32 - 1

// Unified returns the unified diff of a -> b: "--- a/<oldName>\n+++
// b/<newName>\n" and then the "@@ -l,s +l,s @@" hunks as GNU diff -u and
// git print them (a side with no line in a hunk is printed "l,0" with l
// the line before it; ",s" is left out when s is 1), with "\ No newline at
// end of file" after a side's last line when it lacks its "\n". Lines are
// split on "\n" only: a "\r" stays part of its line, and a last line
// without "\n" differs from the same text with it. Equal inputs give ""
// and zero Stats.
//
// Errors: a negative Options.Context, a name holding a line break, inputs
// longer than 2 GiB together, ErrTooLarge (wrapped; also as soon as the
// lines found changed are more than MaxBytes), ErrTooCostly (wrapped) and
// ErrCancelled.
func Unified(oldName, newName, a, b string, o Options) (string, Stats, error) {
	ctx := o.Context
	if ctx < 0 {
		return "", Stats{}, fmt.Errorf("diff: negative Context %d", ctx)
	}
	if ctx == 0 && !o.ContextSet {
		ctx = DefaultContext
	}
	if strings.ContainsAny(oldName, "\r\n") || strings.ContainsAny(newName, "\r\n") {
		return "", Stats{}, fmt.Errorf("diff: file name %q or %q holds a line break", oldName, newName)
	}
	if len(a) > maxInput-len(b) {
		return "", Stats{}, fmt.Errorf("diff: inputs too large (%d and %d bytes; at most %d together)", len(a), len(b), maxInput)
	}
	if o.Cancel != nil && o.Cancel() {
		return "", Stats{}, ErrCancelled
	}
	if a == b {
		return "", Stats{}, nil
	}
	d := newDiffer(a, b, o.Cancel)
	defer d.release()
	switch {
	case o.MaxWork == 0:
		d.budget = DefaultWorkPerLine*(d.old.n()+d.new.n()) + MinWork
	case o.MaxWork > 0:
		d.budget = o.MaxWork
	}
	d.maxBytes = o.MaxBytes
	if err := d.run(); err != nil {
		return "", Stats{}, err
	}
	return d.format(oldName, newName, ctx, o.MaxBytes)
}
