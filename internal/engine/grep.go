package engine

import (
	"bytes"
	"errors"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/fence"
	"github.com/fscache/fscache/internal/glob"
	"github.com/fscache/fscache/internal/regex"
	"github.com/fscache/fscache/internal/scancache"
	"github.com/fscache/fscache/internal/search"
	"github.com/fscache/fscache/internal/walk"
)

// GrepMode selects what Grep reports.
type GrepMode int

// The output modes (GrepOutputMode in pi-natives).
const (
	// ModeContent reports matching lines, with optional context.
	ModeContent GrepMode = iota
	// ModeCount reports one entry per file with its match count.
	ModeCount
	// ModeFilesWithMatches reports one entry per file that matched.
	ModeFilesWithMatches
)

// GrepOptions are Grep's options, documented field by field on the public
// fscache.GrepOptions (capi's TestSchema* check both against
// schema/options.json), but for Grouped.
type GrepOptions struct {
	Pattern         string
	Path            string
	Glob            string
	Type            string
	IgnoreCase      bool
	Multiline       bool
	Hidden          *bool
	Gitignore       *bool
	Cache           bool
	MaxCount        *int
	Offset          *int
	ContextBefore   *int
	ContextAfter    *int
	Context         *int
	MaxColumns      *int
	Mode            GrepMode
	MaxCountPerFile *int
	// RawLines (ours) reports lines as they are in the file (search.Options.Raw).
	RawLines bool
	// Grouped (ours, for encoders) leaves a content-mode result's Matches
	// empty and keeps its matches by file, read with EachMatch: a large
	// result is then not copied into one slice of GrepMatch.
	Grouped bool
	Cancel
}

// ContextLine is one line of context around a match.
type ContextLine = search.ContextLine

// GrepMatch is one matching line, or one file's entry in ModeCount and
// ModeFilesWithMatches (LineNumber 0, Line "").
type GrepMatch struct {
	// Path is relative to the searched directory (the path as given when
	// Path is a file).
	Path          string
	LineNumber    int
	Line          string
	ContextBefore []ContextLine
	ContextAfter  []ContextLine
	// Truncated reports that MaxColumns shortened Line.
	Truncated bool
	// Lossy and CRBefore are set with RawLines only (search.Match).
	Lossy, CRBefore bool
	// MatchCount is set in ModeCount only.
	MatchCount *int
}

// GrepResult is the result of Grep.
type GrepResult struct {
	Matches []GrepMatch
	// TotalMatches counts matches over all files, each file counted up to
	// one past its cap (files with a match in ModeFilesWithMatches); with
	// MaxCount, over the files up to the one that completed the answer
	// (grep_limit.go), as FilesWithMatches.
	TotalMatches     int
	FilesWithMatches int
	FilesSearched    int
	// LimitReached is true when MaxCount stopped the output.
	LimitReached bool

	groups []fileResult // the matches of a Grouped call, by file in order
	read   int          // files read (tests: a grep that stops reads fewer)
}

// EachMatch calls fn with every match of r in order, stopping at fn's
// first error: Matches, then (for a Grouped call) the matches by file. The
// GrepMatch is only valid during the call.
func EachMatch(r *GrepResult, fn func(*GrepMatch) error) error {
	for i := range r.Matches {
		if err := fn(&r.Matches[i]); err != nil {
			return err
		}
	}
	var m GrepMatch // one for the whole walk: fn may keep it only during the call
	for _, g := range r.groups {
		for i := range g.matches {
			m = grepMatch(g.path, &g.matches[i])
			if err := fn(&m); err != nil {
				return err
			}
		}
	}
	return nil
}

// maxFileSize is the size above which files are skipped, uncounted.
const maxFileSize = 4 << 20

// fileResult is what searching one file produced.
type fileResult struct {
	path    string
	matches []search.Match
	count   int
	idx     int // the file's position in the list searched (path order)
}

