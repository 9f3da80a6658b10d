// Package ignore implements the ignore-file semantics of ripgrep's `ignore`
// crate (version 0.4.25, globset 0.4.18) as WalkBuilder uses them by default:
// `.ignore` files everywhere, `.gitignore` files, `.git/info/exclude` and the
// global git excludes file inside git repositories only, ignore files of the
// ancestors of the scan root included.
//
// A walker builds the state of its root with NewRoot, asks Match about every
// entry of a directory and derives the state of each kept subdirectory with
// Child (or ChildMarked). States are immutable and safe for concurrent use.
package ignore

import (
	"bufio"
	"os"
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"
)

// Match is the verdict of the ignore rules for one path.
type Match int8

const (
	// None means no rule matched the path.
	None Match = iota
	// Ignore means the deciding rule excludes the path.
	Ignore
	// Whitelist means the deciding rule is a negated (`!`) one: the path is
	// explicitly included, which in ripgrep also overrides hidden-file
	// filtering.
	Whitelist
)

// String returns "none", "ignore" or "whitelist".
func (m Match) String() string {
	switch m {
	case Ignore:
		return "ignore"
	case Whitelist:
		return "whitelist"
	}
	return "none"
}

// Dir is the immutable, goroutine-safe ignore state of one directory: the
// rules of its own ignore files plus those of all its ancestors that apply.
type Dir struct {
	path    string      // absolute, without trailing slash; "" is "/"
	shared  *shared     // per-NewRoot state: cwd and global excludes
	ign     []*ruleFile // .ignore files, deepest first
	git     []*ruleFile // .gitignore files up to the nearest repository, deepest first
	exclude *ruleFile   // info/exclude of the nearest repository
	anyGit  bool        // this directory or an ancestor is a repository
}

type shared struct {
	global *ruleFile // relative to cwd
	cwd    string    // internal form ("" is "/")
	loose  bool      // NewRootLoose: .gitignore applies outside repositories too
}

// Marks records which names relevant to ignore handling a directory listing
// contains; see MarkOf and ChildMarked.
type Marks uint8

const (
	// MarkGit is set when the listing has a ".git" entry.
	MarkGit Marks = 1 << iota
	// MarkJJ is set when the listing has a ".jj" entry.
	MarkJJ
	// MarkGitignore is set when the listing has a ".gitignore" entry.
	MarkGitignore
	// MarkIgnore is set when the listing has a ".ignore" entry.
	MarkIgnore
	// MarkAll makes ChildMarked probe everything, like Child.
	MarkAll = MarkGit | MarkJJ | MarkGitignore | MarkIgnore
)

// MarkOf returns the mark of a directory entry name (0 for most names).
// OR the marks of all entries of a directory to get its Marks.
func MarkOf(name string) Marks {
	if len(name) < 3 || name[0] != '.' {
		return 0
	}
	switch name {
	case ".git":
		return MarkGit
	case ".jj":
		return MarkJJ
	case ".gitignore":
		return MarkGitignore
	case ".ignore":
		return MarkIgnore
	}
	return 0
}

// NewRoot builds the state for the scan root root (an absolute, canonical
// directory path): it looks for .git (or .jj) in root and its ancestors,
// loads the .gitignore and .ignore files of root and its ancestors that
// apply, .git/info/exclude of the repository, and the global excludes file
// (core.excludesFile, else $XDG_CONFIG_HOME/git/ignore or
// ~/.config/git/ignore), whose patterns are relative to the process's
// current directory as in ripgrep. Unreadable or missing files are skipped
// silently.
func NewRoot(root string) *Dir {
	sh := &shared{}
	// The physical working directory, like Rust's current_dir (os.Getwd
	// would prefer a symlinked $PWD).
	if wd, err := syscall.Getwd(); err == nil {
		sh.cwd = strings.TrimSuffix(filepath.ToSlash(wd), "/")
		if data, ok := readGlobalExcludes(); ok {
			sh.global = parseRuleFile(sh.cwd, data)
		}
	}
	// The file system's root is "" (Unix) or the volume ("C:", Windows).
	vol := filepath.VolumeName(root)
	d := (&Dir{shared: sh}).load(vol, MarkAll)
	for _, comp := range strings.Split(root[len(vol):], "/") {
		if comp != "" {
			d = d.load(d.path+"/"+comp, MarkAll)
		}
	}
	return d
}

// Path returns the absolute path of the directory.
func (d *Dir) Path() string {
	if d.path == "" {
		return "/"
	}
	return d.path
}

