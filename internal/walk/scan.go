package walk

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/charlievieth/fastwalk"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/fence"
	"github.com/fscache/fscache/internal/ignore"
)

// Scan runs in two phases, to add as little as possible to fastwalk's own
// work; the result is the one Walk's entries, sorted, would give.
//
// During the walk every kept directory gets a node. The non-directory
// entries of a directory are only recorded in its node, with the ignore
// marks of their names (ignore.MarkOf); nothing is matched yet. The ignore
// state of a directory is built only when one of its subdirectories must
// be matched, to prune it before fastwalk reads it; it then probes for
// every ignore file like Child, since fastwalk may still be listing the
// directory. Directories without subdirectories, most of them, need no
// state during the walk.
//
// After the walk the nodes are finished in parallel: a state not built yet
// comes from the directory's now complete listing (the marks of its files
// and of its subdirectories, .git and .jj included) through ChildMarked,
// which reads only the ignore files the listing names, without a failed
// lookup; the recorded entries are matched, full detail is read (relative
// to a descriptor of the directory where possible), and the kept children
// are sorted by name. The result is the depth-first concatenation of the
// nodes, each subtree placed where "name/" sorts among its siblings
// (a.txt < a/b < a0), so no global sort is needed: the subtree sizes give
// every node's offset and the nodes write their entries in parallel.

// fileEnt is a recorded non-directory entry.
//
// What finishing needs of the name is computed while fastwalk's strings are
// still in the cache.
type fileEnt struct {
	path   string   // as fastwalk reports it
	pre    uint64   // prefix8 of the name
	nameAt int32    // offset of the name in path
	kind   FileType // 0 for a followed link to a special file (kept for OnLink)
	link   bool     // whether it was listed as a symbolic link
	utf8   bool     // whether the name is valid UTF-8
	osHid  bool     // hidden by the system (Windows' attribute; see keeps)
	// det is the full detail read during the walk (Observe with Full).
	det detail
}

// detail is the full detail of an entry.
type detail struct{ mtime, size int64 }

// sortKey orders the kept children of a directory: pre holds the first
// bytes of the displayed name (zero padded, names have no NUL) so that most
// comparisons need not look at the names.
type sortKey struct {
	pre uint64
	i   int32 // index into files, or len(files) + index into subdirs
}

// dirNode is a kept directory of a scan (the root included).
type dirNode struct {
	path   string // as fastwalk reports it
	nameAt int    // offset of the name in path
	key    string // the displayed name
	pre    uint64 // prefix8 of key
	slash  uint64 // prefix8 of key+"/"
	parent *dirNode
	valid  bool // whether the path relative to the root is valid UTF-8

	// files and fileMarks are written only by the worker that lists the
	// directory and read after the walk.
	files     []fileEnt
	fileMarks ignore.Marks

	dirMarks atomic.Uint32 // ignore.MarkOf of the subdirectory names

	// unread: Options.Descend declined the directory; it is reported, not
	// listed.
	unread bool
	// listState is where ScanOrdered's listing of the node is (queued,
	// listing, listed), guarded by its queue's lock.
	listState uint8

	mu      sync.Mutex // guards subdirs and the building of state
	subdirs []*dirNode
	state   atomic.Pointer[ignore.Dir]

	// id is the identity of the directory (os.Stat through the links on
	// its path), for the loop check of followed links: set when n is a
	// followed link, loaded on demand otherwise.
	id atomic.Pointer[dirID]

	// Set by finishNode (of the parent for own).
	order  []sortKey // the kept children, sorted
	keys   []string  // displayed names of files, when some name is not UTF-8
	detail []detail  // full detail of files
	own    detail    // full detail of the directory itself
	total  int       // entries in the subtree (n excluded)
	start  int       // offset of the subtree in the result
}

func (n *dirNode) name() string { return n.path[n.nameAt:] }

// dirID is the identity of a directory; fi is nil when it cannot be read.
type dirID struct{ fi fs.FileInfo }