// grepper holds one Grep call's compiled state.
type grepper struct {
	o       GrepOptions
	m       *search.Matcher
	glob    *glob.Matcher
	types   typeFilter
	perFile int // per-file cap, -1 for none
	hotCap  int // MaxCountPerFile in content mode, 0 for none
	tok     *cancel.Token

	mu       sync.Mutex
	results  []fileResult
	searched int
	// listed is the number of files searchAll was given, unread the
	// positions of the files that could not be read: with skipBefore,
	// what filesSearched counts when the call stops at a complete answer
	// (grep_limit.go).
	listed int
	unread []int
	// skipBefore, set by an indexed search, holds for each file of the
	// list searched the number of files the index ruled out before it.
	skipBefore []int32
	read       int // files read
	// fail, once set, ends the call: a pattern over its backtracking
	// budget in some file.
	fail error
}

// check returns why the call should stop: its own failure first, then
// cancellation. A failure also stops the token (searchFailed), which the
// searches poll, so that nil from the token means the call runs on.
func (g *grepper) check() error {
	if !g.tok.Poll() { // (called between files: it may read the clock)
		return nil
	}
	err := g.tok.Err()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fail != nil {
		return g.fail
	}
	return err
}

// panicked fails the call with the panic of one of its goroutines, and
// stops the others (as searchFailed).
func (g *grepper) panicked(err *fence.Error) {
	g.mu.Lock()
	if g.fail == nil {
		g.fail = err
	}
	fail := g.fail
	g.mu.Unlock()
	g.tok.Stop(fail)
}

// searchFailed records a search error that ends the whole call (a
// *regex.BudgetError, reported naming the file, or the panic of the
// matcher's goroutine) and reports whether err was one.
func (g *grepper) searchFailed(err error, display string) bool {
	if fe, ok := errors.AsType[*fence.Error](err); ok {
		g.panicked(fe)
		return true
	}
	var be *regex.BudgetError
	if !errors.As(err, &be) {
		return false
	}
	g.mu.Lock()
	if g.fail == nil {
		g.fail = &Error{Code: CodeInvalidRegex, Message: "Regex error: " + be.Error() + " of " + display}
	}
	fail := g.fail
	g.mu.Unlock()
	g.tok.Stop(fail) // the other workers' searches stop at their next poll
	return true
}

// Grep searches the files under o.Path (or the file o.Path) for lines
// matching o.Pattern. onMatch, when not nil, receives every final match in
// order before Grep returns; its error stops the call.
func Grep(o GrepOptions, onMatch func(GrepMatch) error) (res GrepResult, err error) {
	defer foreground()()
	tok := o.Cancel.token()
	defer tok.Release()
	if err := tok.Err(); err != nil {
		return res, asError(err)
	}
	// The path is checked before the pattern, as the reference does.
	abs, st, err := grepPath(o.Path)
	if err != nil {
		return res, err
	}
	g, err := newGrepper(o, !st.IsDir(), tok)
	if err != nil {
		return res, err
	}
	if st.IsDir() {
		err = g.searchDir(abs)
	} else if st.Mode().IsRegular() && g.types.match(filepath.Base(abs)) {
		buf := getReadBuf()
		*buf = g.searchFile(abs, abs, *buf)
		readBufs.Put(buf)
	}
	if err == nil {
		err = g.check()
	}
	if err != nil {
		return res, asError(err)
	}
	res = g.shape()
	if onMatch != nil {
		if err := EachMatch(&res, func(m *GrepMatch) error { return onMatch(*m) }); err != nil {
			return GrepResult{}, asError(err)
		}
	}
	return res, nil
}

// grepPath makes a grep's path absolute and stats it. A relative path is
// joined to the working directory as given (not cleaned): single-file
// results carry it.
func grepPath(p string) (string, os.FileInfo, error) {
	abs := p
	if !filepath.IsAbs(abs) {
		wd, err := os.Getwd()
		if err != nil {
			return "", nil, errorf(CodePathNotFound, "Path not found: %s (%v)", p, err)
		}
		abs = strings.TrimSuffix(wd, "/") + "/" + abs
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", nil, errorf(CodePathNotFound, "Path not found: %s", abs)
	}
	return abs, st, nil
}

