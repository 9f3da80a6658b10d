package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/scancache"
	"github.com/fscache/fscache/internal/walk"
)

// ListWorkspaceOptions are ListWorkspace's options, documented field by
// field on the public fscache.ListWorkspaceOptions (capi's TestSchema*
// check both against schema/options.json).
type ListWorkspaceOptions struct {
	Path            string
	MaxDepth        uint32
	Hidden          bool
	Gitignore       *bool
	CollectAgentsMd bool
	Cancel
}

// WorkspaceEntry is one entry of ListWorkspace.
type WorkspaceEntry struct {
	// Path is relative to the root, '/'-separated.
	Path string
	// Type is the entry's own kind (links are not followed).
	Type walk.FileType
	// Mtime is the modification time (of the entry itself) in ms since the
	// epoch, with a fractional part (18.2 keeps the sub-millisecond part:
	// walk.MtimeMs); an AGENTS.md file found by CollectAgentsMd has whole
	// milliseconds, as in the reference. -1 (not reported) when the time is
	// before the epoch, as in 18.2.
	Mtime float64
	// Size is the size of a regular file, -1 for other kinds.
	Size int64
}

// ListWorkspaceResult is the result of ListWorkspace.
type ListWorkspaceResult struct {
	// Entries are those within MaxDepth, sorted by path (byte order).
	Entries []WorkspaceEntry
	// AgentsMdFiles are the relative paths of the AGENTS.md files found
	// with CollectAgentsMd (at most AgentsMdCap, of directories at depth
	// 1..AgentsMdMaxDepth), sorted; never nil.
	AgentsMdFiles []string
	// Truncated reports that AgentsMdFiles was capped.
	Truncated bool
}

// The limits of CollectAgentsMd, the reference's.
const (
	AgentsMdName     = "AGENTS.md"
	AgentsMdMaxDepth = 4
	AgentsMdCap      = 200
)

// ListWorkspace walks o.Path once and returns the entries up to o.MaxDepth
// and, with CollectAgentsMd, the directory-scoped AGENTS.md files, or
// returns the result of an earlier walk of the same options that is
// provably current (scancache.Memo: every directory it read is watched,
// and none has changed since). The walk
// applies glob's policy (hidden, ignore files, .git and node_modules always
// pruned, links not followed). Unlike the other operations its errors read
// like pi-natives 18.2's ("Native directory scan failed for <path>: ...").
func ListWorkspace(o ListWorkspaceOptions) (res ListWorkspaceResult, err error) {
	wm, err := listWorkspaceShared(o)
	if err != nil {
		return ListWorkspaceResult{AgentsMdFiles: []string{}}, err
	}
	// The memo's value is shared: the caller gets its own slices.
	res = wm.res
	res.Entries, res.AgentsMdFiles = slices.Clone(res.Entries), slices.Clone(res.AgentsMdFiles)
	return res, nil
}

// ListWorkspaceEncoded is ListWorkspace returning encode's encoding of the
// result. A result served again (scancache.Memo) is encoded once: encode
// must be one function, the same for every call (capi's JSON), and the
// bytes returned must not be modified.
func ListWorkspaceEncoded(o ListWorkspaceOptions, encode func(ListWorkspaceResult) []byte) ([]byte, error) {
	wm, err := listWorkspaceShared(o)
	if err != nil {
		return nil, err
	}
	wm.once.Do(func() { wm.enc = encode(wm.res) })
	return wm.enc, nil
}

// workspaceMemo is a ListWorkspace result as scancache.Memo keeps it, with
// its encoding once made.
type workspaceMemo struct {
	res  ListWorkspaceResult
	once sync.Once
	enc  []byte
}

// listWorkspaceShared runs ListWorkspace: a walk, or (without a cache
// option, as every call) the watched result of an earlier walk that
// nothing has changed since (scancache.Memo). The result is shared.
func listWorkspaceShared(o ListWorkspaceOptions) (*workspaceMemo, error) {
	defer foreground()()
	// The root is checked before the cancellation, as 18.2.3 does.
	tok := o.Cancel.token()
	defer tok.Release()
	root, err := workspaceRoot(o.Path)
	if err != nil {
		return nil, err
	}
	if err := tok.Err(); err != nil {
		return nil, asError(err)
	}
	key := workspaceKey{root: root, maxDepth: o.MaxDepth, hidden: o.Hidden, gitignore: orTrue(o.Gitignore),
		agents: o.CollectAgentsMd}
	v, _, err := scanCache().Memo(key, root, key.gitignore, tok, func(wd scancache.WatchDir) (any, error) {
		res, err := listWorkspace(o, root, tok, wd)
		return &workspaceMemo{res: res}, err
	})
	if err != nil {
		return nil, err
	}
	return v.(*workspaceMemo), nil
}