// identity returns the identity of n, reading it when it is not known yet.
func (n *dirNode) identity() fs.FileInfo {
	if id := n.id.Load(); id != nil {
		return id.fi
	}
	fi, _ := os.Stat(n.path)
	n.id.Store(&dirID{fi}) // racing stores store the same
	return fi
}

// onWalkPath reports whether target is n or one of its ancestor nodes: the
// directories walkdir keeps on its walk path, whose links it refuses.
func (n *dirNode) onWalkPath(target fs.FileInfo) bool {
	for ; n != nil; n = n.parent {
		if fi := n.identity(); fi != nil && os.SameFile(fi, target) {
			return true
		}
	}
	return false
}

// rules returns the ignore state of n, building it from its parent's with
// marks (a superset of the relevant names n contains) when it is not built
// yet.
func (n *dirNode) rules(marks ignore.Marks) *ignore.Dir {
	if s := n.state.Load(); s != nil {
		return s
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	s := n.state.Load()
	if s == nil {
		s = n.parent.state.Load().ChildMarked(n.name(), marks)
		n.state.Store(s)
	}
	return s
}

// scanner is the state of one Scan.
type scanner struct {
	*walker
	rootNode *dirNode
	nodes    *pathIndex[*dirNode] // every node but the root, for visit
	// collide is set when two siblings have the same displayed name
	// (possible only with names that are not UTF-8).
	collide atomic.Bool
	// observeErr is the first error of o.Observe. fastwalk hands a
	// callback's error back to the callback as the directory's read error,
	// so it is kept here and returned after the walk.
	observeMu   sync.Mutex
	observeErr  error
	observeStop atomic.Bool
}

// observe calls o.Observe with e, recording its error.
func (s *scanner) observe(e Entry) error {
	err := s.o.Observe(e)
	if err != nil {
		s.observeMu.Lock()
		if s.observeErr == nil {
			s.observeErr = err
		}
		s.observeMu.Unlock()
		s.observeStop.Store(true)
	}
	return err
}

// observeFailed returns the first error of o.Observe.
func (s *scanner) observeFailed() error {
	s.observeMu.Lock()
	defer s.observeMu.Unlock()
	return s.observeErr
}

// Scan walks like Walk and returns the entries sorted by path, bytewise.
func Scan(o Options) ([]Entry, error) {
	if err := o.Cancel.Err(); err != nil {
		return nil, err
	}
	s := newScanner(o)
	if o.OnDir != nil {
		if err := o.OnDir(s.root); err != nil {
			return nil, err
		}
	}
	err := s.walkTree()
	if oerr := s.observeFailed(); oerr != nil {
		return nil, oerr
	}
	if err != nil && !errors.Is(err, fastwalk.SkipDir) {
		return nil, err
	}
	if err := o.Cancel.Err(); err != nil {
		return nil, err
	}
	return s.finish()
}

func newScanner(o Options) *scanner {
	s := &scanner{walker: newWalker(o)}
	if listsWithFastwalk {
		s.nodes = newPathIndex[*dirNode]()
	}
	s.rootNode = &dirNode{path: s.root, nameAt: len(s.root), valid: true}
	if s.rootRules != nil {
		s.rootNode.state.Store(s.rootRules)
	}
	return s
}

// parentOf returns the node of the directory containing path.
func (s *scanner) parentOf(path string) *dirNode {
	i := strings.LastIndexByte(path, '/')
	if i < s.start {
		return s.rootNode
	}
	n, _ := s.nodes.load(path[:i])
	return n // never nil: a directory is listed after its callback
}

// visit is the fastwalk callback of Scan (where the walk of dirwalk_linux.go
// is not used).
func (s *scanner) visit(path string, de fs.DirEntry, err error) error {
	if err != nil {
		return nil // unreadable directories are skipped silently
	}
	if len(path) <= len(s.root) {
		return nil // the root itself
	}
	if err := s.poll(); err != nil {
		return err
	}
	if s.observeStop.Load() {
		return fastwalk.SkipDir // stop listing; the error is returned after the walk
	}
	p := s.parentOf(path)
	if p == nil {
		return nil
	}
	typ := de.Type()
	sub, err := s.entryIn(p, path, de.Name(), typ, s.hiddenBySystem(de), nil)
	switch {
	case err != nil || sub == nil:
	case sub.unread:
		return fastwalk.SkipDir
	case typ&fs.ModeSymlink != 0:
		return fastwalk.ErrTraverseLink
	}
	return err
}

// entryIn decides about the entry name of p, found while p is being listed
// (path is its full path, typ its type as listed), through classify: it
// drops the entry, records a non-directory (whose ignore verdict waits for
// finishNode, unless Observe needs it now), or records a node for a kept
// directory or followed link to one, which it returns for the walk to
// list. A directory (or link) not to be listed gives fastwalk.SkipDir; any
// other error stops the walk.
//
// ds, when not nil, is the open directory p: the full detail Observe needs
// is read relative to it (nil: by path, as fastwalk's callbacks do).
func (s *scanner) entryIn(p *dirNode, path, name string, typ fs.FileMode, osHid bool, ds *dirStat) (*dirNode, error) {
	if mark := ignore.MarkOf(name); typ.IsDir() {
		if mark != 0 {
			p.dirMarks.Or(uint32(mark))
		}
	} else {
		p.fileMarks |= mark // p is being listed by this worker
	}
	l, f := s.classify(path, name, typ, p.onWalkPath)
	switch {
	case f != admitted:
		return nil, skipUnless(f == pruned)
	case l.dir:
		return s.dir(p, path, name, l.target, osHid, ds) // SkipDir is permitted on links
	case l.kind == 0 && !l.link:
		return nil, nil // sockets, FIFOs, devices
	}
	// A file or link (a followed link to a special file is recorded for
	// OnLink only, with kind 0).
	if p.files == nil {
		p.files = make([]fileEnt, 0, 16)
	}
	fe := fileEnt{
		path:   path,
		pre:    prefix8(name),
		nameAt: int32(len(path) - len(name)),
		kind:   l.kind,
		link:   l.link,
		utf8:   utf8.ValidString(name),
		osHid:  osHid,
		det:    detail{-1, -1},
	}
	if s.o.Observe != nil {
		if err := s.observeFile(p, &fe, name, ds); err != nil {
			return nil, err
		}
	}
	p.files = append(p.files, fe)
	return nil, nil
}

// rulesOf returns the ignore state of n for a decision made while n may
// still be being listed (probing for every ignore file); nil when ignore
// files are not honoured.
func (s *scanner) rulesOf(n *dirNode) *ignore.Dir {
	if s.rootRules == nil {
		return nil
	}
	return n.rules(ignore.MarkAll)
}

// observeFile decides, during the walk, whether the file f named name in p
// is kept, exactly as finishNode will, and reports it to Observe with its
// full detail (kept in f for finishNode). Only used with Observe: it builds
// p's ignore state while p is being listed (probing for every ignore file),
// which the plain scan avoids.
func (s *scanner) observeFile(p *dirNode, f *fileEnt, name string, ds *dirStat) error {
	if f.kind == 0 || !s.keeps(s.rulesOf(p), name, false, f.osHid) {
		return nil
	}
	e := s.newEntryIn(f.path, name, f.kind, ds)
	f.det = detail{e.Mtime, e.Size}
	return s.observe(e)
}

// dir decides about the directory (or followed link to one, target then
// being the directory's identity) path, named name, in p: it prunes it
// (fastwalk.SkipDir) or records a node for it and returns the node (to be
// listed unless Options.Descend declined it: n.unread).
func (s *scanner) dir(p *dirNode, path, name string, target fs.FileInfo, osHid bool, ds *dirStat) (*dirNode, error) {
	if !s.keeps(s.rulesOf(p), name, true, osHid) {
		return nil, fastwalk.SkipDir
	}
	n := s.addNode(p, path, name, target)
	n.unread = s.o.Descend != nil && !s.o.Descend(path[s.start:])
	if target != nil && s.o.OnLink != nil {
		s.o.OnLink(path[s.start:])
	}
	if s.o.OnDir != nil && !n.unread {
		if err := s.o.OnDir(path); err != nil {
			return n, err
		}
	}
	if s.o.Observe == nil {
		return n, nil
	}
	e := s.newEntryIn(path, name, Dir, ds)
	n.own = detail{e.Mtime, e.Size}
	return n, s.observe(e)
}

// addNode records a node for the directory path, named name, in p; target
// is its identity when known (a followed link), else nil.
func (s *scanner) addNode(p *dirNode, path, name string, target fs.FileInfo) *dirNode {
	n := &dirNode{
		path:   path,
		nameAt: len(path) - len(name),
		key:    name,
		parent: p,
		own:    detail{-1, -1},
	}
	if !utf8.ValidString(name) {
		n.key = display(name)
	} else {
		n.valid = p.valid
	}
	if target != nil {
		n.id.Store(&dirID{target})
	}
	n.pre = prefix8(n.key)
	n.slash = n.pre
	if len(n.key) < 8 {
		n.slash |= '/' << (8 * (7 - len(n.key)))
	}
	if s.nodes != nil {
		s.nodes.store(path, n)
	}
	p.mu.Lock()
	p.subdirs = append(p.subdirs, n)
	p.mu.Unlock()
	return n
}

// finish runs the second phase and returns the sorted entries.
func (s *scanner) finish() ([]Entry, error) {
	nodes := []*dirNode{s.rootNode}
	size := 0
	for i := 0; i < len(nodes); i++ {
		n := nodes[i]
		size += len(n.files) + len(n.subdirs)
		nodes = append(nodes, n.subdirs...)
	}
	// One allocation for the order of all nodes.
	order := make([]sortKey, size)
	var details []detail
	if s.o.Full {
		details = make([]detail, size)
	}
	off := 0
	for _, n := range nodes {
		c := len(n.files) + len(n.subdirs)
		n.order = order[off : off : off+c]
		if details != nil {
			n.detail = details[off : off+len(n.files)]
		}
		off += c
	}
	workers := runtime.GOMAXPROCS(0)
	if s.o.Full && listsWithFastwalk {
		workers = fastwalk.DefaultNumWorkers() // mostly waiting on lstat
	}
	workers = min(workers, (size+255)/256)
	if err := s.parallel(nodes, workers, s.finishNode); err != nil {
		return nil, err
	}
	if err := s.o.Cancel.Err(); err != nil {
		return nil, err
	}
	// Where each subtree goes: sizes bottom-up, then offsets top-down.
	for i := len(nodes) - 1; i >= 0; i-- {
		n := nodes[i]
		n.total = len(n.order)
		for _, c := range n.subdirs {
			n.total += c.total
		}
	}
	for _, n := range nodes {
		s.place(n, nil)
	}
	out := make([]Entry, s.rootNode.total)
	if err := s.parallel(nodes, workers, func(n *dirNode) { s.place(n, out) }); err != nil {
		return nil, err
	}
	if s.collide.Load() {
		// Siblings with equal displayed names may interleave their
		// subtrees: fall back to a global sort.
		slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	}
	if err := s.o.Cancel.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// parallel calls f for every node from up to workers goroutines, looking
// at the cancel token before each. A panic in f is its error (*fence.Error),
// and the others stop at their next node.
func (s *scanner) parallel(nodes []*dirNode, workers int, f func(n *dirNode)) error {
	var next atomic.Int64
	var failed atomic.Bool
	work := func() {
		for !s.o.Cancel.Poll() && !failed.Load() {
			i := next.Add(1) - 1
			if i >= int64(len(nodes)) {
				return
			}
			fence.Point(fence.WalkFinish)
			f(nodes[i])
		}
	}
	if workers <= 1 {
		if err := fence.Run(fence.WalkFinish, work); err != nil {
			return err
		}
		return nil
	}
	g := fence.Group{Stop: func(*fence.Error) { failed.Store(true) }}
	for range workers {
		g.Go(fence.WalkFinish, work)
	}
	return g.Wait()
}

// finishNode matches n's recorded entries, reads full detail and orders
// the kept children.
func (s *scanner) finishNode(n *dirNode) {
	var rules *ignore.Dir
	if s.rootRules != nil && len(n.files) > 0 {
		// The listing is complete: no probe is needed.
		rules = n.rules(n.fileMarks | ignore.Marks(n.dirMarks.Load()))
	}
	for i := range n.files {
		f := &n.files[i]
		if !s.keeps(rules, f.path[f.nameAt:], false, f.osHid) {
			continue
		}
		if f.link && s.o.OnLink != nil {
			s.o.OnLink(f.path[s.start:])
		}
		if f.kind == 0 {
			continue // a followed link to a special file: no entry
		}
		pre := f.pre
		if !f.utf8 {
			pre = prefix8(n.setKey(i, display(f.path[f.nameAt:])))
		}
		n.order = append(n.order, sortKey{pre, int32(i)})
	}
	for i, c := range n.subdirs {
		n.order = append(n.order, sortKey{c.pre, int32(len(n.files) + i)})
	}
	switch {
	case s.o.Full && (s.o.Observe != nil || !listsWithFastwalk):
		// Read during the walk: by observeFile and dir, or by the lister.
		for _, k := range n.order {
			if int(k.i) < len(n.files) {
				n.detail[k.i] = n.files[k.i].det
			}
		}
	case s.fullIn(n):
		n.readDetail(s.o.Cancel)
	case s.o.Full:
		for _, k := range n.order {
			if int(k.i) < len(n.files) {
				n.detail[k.i] = detail{-1, -1} // beyond FullDepth
			}
		}
	}
	n.sortKids()
	for i := 1; i < len(n.order); i++ {
		if a, b := n.order[i-1], n.order[i]; a.pre == b.pre && n.keyOf(a.i) == n.keyOf(b.i) {
			s.collide.Store(true)
		}
	}
}

// fullIn reports whether the children of n get their full detail (Full,
// and FullDepth allows their depth).
func (s *scanner) fullIn(n *dirNode) bool {
	if !s.o.Full || s.o.FullDepth <= 0 || n == s.rootNode {
		return s.o.Full
	}
	return strings.Count(n.path[s.start:], "/")+2 <= s.o.FullDepth
}

// dirStatMin is the number of entries from which full detail is read
// relative to a descriptor of the directory.
const dirStatMin = 4

// readDetail lstats the kept children of n; it stops early once tok
// stopped (the scan then fails with the token's error).
func (n *dirNode) readDetail(tok *cancel.Token) {
	d, ok := dirStat{}, false
	if len(n.order) >= dirStatMin {
		d, ok = openDirStat(n.path)
	}
	for i, k := range n.order {
		if i&255 == 255 && tok.Poll() || tok.Stopped() {
			break
		}
		var path string
		var at int
		var det *detail
		if int(k.i) < len(n.files) {
			f := &n.files[k.i]
			path, at, det = f.path, int(f.nameAt), &n.detail[k.i]
		} else {
			c := n.subdirs[int(k.i)-len(n.files)]
			path, at, det = c.path, c.nameAt, &c.own
		}
		if ok {
			det.mtime, det.size = d.lstat(path[at:], path)
		} else {
			det.mtime, det.size = lstatPath(path)
		}
	}
	if ok {
		d.close()
	}
}

// sortKids sorts n.order by displayed name.
func (n *dirNode) sortKids() {
	o := n.order
	if len(o) > 24 {
		slices.SortFunc(o, func(a, b sortKey) int {
			if a.pre != b.pre {
				if a.pre < b.pre {
					return -1
				}
				return 1
			}
			return strings.Compare(n.keyOf(a.i), n.keyOf(b.i))
		})
		return
	}
	for i := 1; i < len(o); i++ {
		k := o[i]
		j := i
		for ; j > 0 && n.less(k, o[j-1]); j-- {
			o[j] = o[j-1]
		}
		o[j] = k
	}
}

// less orders two children of n by displayed name.
func (n *dirNode) less(a, b sortKey) bool {
	if a.pre != b.pre {
		return a.pre < b.pre
	}
	return n.keyOf(a.i) < n.keyOf(b.i)
}

// setKey records the displayed name of the file i of n when it differs
// from the name, and returns it.
func (n *dirNode) setKey(i int, key string) string {
	if n.keys == nil {
		n.keys = make([]string, len(n.files))
	}
	n.keys[i] = key
	return key
}

// keyOf returns the displayed name of the child i of n (index as in
// sortKey).
func (n *dirNode) keyOf(i int32) string {
	if int(i) >= len(n.files) {
		return n.subdirs[int(i)-len(n.files)].key
	}
	if n.keys != nil && n.keys[i] != "" {
		return n.keys[i]
	}
	f := &n.files[i]
	return f.path[f.nameAt:]
}

// prefix8 returns the first 8 bytes of s as a big-endian number, zero
// padded.
func prefix8(s string) uint64 {
	var x uint64
	if len(s) >= 8 {
		return uint64(s[0])<<56 | uint64(s[1])<<48 | uint64(s[2])<<40 | uint64(s[3])<<32 |
			uint64(s[4])<<24 | uint64(s[5])<<16 | uint64(s[6])<<8 | uint64(s[7])
	}
	for i := 0; i < 8; i++ {
		x <<= 8
		if i < len(s) {
			x |= uint64(s[i])
		}
	}
	return x
}

// place lays out the kept children of n in sorted order from n.start on:
// each child's entry, and before the first sibling that sorts after
// "name/", the subtree of a child directory (total entries, starting at
// its start). With out == nil it sets the start of the child directories;
// otherwise it writes the children's entries to out.
func (s *scanner) place(n *dirNode, out []Entry) {
	var buf [16]*dirNode
	stack := buf[:0] // pending subtrees; the top has the smallest "name/"
	pos := n.start
	flush := func(c *dirNode) {
		if out == nil {
			c.start = pos
		}
		pos += c.total
	}
	for _, k := range n.order {
		for len(stack) > 0 && s.subtreeBefore(stack[len(stack)-1], n, k) {
			flush(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
		}
		var sub *dirNode
		if int(k.i) >= len(n.files) {
			sub = n.subdirs[int(k.i)-len(n.files)]
		}
		if out != nil {
			out[pos] = s.entry(n, k.i, sub)
		}
		pos++
		if sub != nil && sub.total > 0 {
			stack = append(stack, sub)
		}
	}
	for len(stack) > 0 {
		flush(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
	}
}

// entry returns the entry of n's child i (index as in sortKey), sub when it
// is a directory.
func (s *scanner) entry(n *dirNode, i int32, sub *dirNode) Entry {
	if sub != nil {
		e := Entry{Path: sub.path[s.start:], Type: Dir, Mtime: sub.own.mtime, Size: sub.own.size}
		if !sub.valid {
			e.RawPath, e.Path = e.Path, display(e.Path)
		}
		return e
	}
	f := &n.files[i]
	e := Entry{Path: f.path[s.start:], Type: f.kind, Mtime: -1, Size: -1}
	if !n.valid || !f.utf8 {
		e.RawPath, e.Path = e.Path, display(e.Path)
	}
	if n.detail != nil {
		e.Mtime, e.Size = n.detail[i].mtime, n.detail[i].size
	}
	return e
}

// subtreeBefore reports whether the subtree of dir sorts before the child k
// of n, comparing prefixes first.
func (s *scanner) subtreeBefore(dir, n *dirNode, k sortKey) bool {
	if dir.slash != k.pre {
		return dir.slash < k.pre
	}
	return subtreeBefore(dir.key, n.keyOf(k.i))
}

// subtreeBefore reports whether dir+"/" sorts before x, bytewise.
func subtreeBefore(dir, x string) bool {
	n := min(len(dir), len(x))
	if c := strings.Compare(dir[:n], x[:n]); c != 0 {
		return c < 0
	}
	if len(x) <= len(dir) {
		return false // x is a prefix of dir: x <= dir < dir+"/"
	}
	return x[len(dir)] > '/'
}