// newGrepper compiles o (of a grep of one file when single) into the
// call's state: the pattern, the per-file caps, the glob and type filters.
func newGrepper(o GrepOptions, single bool, tok *cancel.Token) (*grepper, error) {
	before, after := 0, 0
	if o.Mode == ModeContent {
		// Either explicit side replaces context entirely, as in the
		// reference: {context: 5, contextAfter: 0} shows no context.
		if o.ContextBefore != nil || o.ContextAfter != nil {
			before, after = deref(o.ContextBefore), deref(o.ContextAfter)
		} else {
			before, after = deref(o.Context), deref(o.Context)
		}
	}
	m, err := search.Compile(search.Options{Pattern: o.Pattern, IgnoreCase: o.IgnoreCase,
		Multiline: o.Multiline, ContextBefore: before, ContextAfter: after,
		MaxColumns: deref(o.MaxColumns), HasMaxColumns: o.MaxColumns != nil, Raw: o.RawLines})
	if err != nil {
		return nil, &Error{Code: CodeInvalidRegex, Message: err.Error()}
	}
	if single && o.MaxCount != nil && *o.MaxCount < 1 {
		// On a single file the reference reads maxCount 0 as 1.
		o.MaxCount = Int(1)
	}
	g := &grepper{o: o, m: m, types: newTypeFilter(o.Type), tok: tok, perFile: -1}
	switch {
	case o.Mode == ModeFilesWithMatches:
		g.perFile = 1
	case o.MaxCount != nil && (o.Mode == ModeContent || single):
		// A file stops after its cap plus one counted match; on a single
		// file the count mode is capped too.
		g.perFile = max(1, *o.MaxCount+deref(o.Offset))
	}
	if o.Mode == ModeContent && o.MaxCountPerFile != nil && !single {
		// (a single file is searched with no per-file cap, as in 18.2.3)
		g.hotCap = max(1, *o.MaxCountPerFile)
		if g.perFile < 0 || g.hotCap < g.perFile {
			g.perFile = g.hotCap
		}
	}
	if o.Glob != "" {
		if g.glob, err = glob.Compile(glob.Normalize(o.Glob, true)); err != nil {
			return nil, errorf(CodeInvalidGlob, "Invalid glob pattern: %v", err)
		}
	}
	return g, nil
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// searchDir searches the directory root. Its files come from a scan: the
// cached one with Cache, else one of this call's own (which neither reads
// nor fills the cache). Either way the files are searched after the scan,
// by directory runs (searchAll).
func (g *grepper) searchDir(abs string) error {
	root := abs
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		root = real
	}
	skipNM := g.o.Glob == "" || !strings.Contains(g.o.Glob, "node_modules")
	key := scancache.Key{Root: root, Hidden: orTrue(g.o.Hidden), Gitignore: orTrue(g.o.Gitignore),
		SkipNodeModules: skipNM}
	if done, err := g.viaIndex(root, key); done {
		return err // served by the content index (grep_index.go)
	}
	if !g.o.Cache && limitNeed(g.o) > 0 {
		// No scan at hand: walk in path order and stop with the answer
		// (grep_stream.go).
		snap, _, streamed, err := scanCache().UncachedStream(key, false, g.tok, func() (int, error) {
			n, err := g.searchStream(root, key, nil)
			if err == nil && n >= releaseFrom && !scanCache().Watching() {
				if gi := grepIndex(); gi != nil {
					gi.releaseIdle()
				}
			}
			return n, err
		})
		switch {
		case !streamed && err == nil:
			files, err := g.candidates(snap.All(), snap.Len(), 0)
			if err != nil {
				return err
			}
			return g.searchAll(root, files, 0)
		case !errors.Is(err, walk.ErrUnordered):
			return err
		}
		// Names that display the same: the full walk's sorted order.
		es, err := walk.Scan(key.Options(g.tok))
		if err != nil {
			return err
		}
		files, err := g.candidates(pointers(es), len(es), 0)
		if err != nil {
			return err
		}
		return g.searchAll(root, files, 0)
	}
	// Without the cache: the root's watched scan when it has one (current
	// as of the call), else a walk (sorted, so one directory's files are
	// adjacent); either way the files are searched by directory runs.
	_, files, _, err := scanUse(key, g.o.Cache, true, g.tok, nil, func(s *scancache.Snapshot, _ bool) ([]*walk.Entry, bool, error) {
		files, err := g.candidates(s.All(), s.Len(), 0)
		return files, len(files) == 0, err
	})
	if err != nil {
		return err
	}
	return g.searchAll(root, files, 0)
}