// InRepo reports whether the directory is inside a git (or jj) repository,
// i.e. whether .gitignore rules can apply to its entries.
func (d *Dir) InRepo() bool { return d.anyGit }

// Child returns the state of the subdirectory name of d (absolute path
// d.Path()+"/"+name): it reads that directory's .gitignore (only inside a
// repository) and .ignore, and when the child contains .git (or .jj) it
// starts a new repository there with its info/exclude. A child without
// ignore files shares its parent's compiled rules.
func (d *Dir) Child(name string) *Dir {
	return d.load(d.path+"/"+name, MarkAll)
}

// ChildMarked is Child for a walker that has already listed the child
// directory: marks is the OR of MarkOf over the child's entries, and only
// the files it names are probed, which saves the failed lookups Child makes
// in directories without ignore files.
func (d *Dir) ChildMarked(name string, marks Marks) *Dir {
	return d.load(d.path+"/"+name, marks)
}

func (d *Dir) load(path string, marks Marks) *Dir {
	gitIsFile, hasGit := false, false
	if marks&MarkGit != 0 {
		gitIsFile, hasGit = statRegular(path + "/.git")
	}
	if !hasGit && marks&MarkJJ != 0 {
		_, hasGit = statRegular(path + "/.jj")
	}
	var ign, gi, ex *ruleFile
	if marks&MarkIgnore != 0 {
		ign = readRuleFile(path, path+"/.ignore")
	}
	anyGit := d.anyGit || hasGit
	if anyGit && marks&MarkGitignore != 0 {
		gi = readRuleFile(path, path+"/.gitignore")
	}
	if hasGit {
		ex = readExclude(path, gitIsFile)
	}
	c := &Dir{
		path:    path,
		shared:  d.shared,
		ign:     d.ign,
		git:     d.git,
		exclude: d.exclude,
		anyGit:  anyGit,
	}
	if ign != nil {
		c.ign = prepend(ign, d.ign)
	}
	if hasGit && d.shared.loose {
		// Loose (NewRootLoose): a nested repository brings its own
		// info/exclude but keeps the .gitignore files above it.
		c.exclude = ex
		if gi != nil {
			c.git = prepend(gi, d.git)
		}
	} else if hasGit {
		// ripgrep stops consulting .gitignore and info/exclude files at the
		// nearest directory that has a .git.
		c.git, c.exclude = nil, ex
		if gi != nil {
			c.git = []*ruleFile{gi}
		}
	} else if gi != nil {
		c.git = prepend(gi, d.git)
	}
	return c
}

func prepend(f *ruleFile, fs []*ruleFile) []*ruleFile {
	out := make([]*ruleFile, 0, len(fs)+1)
	return append(append(out, f), fs...)
}

// readRuleFile reads and compiles an ignore file whose patterns are
// relative to dir; nil when missing, unreadable or without rules. Like
// ripgrep it checks for the file first: a failed stat is cheaper than a
// failed open, and most directories have no ignore file.
func readRuleFile(dir, file string) *ruleFile {
	if _, ok := statRegular(file); !ok {
		return nil
	}
	data, err := os.ReadFile(file)
	if err != nil || len(data) == 0 {
		return nil
	}
	return parseRuleFile(dir, data)
}

// readExclude loads info/exclude of the repository whose working directory
// is dir. A .git file (worktree) is followed through its "gitdir: " line to
// the common directory named by that git dir's commondir file, as ripgrep
// does; without a commondir file (submodules) there is no exclude file.
func readExclude(dir string, gitIsFile bool) *ruleFile {
	gitDir := dir + "/.git"
	if gitIsFile {
		line, ok := firstLine(gitDir)
		if !ok || !strings.HasPrefix(line, "gitdir: ") {
			return nil
		}
		real := line[len("gitdir: "):]
		common, ok := firstLine(joinPath(real, "commondir"))
		if !ok {
			return nil
		}
		if strings.HasPrefix(common, ".") {
			gitDir = joinPath(real, common)
		} else {
			gitDir = common
		}
	}
	return readRuleFile(dir, joinPath(gitDir, "info/exclude"))
}

// joinPath joins like Rust's Path::join: an absolute elem replaces base.
func joinPath(base, elem string) string {
	switch {
	case strings.HasPrefix(elem, "/"):
		return elem
	case base == "":
		return elem
	case strings.HasSuffix(base, "/"):
		return base + elem
	}
	return base + "/" + elem
}

