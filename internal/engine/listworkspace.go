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
	// epoch, with a fractional part (18.2 keeps the sub-millisecond part);
	// an AGENTS.md file found by CollectAgentsMd has whole milliseconds, as
	// in the reference.
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
	defer foreground()()
	res.AgentsMdFiles = []string{}
	// The root is checked before the cancellation, as 18.2.3 does.
	tok := o.Cancel.token()
	defer tok.Release()
	root, err := workspaceRoot(o.Path)
	if err != nil {
		return res, err
	}
	if err := tok.Err(); err != nil {
		return res, asError(err)
	}
	// Without a cache option, as every call: a walk, or the watched result
	// of an earlier one that nothing has changed since (scancache.Memo).
	key := workspaceKey{root: root, maxDepth: o.MaxDepth, hidden: o.Hidden, gitignore: orTrue(o.Gitignore),
		agents: o.CollectAgentsMd}
	v, _, err := scanCache().Memo(key, root, key.gitignore, tok, func(wd scancache.WatchDir) (any, error) {
		return listWorkspace(o, root, tok, wd)
	})
	if err != nil {
		return ListWorkspaceResult{AgentsMdFiles: []string{}}, err
	}
	// The memo's value is shared: the caller gets its own slices.
	res = v.(ListWorkspaceResult)
	res.Entries, res.AgentsMdFiles = slices.Clone(res.Entries), slices.Clone(res.AgentsMdFiles)
	return res, nil
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
func listWorkspace(o ListWorkspaceOptions, root string, tok *cancel.Token, wd scancache.WatchDir) (res ListWorkspaceResult, err error) {
	res.AgentsMdFiles = []string{}
	if wd != nil {
		wd(root)
	}
	maxDepth := int(o.MaxDepth)
	// A directory at depth d is descended into when its children may be
	// entries, or when they are directories whose AGENTS.md is collected.
	descend := func(d int) bool {
		return d < maxDepth || (o.CollectAgentsMd && d < AgentsMdMaxDepth)
	}
	var (
		mu     sync.Mutex
		agents []string
	)
	// agentsIn checks the directory rel (depth d, "" for the root) for an
	// AGENTS.md directly, whatever the ignore rules say of the file.
	agentsIn := func(rel string, d int) {
		p := AgentsMdName
		if rel != "" {
			p = rel + "/" + AgentsMdName
		}
		abs := filepath.Join(root, p)
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
		e.Mtime = float64(st.ModTime().UnixMilli())
		mu.Lock()
		defer mu.Unlock()
		if d >= 1 && d <= AgentsMdMaxDepth {
			agents = append(agents, p)
		}
		if d+1 <= maxDepth {
			res.Entries = append(res.Entries, e)
		}
	}
	if o.CollectAgentsMd {
		agentsIn("", 0)
	}
	if descend(0) {
		// One scan (its listing reads each directory's ignore files only
		// when they are there), declining the directories not to read.
		es, err := walk.Scan(walk.Options{
			Root:            root,
			Hidden:          o.Hidden,
			Gitignore:       orTrue(o.Gitignore),
			LooseGitignore:  true,
			SkipNodeModules: true,
			Full:            maxDepth > 0, // lstat relative to each listed directory,
			FullDepth:       maxDepth,     // of the entries listed (not those found deeper for AGENTS.md)
			FullNanos:       true,         // 18.2 keeps the sub-millisecond part
			Cancel:          tok,
			// Asked about every directory reached, on the scan's goroutines:
			// its AGENTS.md is looked for here.
			Descend: func(rel string) bool {
				base := pathBase(rel)
				if workspaceSkipped[base] || base == workspaceDropped {
					return false // dropped with its subtree, whatever the options
				}
				if wd != nil {
					wd(strings.TrimSuffix(root, "/") + "/" + rel) // before its mtime is read or it is listed
				}
				d := strings.Count(rel, "/") + 1
				if o.CollectAgentsMd {
					agentsIn(rel, d)
				}
				return descend(d)
			},
		})
		if err != nil {
			return ListWorkspaceResult{AgentsMdFiles: []string{}}, asError(err)
		}
		res.Entries = slices.Grow(res.Entries, len(es)) // after the root's AGENTS.md
		for _, e := range es {
			base := pathBase(e.Path)
			isDir := e.Type == walk.Dir
			switch {
			case isDir && workspaceSkipped[base], base == workspaceDropped:
				continue // dropped with its subtree (not read), whatever the options
			case o.CollectAgentsMd && !isDir && base == AgentsMdName:
				continue // reported by agentsIn of its directory
			}
			if d := strings.Count(e.Path, "/") + 1; d <= maxDepth && e.Mtime != -1 { // -1: gone since it was listed
				res.Entries = append(res.Entries, WorkspaceEntry{Path: e.Path, Type: e.Type, Mtime: nanosToMs(e.Mtime), Size: e.Size})
			}
		}
	}
	slices.SortFunc(res.Entries, func(a, b WorkspaceEntry) int { return strings.Compare(a.Path, b.Path) })
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
	return res, nil
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

// nanosToMs converts ns since the epoch to ms with a fractional part,
// exactly as time.Time's Unix()*1000 + Nanosecond()/1e6.
func nanosToMs(ns int64) float64 {
	sec, nsec := ns/1e9, ns%1e9
	if nsec < 0 {
		sec, nsec = sec-1, nsec+1e9
	}
	return float64(sec)*1000 + float64(nsec)/1e6
}

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
	e.Mtime = float64(t.Unix())*1000 + float64(t.Nanosecond())/1e6
	return e, true
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