// candidate reports whether a scanned entry is a file to search; path is
// its path relative to the searched directory.
func (g *grepper) candidate(e *walk.Entry, path string) bool {
	if e.Type != walk.File {
		return false
	}
	if g.glob != nil && !g.glob.Match(path) {
		return false
	}
	return !g.types.on || g.types.match(path[strings.LastIndexByte(path, '/')+1:])
}

// candidates returns the scanned entries to search, out of the n entries
// that all yields; they point into a cached snapshot (never modified) or
// the call's own scan. The entries' paths are relative to the searched
// directory once their first cut bytes are dropped (a subdirectory of the
// scanned root, and a slash).
func (g *grepper) candidates(all iter.Seq2[int, *walk.Entry], n, cut int) ([]*walk.Entry, error) {
	files, _, err := g.candidatesAt(all, n, cut, false)
	return files, err
}

// candidatesAt is candidates, also returning each entry's position in all
// when at is true.
func (g *grepper) candidatesAt(all iter.Seq2[int, *walk.Entry], n, cut int, at bool) ([]*walk.Entry, []int32, error) {
	if g.glob != nil || g.types.on {
		n = min(n, 1024) // filtered: most entries may not be candidates
	}
	files := make([]*walk.Entry, 0, n) // unfiltered, most entries are files: one allocation
	var pos []int32
	if at {
		pos = make([]int32, 0, n)
	}
	for i, e := range all {
		if i&255 == 0 && g.tok.Poll() || g.tok.Stopped() {
			return nil, nil, g.tok.Err()
		}
		if g.candidate(e, e.Path[cut:]) {
			files = append(files, e)
			if at {
				pos = append(pos, int32(i))
			}
		}
	}
	return files, pos, nil
}

// pointers yields the entries of es with their positions, as pointers.
func pointers(es []walk.Entry) iter.Seq2[int, *walk.Entry] {
	return func(yield func(int, *walk.Entry) bool) {
		for i := range es {
			if !yield(i, &es[i]) {
				return
			}
		}
	}
}

// searchAll searches files, cached or not, with numWorkers workers. Files
// are opened by their real bytes and reported by their displayed path, in
// both modes (the reference's cached mode opens the displayed path and so
// misses files whose names are not UTF-8: docs/compat.md). Workers take
// runs of files of one directory (a scan is sorted, so they are adjacent)
// and open them relative to the directory. Files are reported without
// their first cut bytes (see candidates).
func (g *grepper) searchAll(root string, files []*walk.Entry, cut int) error {
	runs := dirRuns(files)
	var mounts *mountTable
	rootDir := cwdDir
	if len(runs) >= mountsFrom {
		mounts = readMounts()
		if fd, ok := openDir(root); ok {
			// Small directories' files are opened relative to the root:
			// fewer path components to look up than from '/'.
			rootDir = fd
			defer closeDir(fd)
		}
	}
	workers := min(max(1, numWorkers()), len(runs))
	g.listed = len(files)
	prog := newProgress(limitNeed(g.o), len(runs))
	var next atomic.Int64
	// A panic in a worker fails the call (g.fail) and stops the others.
	wg := fence.Group{Stop: g.panicked}
	for range workers {
		wg.Go(fence.GrepSearch, func() {
			buf := getReadBuf()
			defer readBufs.Put(buf)
			var big bigRead
			defer big.put()
			for g.check() == nil && !prog.stopped() {
				i := int(next.Add(1) - 1)
				if i >= len(runs) {
					return
				}
				fence.Point(fence.GrepSearch)
				*buf = g.searchRun(root, rootDir, files, runs[i], i, prog, *buf, &big, mounts, cut)
			}
		})
	}
	wg.Wait()
	return g.check()
}

// mountsFrom is the number of directories from which searchAll reads the
// mount table (readMounts) rather than asking each directory its file
// system; dirOpenFrom the number of files of a directory from which they
// are opened relative to it (with the mount table; without it, always).
const (
	mountsFrom  = 64
	dirOpenFrom = 3
)

// dirRun is files[lo:hi], all in the directory dir (relative, raw bytes).
type dirRun struct {
	lo, hi int
	dir    string
}