// workspaceKey identifies a ListWorkspace walk for scancache.Memo.
type workspaceKey struct {
	root                      string
	maxDepth                  uint32
	hidden, gitignore, agents bool
}

// listWorkspace is ListWorkspace's walk of root. wd, when not nil, is
// called on every directory the walk reads or reports, before it does
// (the memo watches them).
func listWorkspace(o ListWorkspaceOptions, root string, tok *cancel.Token, wd scancache.WatchDir) (ListWorkspaceResult, error) {
	w := &workspaceWalk{o: o, root: root, maxDepth: int(o.MaxDepth), wd: wd}
	if wd != nil {
		wd(root)
	}
	if o.CollectAgentsMd {
		w.agentsIn("", 0)
	}
	if w.descend(0) {
		if err := w.scan(tok); err != nil {
			return ListWorkspaceResult{AgentsMdFiles: []string{}}, asError(err)
		}
	}
	return w.result(), nil
}

// workspaceWalk is the state of one listWorkspace walk.
type workspaceWalk struct {
	o        ListWorkspaceOptions
	root     string
	maxDepth int
	wd       scancache.WatchDir

	mu      sync.Mutex // agentsIn runs on the scan's goroutines
	agents  []string
	entries []WorkspaceEntry
}

// descend reports whether a directory at depth d is read: when its
// children may be entries, or directories whose AGENTS.md is collected.
func (w *workspaceWalk) descend(d int) bool {
	return d < w.maxDepth || (w.o.CollectAgentsMd && d < AgentsMdMaxDepth)
}

