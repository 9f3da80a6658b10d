// Package walk is the scan engine: a parallel directory walk (fastwalk) that
// applies the reference's traversal policy (hidden entries, ignore files,
// .git and node_modules pruning, symlink handling) and yields entries with
// minimal or full metadata.
package walk

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/charlievieth/fastwalk"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/ignore"
)

// FileType is the kind of an entry; the values are the reference's.
type FileType uint8

// The entry kinds. Sockets, FIFOs and devices are never entries.
const (
	File    FileType = 1
	Dir     FileType = 2
	Symlink FileType = 3
)

// Entry is one scanned filesystem entry.
type Entry struct {
	// Path is relative to the scan root, '/'-separated, never empty. Names
	// that are not valid UTF-8 carry U+FFFD replacement characters.
	Path string
	// RawPath is the path's actual bytes when they differ from Path (a
	// name on it is not valid UTF-8); empty otherwise. See FSPath.
	RawPath string
	// Type is the entry's kind (the link's own kind unless links are
	// followed).
	Type FileType
	// Mtime is the modification time in ns since the epoch, from lstat
	// (full detail only; -1 when unknown). MtimeMs gives it as the
	// milliseconds that results report.
	Mtime int64
	// Size is the size of a regular file (full detail only; -1 otherwise).
	Size int64
}

// FSPath returns the path, relative to the scan root, that names the entry
// in the file system: RawPath when set, Path otherwise.
func (e *Entry) FSPath() string {
	if e.RawPath != "" {
		return e.RawPath
	}
	return e.Path
}

// Options selects what a walk visits.
type Options struct {
	// Root is the absolute, canonical directory to walk.
	Root string
	// Hidden includes entries whose name starts with '.'.
	Hidden bool
	// Gitignore honours .gitignore, .ignore, info/exclude and the global
	// excludes file; when false no ignore file is read.
	Gitignore bool
	// LooseGitignore (with Gitignore) reads the root's rules with
	// ignore.NewRootLoose: .gitignore files below the root apply outside
	// repositories and across nested ones (pi-natives 18.2's listWorkspace).
	LooseGitignore bool
	// SkipNodeModules prunes every entry named node_modules.
	SkipNodeModules bool
	// FollowLinks walks links to directories as directories and reports
	// links to files as files; broken links stay symlinks. As in walkdir, a
	// link to one of the directories on its walk path (from the root down
	// to the link's parent, compared by identity, the targets of the links
	// followed to get there included) is dropped: neither reported nor
	// followed.
	FollowLinks bool
	// Full records Mtime (in ns) and Size.
	Full bool
	// FullDepth, when above 0 (with Full), limits the full detail to the
	// entries at most that deep (the root's children are at depth 1); the
	// deeper ones keep -1s.
	FullDepth int
	// Descend, when set, is asked about every kept directory (and followed
	// link to one), by its relative path: false reports it but does not
	// read it, nor calls OnDir for it. Every entry point honours it.
	Descend func(rel string) bool
	// Cancel is looked at before the walk, at every entry and between the
	// steps of Scan's second phase.
	Cancel *cancel.Token
	// Hooks are what the walk reports besides its entries.
	Hooks
}

// Hooks are what a walk reports besides its entries. Every entry point
// (Walk, WalkSub, Scan) honours each of them that is not nil. They are
// called concurrently from the walk's goroutines, in no particular order,
// before the walk returns; an error from OnDir or Observe stops the walk
// and is returned.
type Hooks struct {
	// OnDir is called with the absolute path of every directory the walk
	// reads (the top directory first), before reading it: a watch added
	// there sees every change the listing misses.
	OnDir func(abs string) error
	// OnLink is called with the relative path of every kept entry that is
	// a symbolic link, followed or not, whatever it points to (a followed
	// link to a FIFO is reported, though it is not an entry).
	OnLink func(rel string)
	// Observe is called with every entry the walk reports, once each, as
	// the walk finds it: by Scan before it returns the sorted entries, by
	// Walk and WalkSub just before their fn.
	Observe func(e Entry) error
}

// walker holds what Walk and Scan share: the options, the root in the form
// fastwalk reports it, and the root's ignore state.
type walker struct {
	o Options
	// root is o.Root as fastwalk reports it: without trailing slashes
	// ("/" for the file system root, "C:/" for a drive's).
	root string
	// start is the offset of the relative path in the paths fastwalk
	// reports for entries under root.
	start int
	// rootRules is the ignore state of root; nil when o.Gitignore is off.
	rootRules *ignore.Dir
	visited   atomic.Int64
	// ids caches the identities (os.Stat) of the directories Walk checks
	// for link loops, by path; nil unless o.FollowLinks.
	ids *pathIndex[fs.FileInfo]
}