// runMax bounds a run, so that a large directory is shared out too.
const runMax = 64

// dirRuns cuts files into runs of one directory each.
func dirRuns(files []*walk.Entry) []dirRun {
	var runs []dirRun
	for i := 0; i < len(files); {
		p := files[i].FSPath()
		dir := p[:max(0, strings.LastIndexByte(p, '/'))]
		j := i + 1
		for j < len(files) && j-i < runMax && inDir(files[j].FSPath(), dir) {
			j++
		}
		runs = append(runs, dirRun{i, j, dir})
		i = j
	}
	return runs
}

// inDir reports whether the relative path p names an entry of the directory
// dir (relative, "" for the root) itself, not of a subdirectory.
func inDir(p, dir string) bool {
	if dir != "" {
		if len(p) <= len(dir)+1 || p[len(dir)] != '/' || p[:len(dir)] != dir {
			return false
		}
		p = p[len(dir)+1:]
	}
	return strings.IndexByte(p, '/') < 0
}

// searchRun searches the files of one directory, the run number ri of
// searchAll's list all, opened relative to it (by their paths when the
// directory cannot be opened), reported without their first cut bytes.
// rootDir is root opened (cwdDir when it is not). prog, when the call has a
// limit, is told what the run's files hold, and stops the run (and the
// call) once the files before it and the run's so far complete the answer.
// big is the worker's buffer for files larger than bigReadFrom.
func (g *grepper) searchRun(root string, rootDir int, all []*walk.Entry, run dirRun, ri int, prog *progress, buf []byte, big *bigRead, mounts *mountTable, cut int) []byte {
	files, dir := all[run.lo:run.hi], run.dir
	abs := root
	if dir != "" {
		abs = root + "/" + dir
	}
	// Each file is opened as at + prefix + its name.
	at, ok, prefix := -1, false, ""
	shortEOF := false
	switch {
	case mounts != nil && len(files) < dirOpenFrom:
		// Not opened: the directory's type is known from the mount table,
		// and opening it would cost more than it saves.
		at, ok, shortEOF = rootDir, true, mounts.shortEOF(abs)
		switch {
		case rootDir == cwdDir:
			prefix = abs + "/"
		case dir != "":
			prefix = dir + "/"
		}
	default:
		if at, ok = openDir(abs); ok {
			defer closeDir(at)
			if mounts != nil {
				shortEOF = mounts.shortEOF(abs)
			} else {
				shortEOF = shortReadIsEOF(at)
			}
		}
	}
	// The names opened relative to at, prefix + name + NUL, are built in
	// one buffer (on the stack for most directories).
	var scratch [256]byte
	named := append(scratch[:0], prefix...)
	got := 0
	for k, f := range files {
		if g.check() != nil || prog.stopped() {
			return buf
		}
		p := f.FSPath()
		name := p[strings.LastIndexByte(p, '/')+1:]
		var data []byte
		var read bool
		if ok {
			named = append(append(named[:len(prefix)], name...), 0)
			data, read = readFileNamed(at, named, buf[:0], shortEOF, big)
		} else {
			data, read = readFile(abs+"/"+name, buf[:0])
		}
		var n int
		heap := buf
		if buf, n = g.searchData(data, read, f.Path[cut:], run.lo+k, buf); big.holds(buf) {
			buf = heap // the large file's mapping stays with big
		}
		if got += n; n > 0 && prog.reached(ri, got) {
			return buf
		}
	}
	prog.finish(ri, got)
	return buf
}

// searchFile reads and searches one file (the path of a grep that names a
// file); buf is a reusable read buffer, returned (possibly grown) for the
// next file. Unreadable, special and oversized files are skipped uncounted.
func (g *grepper) searchFile(abs, display string, buf []byte) []byte {
	data, ok := readFile(abs, buf[:0])
	buf, _ = g.searchData(data, ok, display, 0, buf)
	return buf
}