// agentsIn checks the directory rel (depth d, "" for the root) for an
// AGENTS.md directly, whatever the ignore rules say of the file.
func (w *workspaceWalk) agentsIn(rel string, d int) {
	p := AgentsMdName
	if rel != "" {
		p = rel + "/" + AgentsMdName
	}
	abs := filepath.Join(w.root, p)
	if mtime, _ := walk.LstatDetail(abs); mtime == -1 {
		return // absent, as in most directories: no error built
	}
	st, err := os.Lstat(abs)
	if err != nil || st.IsDir() {
		return
	}
	e, ok := workspaceEntry(p, st)
	if !ok {
		return
	}
	if e.Mtime >= 0 {
		e.Mtime = float64(st.ModTime().UnixMilli())
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if d >= 1 && d <= AgentsMdMaxDepth {
		w.agents = append(w.agents, p)
	}
	if d+1 <= w.maxDepth {
		w.entries = append(w.entries, e)
	}
}

// visit is asked about every directory the scan reaches (rel, on the
// scan's goroutines): it drops the pruned ones, watches the others (for
// the memo) before they are read, looks for their AGENTS.md and says
// whether to read them.
func (w *workspaceWalk) visit(rel string) bool {
	base := pathBase(rel)
	if workspaceSkipped[base] || base == workspaceDropped {
		return false // dropped with its subtree, whatever the options
	}
	if w.wd != nil {
		w.wd(strings.TrimSuffix(w.root, "/") + "/" + rel) // before its mtime is read or it is listed
	}
	d := strings.Count(rel, "/") + 1
	if w.o.CollectAgentsMd {
		w.agentsIn(rel, d)
	}
	return w.descend(d)
}

// scan runs the one scan (its listing reads each directory's ignore files
// only when they are there), declining the directories not to read, and
// keeps the entries within the depth.
func (w *workspaceWalk) scan(tok *cancel.Token) error {
	es, err := walk.Scan(walk.Options{
		Root:            w.root,
		Hidden:          w.o.Hidden,
		Gitignore:       orTrue(w.o.Gitignore),
		LooseGitignore:  true,
		SkipNodeModules: true,
		Full:            w.maxDepth > 0, // lstat relative to each listed directory,
		FullDepth:       w.maxDepth,     // of the entries listed (not those found deeper for AGENTS.md)
		Cancel:          tok,
		Descend:         w.visit,
	})
	if err != nil {
		return err
	}
	w.entries = slices.Grow(w.entries, len(es)) // after the AGENTS.md entries
	for _, e := range es {
		base := pathBase(e.Path)
		isDir := e.Type == walk.Dir
		switch {
		case isDir && workspaceSkipped[base], base == workspaceDropped:
			continue // dropped with its subtree (not read), whatever the options
		case w.o.CollectAgentsMd && !isDir && base == AgentsMdName:
			continue // reported by agentsIn of its directory
		}
		if d := strings.Count(e.Path, "/") + 1; d <= w.maxDepth && e.Mtime != -1 { // -1: gone since it was listed
			w.entries = append(w.entries, WorkspaceEntry{Path: e.Path, Type: e.Type, Mtime: reportedMs(e.Mtime), Size: e.Size})
		}
	}
	return nil
}

// result sorts what the walk found and caps the AGENTS.md files.
func (w *workspaceWalk) result() ListWorkspaceResult {
	res := ListWorkspaceResult{Entries: w.entries, AgentsMdFiles: []string{}}
	slices.SortFunc(res.Entries, func(a, b WorkspaceEntry) int { return strings.Compare(a.Path, b.Path) })
	agents := w.agents
	slices.Sort(agents)
	if len(agents) > AgentsMdCap {
		agents, res.Truncated = agents[:AgentsMdCap], true
	}
	if agents != nil {
		res.AgentsMdFiles = agents
	}
	if res.Entries == nil {
		res.Entries = []WorkspaceEntry{}
	}
	return res
}

// workspaceSkipped are the directory names 18.2.3's workspace walk always
// prunes (hidden and gitignore notwithstanding), besides .git and
// node_modules, which the walk itself prunes.
var workspaceSkipped = map[string]bool{
	".next": true, "build": true, "target": true, ".venv": true, ".cache": true,
	".turbo": true, ".parcel-cache": true, "dist": true, "coverage": true,
}

// workspaceDropped is the one name both references drop from a workspace
// listing whatever its kind: a file of that name is no entry, a directory
// is pruned with its subtree (AGENTS.md files in it are not collected).
// 18.2.3 drops no other name this way (checked over the usual
// operating-system and editor litter: Thumbs.db, desktop.ini, ._*, .idea,
// __pycache__, ...).
const workspaceDropped = ".DS_Store"

func pathBase(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// workspaceEntry builds the entry for path from its lstat; false for the
// kinds that are never entries (sockets, FIFOs, devices).
func workspaceEntry(path string, st fs.FileInfo) (WorkspaceEntry, bool) {
	e := WorkspaceEntry{Path: path, Size: -1}
	m := st.Mode()
	switch {
	case m.IsDir():
		e.Type = walk.Dir
	case m&fs.ModeSymlink != 0:
		e.Type = walk.Symlink
	case m.IsRegular():
		e.Type, e.Size = walk.File, st.Size()
	default:
		return e, false
	}
	t := st.ModTime()
	e.Mtime = reportedMs(walk.Nanos(t.Unix(), int64(t.Nanosecond())))
	return e, true
}

// reportedMs is the mtime reported for ns (walk.Entry.Mtime): its
// milliseconds (walk.MtimeMs), -1 (none) when unknown or before the epoch,
// as in pi-natives 18.2.
func reportedMs(ns int64) float64 {
	if ns < 0 {
		return -1
	}
	return walk.MtimeMs(ns)
}

// workspaceRoot resolves the root of ListWorkspace, with 18.2's messages.
func workspaceRoot(p string) (string, error) {
	return checkDir(p, dirMessages{
		notFound: func(path string, err error) string {
			return "Native directory scan failed for " + path + ": Path not found: " + osErrorText(err)
		},
		notDir: func(abs string) string {
			return "Native directory scan failed for " + abs + ": Search path must be a directory"
		},
	})
}

// osErrorText renders err as Rust's io::Error displays an OS error:
// "No such file or directory (os error 2)".
func osErrorText(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		s := errno.Error()
		if s != "" {
			s = strings.ToUpper(s[:1]) + s[1:]
		}
		return fmt.Sprintf("%s (os error %d)", s, int(errno))
	}
	return err.Error()
}