// firstLine returns the first line of a file without its line ending; ok is
// false when the file cannot be read, is empty or the line is not UTF-8.
func firstLine(file string) (string, bool) {
	f, err := os.Open(file)
	if err != nil {
		return "", false
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && line == "" {
		return "", false
	}
	if strings.HasSuffix(line, "\n") {
		line = strings.TrimSuffix(line[:len(line)-1], "\r")
	}
	if !utf8.ValidString(line) {
		return "", false
	}
	return line, true
}

// excludesFileRE is ripgrep's lazy reading of core.excludesFile from a git
// config file: the first "excludesfile = value" line in any section,
// case-insensitive, the value optionally quoted.
// It is compiled at its first use, not at the library's load.
var excludesFileRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?im)^[\t\n\v\f\r ]*excludesfile[\t\n\v\f\r ]*=[\t\n\v\f\r ]*"?[\t\n\v\f\r ]*([^\t\n\v\f\r ]+?)[\t\n\v\f\r ]*"?[\t\n\v\f\r ]*$`)
})

func parseExcludesFile(data []byte, home string) (string, bool) {
	m := excludesFileRE().FindSubmatch(data)
	if m == nil || !utf8.ValidString(string(m[1])) {
		return "", false
	}
	p := string(m[1])
	if home != "" {
		p = strings.ReplaceAll(p, "~", home)
	}
	return p, true
}

func homeDir() string {
	if h := os.Getenv("HOME"); h != "" {
		return h
	}
	if u, err := user.Current(); err == nil {
		return u.HomeDir
	}
	return ""
}

// globalExcludesPath mirrors gitconfig_excludes_path of ignore 0.4.25: the
// core.excludesFile of ~/.gitconfig or $XDG_CONFIG_HOME/git/config (default
// ~/.config/git/config), in that order, else $XDG_CONFIG_HOME/git/ignore
// (default ~/.config/git/ignore). $GIT_CONFIG_GLOBAL is not consulted (the
// reference ignores it; later ignore versions read it).
func globalExcludesPath() string {
	home := homeDir()
	try := func(file string) (string, bool) {
		if file == "" {
			return "", false
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return "", false
		}
		return parseExcludesFile(data, home)
	}
	if home != "" {
		if p, ok := try(home + "/.gitconfig"); ok {
			return p
		}
	}
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = home + "/.config"
	}
	if xdg == "" {
		return ""
	}
	if p, ok := try(xdg + "/git/config"); ok {
		return p
	}
	return xdg + "/git/ignore"
}

func readGlobalExcludes() ([]byte, bool) {
	p := globalExcludesPath()
	if p == "" {
		return nil, false
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	return data, true
}

// Match tells whether the entry name directly inside d (isDir: whether it
// is a directory) is ignored or whitelisted. Precedence as in ripgrep:
// .ignore files, then .gitignore files, then info/exclude, then the global
// excludes file; within a kind the deepest file with a matching rule
// decides, within a file the last matching rule. Match does not allocate
// (except for patterns compiling to more than 512 NFA states).
func (d *Dir) Match(name string, isDir bool) Match {
	for _, f := range d.ign {
		if m := f.match(d.relTo(f.dir), d.path != f.dir, name, isDir); m != None {
			return m
		}
	}
	if !d.anyGit {
		return None
	}
	for _, f := range d.git {
		if m := f.match(d.relTo(f.dir), d.path != f.dir, name, isDir); m != None {
			return m
		}
	}
	if f := d.exclude; f != nil {
		if m := f.match(d.relTo(f.dir), d.path != f.dir, name, isDir); m != None {
			return m
		}
	}
	if f := d.shared.global; f != nil {
		rel, slash := d.relToCwd()
		return f.match(rel, slash, name, isDir)
	}
	return None
}

// relTo returns d's path relative to its ancestor (or itself) dir.
func (d *Dir) relTo(dir string) string {
	if len(d.path) == len(dir) {
		return ""
	}
	return d.path[len(dir)+1:]
}

// relToCwd returns the candidate prefix of d's entries for the global
// excludes file: the path relative to the current directory, or the
// absolute path when d is not below it (ripgrep then matches the absolute
// path, leading slash included).
func (d *Dir) relToCwd() (string, bool) {
	cwd := d.shared.cwd
	switch {
	case d.path == cwd:
		return "", false
	case cwd == "":
		return d.path[1:], true
	case strings.HasPrefix(d.path, cwd) && d.path[len(cwd)] == '/':
		return d.path[len(cwd)+1:], true
	}
	return d.path, true
}