// searchData searches data, the content of the file display (position idx
// in the list searched) read into buf (ok false when it could not be
// read), and returns the buffer to reuse and what the file contributes
// toward a limit (contribution).
func (g *grepper) searchData(data []byte, ok bool, display string, idx int, buf []byte) ([]byte, int) {
	if cap(data) > cap(buf) {
		buf = data[:0]
	}
	if !ok {
		g.mu.Lock()
		g.unread = append(g.unread, idx)
		g.mu.Unlock()
		return buf, 0
	}
	r := fileResult{path: display, idx: idx}
	switch {
	case g.o.Mode == ModeFilesWithMatches:
		ok, err := g.m.HasMatchCancel(data, g.tok)
		if err != nil {
			g.searchFailed(err, display)
			return buf, 0
		}
		if ok {
			r.count = 1
		}
	default:
		if bytes.IndexByte(data[:min(len(data), binaryPrefix)], 0) >= 0 {
			break // binary: searched, no matches
		}
		withLines := g.o.Mode == ModeContent
		// The matches are collected in a pooled slice and copied out at
		// their final length: one allocation per file with matches, not a
		// doubling slice per file.
		scratch := getMatchBuf()
		defer putMatchBuf(scratch)
		var err error
		r.matches, r.count, err = g.m.Search(data, g.perFile, withLines, (*scratch)[:0], g.tok)
		*scratch = r.matches // what putMatchBuf clears
		if err != nil {
			g.searchFailed(err, display)
			return buf, 0
		}
		// A NUL past the prefix only matters to a file with matches: the
		// rest of the file is scanned for one only then.
		if r.count > 0 && len(data) > binaryPrefix {
			if i := bytes.IndexByte(data[binaryPrefix:], 0); i >= 0 {
				if !withLines {
					// quitAtBinary needs the matches' line numbers.
					r.matches, r.count, err = g.m.Search(data, g.perFile, true, nil, g.tok)
					if err != nil {
						g.searchFailed(err, display)
						return buf, 0
					}
				}
				r.matches, r.count = quitAtBinary(data, binaryPrefix+i, r.matches, r.count)
			}
		}
		if g.o.Mode != ModeContent {
			r.matches = nil
		}
		if len(r.matches) > 0 && g.perFile >= 0 && len(r.matches) > g.perFile {
			r.matches = r.matches[:g.perFile]
		}
		r.matches = slices.Clone(r.matches) // off the pooled slice
	}
	g.mu.Lock()
	g.searched++
	g.read++
	if r.count > 0 {
		g.results = append(g.results, r)
	}
	g.mu.Unlock()
	return buf, g.contribution(&r)
}

// binaryPrefix is the size of the reference searcher's first buffer: a NUL
// byte within it makes the whole file binary (no content or count matches).
const binaryPrefix = 64 << 10

// quitAtBinary applies the rest of the reference searcher's binary rule to
// a file whose first NUL byte, at offset nul, lies past binaryPrefix: the
// search quits at the first matching line that contains a NUL, which is
// neither reported nor counted. Lines without a match are never examined,
// so matches after a NUL on a non-matching line still count.
func quitAtBinary(data []byte, nul int, matches []search.Match, count int) ([]search.Match, int) {
	line, pos := 1, 0 // line number of data[pos]
	for i, m := range matches {
		for nul >= 0 {
			line += bytes.Count(data[pos:nul], []byte{'\n'})
			pos = nul
			if line >= m.LineNumber {
				break
			}
			next := bytes.IndexByte(data[nul+1:], 0)
			if next < 0 {
				nul = -1
				break
			}
			nul += 1 + next
		}
		if nul < 0 {
			break
		}
		if line == m.LineNumber {
			return matches[:i], i
		}
	}
	return matches, count
}

// readBufs holds read buffers (*[]byte) shared by all calls: a buffer keeps
// the size of the largest file it held, so that later files and calls do
// not grow (allocate, zero and copy) it again.
var readBufs sync.Pool

// matchBufs holds the slices (*[]search.Match) that searchData collects a
// file's matches in before copying them out.
var matchBufs sync.Pool

func getMatchBuf() *[]search.Match {
	if b, ok := matchBufs.Get().(*[]search.Match); ok {
		return b
	}
	return new([]search.Match)
}

// putMatchBuf returns b to the pool, dropping what its elements reference.
func putMatchBuf(b *[]search.Match) {
	clear(*b)
	*b = (*b)[:0]
	matchBufs.Put(b)
}