// newWalker returns a walker for a walk with the options o.
func newWalker(o Options) *walker {
	w := new(walker)
	w.init(o)
	return w
}

// init sets up the zero walker w for a walk with the options o (newWalker;
// WalkSub's subWalk holds its walker).
func (w *walker) init(o Options) {
	// Paths are '/'-separated on every system: results carry them so, as
	// pi-natives' do, and Windows' file APIs take '/' as well as '\'.
	o.Root = filepath.ToSlash(o.Root)
	w.o, w.root = o, strings.TrimRight(o.Root, "/")
	if w.root == "" && o.Root != "" {
		w.root = "/"
	}
	if v := filepath.VolumeName(w.root); v != "" && v == w.root && o.Root != v {
		w.root += "/" // a drive's root ("C:/"): "C:" alone is the drive's working directory
	}
	w.start = len(w.root) + 1
	if strings.HasSuffix(w.root, "/") {
		w.start = len(w.root) // "/" or "C:/"
	}
	if o.Gitignore && o.LooseGitignore {
		w.rootRules = ignore.NewRootLoose(o.Root)
	} else if o.Gitignore {
		w.rootRules = ignore.NewRoot(o.Root)
	}
}

// poll counts one visited entry and looks at the cancel token: one atomic
// load (the token notices a cancellation by its own clock), and every 256
// entries a Poll, for the listing workers keep every P busy.
func (w *walker) poll() error {
	if w.visited.Add(1)&255 == 0 {
		w.o.Cancel.Poll()
	}
	return w.o.Cancel.Err()
}

// entryClass is a directory entry as the policy sees it before the ignore
// rules (classify).
type entryClass struct {
	// kind is the entry's kind: the link's own unless links are followed;
	// 0 for what is never an entry (a socket, FIFO or device, or a
	// followed link to one).
	kind FileType
	// dir is set for what the walk reads as a directory: a directory, or
	// a followed link to one.
	dir bool
	// link is set when the entry was listed as a symbolic link.
	link bool
	// target is the directory a followed link points to; nil otherwise.
	target fs.FileInfo
}

// fate is what the policy does with a listed entry.
type fate uint8

const (
	// admitted: the ignore rules and the hidden filter decide (keeps).
	admitted fate = iota
	// dropped: no entry, and nothing below it is read.
	dropped
	// pruned: no entry, and the directory (or followed link to one) must
	// not be read: fastwalk.SkipDir.
	pruned
)

// classify applies to the entry name, listed with type typ at the full
// path path, the parts of the policy that need no ignore state: .git
// always, and node_modules when the walk skips it, are pruned by name;
// when links are followed, a link takes its target's kind and a link to a
// directory on its walk path (onWalkPath reports it) is dropped, as in
// walkdir. Every walker (WalkSub's callback, Scan's entryIn) decides
// through classify, then keeps.
func (w *walker) classify(path, name string, typ fs.FileMode, onWalkPath func(target fs.FileInfo) bool) (entryClass, fate) {
	l := entryClass{kind: kindOf(typ), dir: typ.IsDir(), link: typ&fs.ModeSymlink != 0}
	follow := l.link && w.o.FollowLinks
	if name == ".git" || (w.o.SkipNodeModules && name == "node_modules") {
		if l.dir || follow {
			return l, pruned
		}
		return l, dropped
	}
	if follow {
		if l.kind, l.target = followedKind(path); l.target != nil {
			if onWalkPath(l.target) {
				return l, dropped // a loop: neither reported nor followed
			}
			l.dir = true
		}
	}
	return l, admitted
}

// keeps reports whether the policy keeps an admitted entry named name (a
// directory when isDir) of a directory whose ignore state is rules (nil
// when ignore files are not honoured): not ignored, and not hidden unless
// hidden entries are shown or a rule whitelists it. An entry is hidden when
// its name starts with '.' or, on Windows, when the system marks it hidden
// (osHid: FILE_ATTRIBUTE_HIDDEN), as the ignore crate's walker decides.
func (w *walker) keeps(rules *ignore.Dir, name string, isDir, osHid bool) bool {
	v := ignore.None
	if rules != nil {
		v = rules.Match(name, isDir)
	}
	return v != ignore.Ignore && (w.o.Hidden || v == ignore.Whitelist || name[0] != '.' && !osHid)
}