// getReadBuf returns a pooled read buffer, or a new one of 64 KiB.
func getReadBuf() *[]byte {
	if b, ok := readBufs.Get().(*[]byte); ok {
		return b
	}
	b := make([]byte, 0, 64<<10)
	return &b
}

// shape applies offset and maxCount over the files in path order, as the
// reference does.
func (g *grepper) shape() GrepResult {
	g.trimToLimit()
	slices.SortFunc(g.results, func(a, b fileResult) int { return strings.Compare(a.path, b.path) })
	res := GrepResult{Matches: []GrepMatch{}, FilesSearched: g.searched, FilesWithMatches: len(g.results), read: g.read}
	offset := deref(g.o.Offset)
	limit := -1
	if g.o.MaxCount != nil {
		limit = *g.o.MaxCount
	}
	switch g.o.Mode {
	case ModeFilesWithMatches:
		g.shapeFiles(&res, offset, limit)
	case ModeCount:
		g.shapeCount(&res, offset, limit)
	default:
		g.shapeContent(&res, offset, limit)
	}
	return res
}

// shapeFiles is shape in ModeFilesWithMatches: one entry per file, the
// offset skipping files.
func (g *grepper) shapeFiles(res *GrepResult, offset, limit int) {
	res.TotalMatches = len(g.results)
	for _, r := range g.results {
		if limit >= 0 && len(res.Matches) >= limit {
			break
		}
		if offset > 0 {
			offset--
			continue
		}
		res.Matches = append(res.Matches, GrepMatch{Path: r.path})
	}
	res.LimitReached = limit >= 0 && len(res.Matches) >= limit
}

// shapeCount is shape in ModeCount: one entry per file with its count,
// the offset skipping matches.
func (g *grepper) shapeCount(res *GrepResult, offset, limit int) {
	consumed := 0
	for _, r := range g.results {
		res.TotalMatches += r.count
	}
	for _, r := range g.results {
		if limit >= 0 && consumed >= limit {
			break
		}
		if offset >= r.count {
			offset -= r.count
			continue
		}
		consumed += r.count - offset
		offset = 0
		n := r.count
		res.Matches = append(res.Matches, GrepMatch{Path: r.path, MatchCount: &n})
	}
	res.LimitReached = limit >= 0 && consumed >= limit
}

// shapeContent is shape in ModeContent: the files' matches as they are,
// cut to offset and limit, kept by file (Grouped) or flattened.
func (g *grepper) shapeContent(res *GrepResult, offset, limit int) {
	kept := 0
	for _, r := range g.results {
		res.TotalMatches += r.count
		ms := r.matches
		if offset > 0 {
			k := min(offset, len(ms))
			ms, offset = ms[k:], offset-k
		}
		if limit >= 0 {
			ms = ms[:min(len(ms), max(0, limit-kept))]
		}
		if len(ms) > 0 {
			res.groups = append(res.groups, fileResult{path: r.path, matches: ms})
			kept += len(ms)
		}
	}
	res.LimitReached = limit >= 0 && kept >= limit
	if g.hotCap > 0 {
		// As 18.2.3, which streams: a file whose matches reached the
		// per-file cap sets limitReached unless the offset skipped past
		// its last kept match (all of it and the ones after).
		seen, off := 0, deref(g.o.Offset)
		for _, r := range g.results {
			seen += len(r.matches)
			if len(r.matches) >= g.hotCap && off <= seen {
				res.LimitReached = true
			}
		}
	}
	if !g.o.Grouped {
		// One allocation for every match returned.
		res.Matches = make([]GrepMatch, 0, kept)
		for _, gr := range res.groups {
			for i := range gr.matches {
				res.Matches = append(res.Matches, grepMatch(gr.path, &gr.matches[i]))
			}
		}
		res.groups = nil
	}
}

// grepMatch is the GrepMatch of the engine's match m in the file at path.
func grepMatch(path string, m *search.Match) GrepMatch {
	return GrepMatch{Path: path, LineNumber: m.LineNumber, Line: m.Line,
		ContextBefore: m.ContextBefore, ContextAfter: m.ContextAfter, Truncated: m.Truncated,
		Lossy: m.Lossy, CRBefore: m.CRBefore}
}