// hiddenBySystem reports whether the listed entry de is marked hidden by
// the system (Windows' hidden attribute), when that matters: not when
// hidden entries are shown.
func (w *walker) hiddenBySystem(de fs.DirEntry) bool {
	return !w.o.Hidden && osHidden(de)
}

// skipUnless is the fastwalk answer for an entry that is not kept: a
// directory (or followed link to one) is not read.
func skipUnless(dir bool) error {
	if dir {
		return fastwalk.SkipDir
	}
	return nil
}

// newEntry returns the entry of the path (as fastwalk reports it) of kind
// kind, with its full detail when the walk records it.
func (w *walker) newEntry(path string, kind FileType) Entry {
	return w.newEntryIn(path, "", kind, nil)
}

// newEntryIn is newEntry for the entry named name of the open directory ds
// (nil: none), relative to which its detail is read: that spares the
// kernel the lookup of the directory's path (on 120k files, 18% of a
// walk's time with detail).
func (w *walker) newEntryIn(path, name string, kind FileType, ds *dirStat) Entry {
	e := Entry{Type: kind, Mtime: -1, Size: -1}
	e.Path, e.RawPath = names(path[w.start:])
	if w.o.Full && (w.o.FullDepth <= 0 || strings.Count(path[w.start:], "/") < w.o.FullDepth) {
		if ds != nil {
			e.Mtime, e.Size = ds.lstat(name, path)
		} else {
			e.Mtime, e.Size = lstatPath(path)
		}
	}
	return e
}

// followedKind resolves a symlink for FollowLinks: a link to a directory is
// a directory (target is then the directory's FileInfo), a link to a
// regular file is a file, a link to anything else is no entry (0) and a
// broken link stays a symlink.
func followedKind(path string) (kind FileType, target fs.FileInfo) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return Symlink, nil
	case st.IsDir():
		return Dir, st
	case st.Mode().IsRegular():
		return File, nil
	}
	return 0, nil
}

// onWalkPath reports whether target, the directory a link at path points
// to, is one of the directories from the root down to the link's parent:
// the directories whose paths are prefixes of path, each stat'ed through
// the links on it. Used by Walk; Scan follows its nodes instead.
func (w *walker) onWalkPath(path string, target fs.FileInfo) bool {
	dir := path
	for {
		i := strings.LastIndexByte(dir, '/')
		if i <= len(w.root) {
			break
		}
		dir = dir[:i]
		if w.sameDir(dir, target) {
			return true
		}
	}
	return w.sameDir(w.root, target)
}

// sameDir reports whether the directory dir is target, caching dir's
// identity.
func (w *walker) sameDir(dir string, target fs.FileInfo) bool {
	fi, ok := w.ids.load(dir)
	if !ok {
		fi, _ = os.Stat(dir) // nil when it cannot be read: never the same
		w.ids.store(dir, fi)
	}
	return fi != nil && os.SameFile(fi, target)
}

// names returns the displayed path and the raw path (empty when they are
// the same) of the relative path rel.
func names(rel string) (path, raw string) {
	if utf8.ValidString(rel) {
		return rel, ""
	}
	return display(rel), rel
}

// Walk visits every entry under o.Root that the policy keeps, calling fn
// concurrently from several goroutines in no particular order. fn's error
// stops the walk and is returned. Unreadable directories are skipped.
func Walk(o Options, fn func(e Entry) error) error {
	return WalkSub(o, Sub{}, fn) // the whole root, without hooks (sub.go)
}

// kindOf maps a directory entry's mode to an entry kind, 0 for the kinds
// that are never entries.
func kindOf(m fs.FileMode) FileType {
	switch {
	case m.IsDir():
		return Dir
	case m&fs.ModeSymlink != 0:
		return Symlink
	case m.IsRegular():
		return File
	}
	return 0
}

// display replaces every byte of an invalid UTF-8 sequence with U+FFFD.
func display(p string) string {
	if utf8.ValidString(p) {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRuneInString(p[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(p[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Stat returns the kind of what root/rel points at, following links; 0 when
// it cannot be read or is neither a file nor a directory.
func Stat(root, rel string) FileType {
	st, err := os.Stat(root + "/" + rel)
	if err != nil {
		return 0
	}
	switch {
	case st.IsDir():
		return Dir
	case st.Mode().IsRegular():
		return File
	}
	return 0
}
