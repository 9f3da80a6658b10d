package ignore

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// scenario is a fixture tree scanned from root; want is what the reference
// (@oh-my-pi/pi-natives@14.9.9 glob "**/*", or fuzzyFind with follow)
// listed for it, in the probe format of testWalk.
type scenario struct {
	name     string
	tree     []string
	root     string // scanned subdirectory of the fixture ("" = fixture)
	noHidden bool   // hidden:false (default hidden:true)
	follow   bool   // fuzzyFind: symlinks followed
	xdg      string // fixture subdirectory used as XDG_CONFIG_HOME
	cwd      string // fixture subdirectory made the current directory
	env      map[string]string
	want     string
}

// nestedRepoTree is a repository below the directory whose ignore files
// it must not consult, searched from several roots.
var nestedRepoTree = []string{
	".gitignore=*.a\n", ".ignore=*.i\n", "repo/.git/", "repo/.gitignore=*.r\n",
	"repo/x.a", "repo/x.i", "repo/x.r", "repo/src/y.a", "repo/src/y.i", "repo/src/y.r",
}

var scenarios = []scenario{
	{
		name: "gitignore in repo",
		tree: []string{".git/", ".gitignore=*.log\n", "a.log", "b.txt", "sub/c.log"},
		want: ".gitignore | b.txt | sub/",
	},
	{
		name: "gitignore without repo is not read",
		tree: []string{".gitignore=*.log\n", "a.log", "sub/c.log"},
		want: ".gitignore | a.log | sub/ | sub/c.log",
	},
	{
		name: ".git file (worktree) makes a repo",
		tree: []string{".git=gitdir: /nonexistent\n", ".gitignore=*.log\n", "a.log", "b"},
		want: ".gitignore | b",
	},
	{
		name: ".git file with garbage still makes a repo",
		tree: []string{"w/.git=garbage\n", "w/.gitignore=*.log\n", "w/.git_info/", "w/a.log"},
		root: "w",
		want: ".git_info/ | .gitignore",
	},
	{
		name: ".git symlink to a directory makes a repo",
		tree: []string{"real/.git/", "w/.git->../real/.git", "w/.gitignore=*.log\n", "w/a.log"},
		root: "w",
		want: ".gitignore",
	},
	{
		name: "broken .git symlink is no repo",
		tree: []string{"w/.git->/nonexistent", "w/.gitignore=*.log\n", "w/a.log"},
		root: "w",
		want: ".gitignore | a.log",
	},
	{
		name: ".jj makes a repo",
		tree: []string{".jj/", ".gitignore=*.log\n", "a.log", "b.txt"},
		want: ".gitignore | .jj/ | b.txt",
	},
	{
		name: ".ignore outside a repo, ancestors included",
		tree: []string{".gitignore=*.a\n", ".ignore=*.i\n", "d/x.a", "d/x.i", "d/e/y.i"},
		want: ".gitignore | .ignore | d/ | d/e/ | d/x.a",
	},
	{
		name: "ancestor .ignore applies below the root",
		tree: []string{".gitignore=*.a\n", ".ignore=*.i\n", "d/x.a", "d/x.i", "d/e/y.i"},
		root: "d",
		want: "e/ | x.a",
	},
	{
		name: "gitignore above the repository is not consulted",
		tree: nestedRepoTree,
		want: ".gitignore | .ignore | repo/ | repo/.gitignore | repo/src/ | repo/src/y.a | repo/x.a",
	},
	{
		name: "root is the repository",
		tree: nestedRepoTree,
		root: "repo",
		want: ".gitignore | src/ | src/y.a | x.a",
	},
	{
		name: "root below the repository root",
		tree: nestedRepoTree,
		root: "repo/src",
		want: "y.a",
	},
	{
		name: "anchored ancestor rule relative to its own directory",
		tree: []string{
			".git/", ".gitignore=/src/gen/\n/top.txt\nsrc/*.tmp\n",
			"src/gen/x", "src/a.tmp", "src/b.txt", "src/sub/c.tmp", "top.txt", "src/top.txt",
		},
		root: "src",
		want: "b.txt | sub/ | sub/c.tmp | top.txt",
	},
	{
		name: "nested repository stops outer gitignore and exclude",
		tree: []string{
			".git/info/exclude=*.ex\n", ".gitignore=*.log\n", "a.log", "a.ex",
			"inner/.git/", "inner/b.log", "inner/b.ex", "inner/d/c.log",
		},
		want: ".gitignore | inner/ | inner/b.ex | inner/b.log | inner/d/ | inner/d/c.log",
	},
	{
		name: "info/exclude",
		tree: []string{".git/info/exclude=*.ex\n!keep.ex\n", "a.ex", "keep.ex", "sub/b.ex"},
		want: "keep.ex | sub/",
	},
	{
		name: "info/exclude of a worktree comes from the common dir",
		tree: []string{
			"main/.git/info/exclude=*.ex\n", "main/.git/worktrees/w1/commondir=../..\n",
			"w1/.git=gitdir: @/main/.git/worktrees/w1\n",
			"w1/.gitignore=*.log\n", "w1/a.log", "w1/a.ex", "w1/a.txt",
		},
		root: "w1",
		want: ".gitignore | a.txt",
	},
	{
		name: "precedence: .ignore > .gitignore > exclude, deeper > shallower",
		tree: []string{
			".git/info/exclude=*.ex\n!keep.ex2\n*.log\n",
			".gitignore=*.txt\n!keep.i\n*.ex2\n", ".ignore=!keep.txt\n*.i\n",
			"sub/.gitignore=!keep.log\n!*.txt\n",
			"a.txt", "keep.txt", "a.i", "keep.i", "a.ex", "keep.ex2", "a.ex2", "a.log",
			"sub/a.log", "sub/keep.log", "sub/x.txt",
		},
		want: ".gitignore | .ignore | keep.txt | sub/ | sub/.gitignore | sub/keep.log | sub/x.txt",
	},
	{
		name:     "whitelist shows a hidden file",
		tree:     []string{".git/", ".gitignore=.*\n!.env\n", ".env", ".other", "x"},
		noHidden: true,
		want:     ".env | x",
	},
	{
		name: "directory-only, anchored and inner-slash rules",
		tree: []string{
			".git/", ".gitignore=build/\n/top\nd/e\n", "file", "build2", "build/x/",
			"a/build/y", "sub/build", "sub/top/z", "top/x/", "top2", "d/e/f/", "d/e2", "sub/d/e/",
		},
		want: ".gitignore | a/ | build2 | d/ | d/e2 | file | sub/ | sub/build | sub/d/ | sub/d/e/ | sub/top/ | sub/top/z | top2",
	},
	{
		name: "double-star forms",
		tree: []string{
			".git/", ".gitignore=foo/**\n**/q\na/**/b\n", "foo/bar/baz/", "foo/f", "x/foo/q/z",
			"a/b/", "a/x/y/b/", "top.q", "m/n/q",
		},
		want: ".gitignore | a/ | a/x/ | a/x/y/ | foo/ | m/ | m/n/ | top.q | x/ | x/foo/",
	},
	{
		name: "**/ ignores every directory",
		tree: []string{".git/", ".gitignore=**/\n", "d1/d2/", "e/", "f", "d1/g"},
		want: ".gitignore | f",
	},
	{
		name: "ignore everything but directories and go files",
		tree: []string{".git/", ".gitignore=*\n!*/\n!*.go\n", "f.txt", "d1/g.go", "d1/d2/h.txt", "e/x.go"},
		want: "d1/ | d1/d2/ | d1/g.go | e/ | e/x.go",
	},
	{
		name: "double star not next to a slash is a star",
		tree: []string{".git/", ".gitignore=x**b\nab**\n**c\n", "xb", "xab", "xa/b/", "abc", "abz", "zc"},
		want: ".gitignore | xa/ | xa/b/",
	},
	{
		name: "braces are alternation",
		tree: []string{".git/", ".gitignore=*.{a,b}\n", "x.a", "x.b", "x.c", "x.{a,b}"},
		want: ".gitignore | x.c | x.{a,b}",
	},
	{
		name: "nested braces, unopened brace is an error",
		tree: []string{".git/", ".gitignore=a}b\nc{d,{e,f}}\n", "a}b", "cd", "ce", "cf", "c{d,{e,f}}"},
		want: ".gitignore | a}b | c{d,{e,f}}",
	},
	{
		name: "empty alternatives are dropped",
		tree: []string{".git/", ".gitignore=p{,a}\nq{}\nr{a,}z\n", "p", "pa", "q", "q{}", "rz", "raz"},
		want: ".gitignore | p | q{} | rz",
	},
	{
		name: "negated class matches a slash",
		tree: []string{".git/", ".gitignore=a[!b]c\n", "a/c", "axc", "abc"},
		want: ".gitignore | a/ | abc",
	},
	{
		name: "unclosed class is literal",
		tree: []string{".git/", ".gitignore=[abc\nfoo[\n", "[abc", "a", "foo[", "foo"},
		want: ".gitignore | a | foo",
	},
	{
		name: "backslash is literal inside a class",
		tree: []string{".git/", ".gitignore=[\\]]x\n", "\\]x", "]x", "\\x"},
		want: ".gitignore | \\x | ]x",
	},
	{
		name: "? and classes match single bytes",
		tree: []string{".git/", ".gitignore=?.txt\n[é]1\n[é][é]2\n", "é.txt", "e.txt", "é1", "é2"},
		want: ".gitignore | é.txt | é1",
	},
	{
		name: "trailing spaces",
		tree: []string{
			".git/", ".gitignore=a \nb\\ \nc\\  \nd\t\ne\\\\ \n",
			"a", "a ", "b", "b ", "c", "c ", "c  ", "d", "d\t", "e\\", "e\\ ", "e ",
		},
		want: ".gitignore | a  | b | c | c  | c   | d\t | e  | e\\",
	},
	{
		name: "escapes, comments, bad lines",
		tree: []string{
			".git/", ".gitignore=\\#a\n#b\n\\!c\n!d\n\\\\e\n\\f\nfoo\\\nbar[z-a]\n\uFEFFbom\nx\r\n",
			"#a", "#b", "!c", "c", "!d", "d", "\\e", "e", "f", "foo\\", "foo", "bar", "barz", "bom", "x",
		},
		want: "!d | #b | .gitignore | bar | barz | bom | c | d | e | foo | foo\\",
	},
	{
		name: "byte order mark and CRLF",
		tree: []string{".git/", ".gitignore=\uFEFFbom\r\nx \r\n*.z\r\n", "bom", "x", "x ", "a.z"},
		want: ".gitignore | x ",
	},
	{
		name: "reading stops at a line that is not UTF-8",
		tree: []string{".git/", ".gitignore=a\nb\xff\nc\n", "a", "c"},
		want: ".gitignore | c",
	},
	{
		name: "a lone ! whitelists everything",
		tree: []string{".git/", ".gitignore=*\n!\n", "a", "b"},
		want: ".gitignore | a | b",
	},
	{
		name: "directory rule does not match a symlink when links are not followed",
		tree: []string{".git/", ".gitignore=build/\nlnk\n", "realdir/f", "build->realdir", "lnk2->realdir"},
		want: ".gitignore | build | lnk2 | realdir/ | realdir/f",
	},
	{
		name:   "directory rule matches a followed symlink",
		tree:   []string{".git/", ".gitignore=build/\nlnk\n", "realdir/f", "build->realdir", "lnk2->realdir"},
		follow: true,
		want:   "lnk2/ | realdir/ | .gitignore | lnk2/f | realdir/f",
	},
	{
		name: "global excludes, cwd at the repository",
		tree: []string{".git/", "xdg/git/ignore=/foo\n*.g\nsub/bar\n", "foo", "sub/foo", "x.g", "sub/bar"},
		xdg:  "xdg", cwd: ".",
		want: "sub/ | sub/foo | xdg/ | xdg/git/ | xdg/git/ignore",
	},
	{
		name: "global excludes are relative to the cwd",
		tree: []string{".git/", "xdg/git/ignore=/foo\n*.g\nsub/bar\n", "foo", "sub/foo", "x.g", "sub/bar"},
		xdg:  "xdg", cwd: "sub",
		want: "foo | sub/ | sub/bar | xdg/ | xdg/git/ | xdg/git/ignore",
	},
	{
		name: "global excludes with the cwd outside the tree",
		tree: []string{".git/", "xdg/git/ignore=/foo\n*.g\nsub/bar\n", "foo", "sub/foo", "x.g", "sub/bar", "elsewhere/"},
		xdg:  "xdg", cwd: "elsewhere",
		want: "elsewhere/ | foo | sub/ | sub/bar | sub/foo | xdg/ | xdg/git/ | xdg/git/ignore",
	},
	{
		name: "global excludes need a repository",
		tree: []string{"xdg/git/ignore=*.g\n", "x.g"},
		xdg:  "xdg",
		want: "x.g | xdg/ | xdg/git/ | xdg/git/ignore",
	},
	{
		name: "core.excludesFile of the XDG git config",
		tree: []string{".git/", "xdg/git/config=[core]\n\texcludesFile = \"" + "@/my-excludes\"\n", "my-excludes=*.m\n", "a.m", "b"},
		xdg:  "xdg",
		want: "b | my-excludes | xdg/ | xdg/git/ | xdg/git/config",
	},
	{
		name: "core.excludesFile of ~/.gitconfig, tilde expanded",
		tree: []string{".git/", "home/.gitconfig=[core]\n ExcludesFile = ~/ex2\n", "home/ex2=*.q\n", "a.q", "b"},
		env:  map[string]string{"HOME": "@/home"},
		want: "b | home/ | home/.gitconfig | home/ex2",
	},
	{
		name: "~/.gitconfig beats the XDG default",
		tree: []string{".git/", "home/.gitconfig=[core]\n excludesFile = ~/ex2\n", "home/ex2=*.q\n", "xdg/git/ignore=*.b\n", "a.q", "a.b"},
		env:  map[string]string{"HOME": "@/home"},
		xdg:  "xdg",
		want: "a.b | home/ | home/.gitconfig | home/ex2 | xdg/ | xdg/git/ | xdg/git/ignore",
	},
	{
		name: "GIT_CONFIG_GLOBAL is not consulted",
		tree: []string{".git/", "gc=[core]\n excludesfile = @/ex\n", "ex=*.q\n", "a.q", "b"},
		env:  map[string]string{"GIT_CONFIG_GLOBAL": "@/gc"},
		want: "a.q | b | ex | gc",
	},
	{
		name: "submodule .git file without commondir has no exclude",
		tree: []string{".git/modules/m/info/exclude=*.ex\n", "m/.git=gitdir: @/.git/modules/m\n", "m/a.ex", "m/b"},
		want: "m/ | m/a.ex | m/b",
	},
	{
		name: "worktree with an absolute commondir",
		tree: []string{
			"main/.git/info/exclude=*.ex\n", "main/.git/worktrees/w1/commondir=@/main/.git\n",
			"w1/.git=gitdir: @/main/.git/worktrees/w1\n", "w1/a.ex", "w1/a.txt",
		},
		root: "w1",
		want: "a.txt",
	},
	{
		name:     "whitelisted hidden directory",
		tree:     []string{".git/", ".gitignore=.*\n!.github/\n", ".github/workflows/ci.yml", ".github/.cache", ".other/x", "y"},
		noHidden: true,
		want:     ".github/ | .github/workflows/ | .github/workflows/ci.yml | y",
	},
	{
		name: "whitelist inside an ignored directory cannot re-include",
		tree: []string{".git/", ".gitignore=build/\n!build/keep\n", "build/keep", "build/drop", "x"},
		want: ".gitignore | x",
	},
	{
		name: "deeper .ignore whitelist beats shallower .gitignore but not a deeper .ignore ignore",
		tree: []string{".git/", ".gitignore=*.gen\n", "a/.ignore=!*.gen\n", "a/b/.ignore=x.gen\n", "a/b/x.gen", "a/b/y.gen", "a/z.gen", "w.gen"},
		want: ".gitignore | a/ | a/.ignore | a/b/ | a/b/.ignore | a/b/y.gen | a/z.gen",
	},
	{
		name: "global rules lose to gitignore and exclude",
		tree: []string{
			".git/info/exclude=!b.g\n", ".gitignore=!a.g\n", "xdg/git/ignore=*.g\n",
			"a.g", "b.g", "c.g",
		},
		xdg:  "xdg",
		want: ".gitignore | a.g | b.g | xdg/ | xdg/git/ | xdg/git/ignore",
	},
}

// runScenario builds the fixture of sc in a fresh directory and returns its
// base and the scanned root.
func runScenario(t *testing.T, sc scenario) (base, root string) {
	base = tempRoot(t)
	home := isolateEnv(t)
	tree := make([]string, len(sc.tree))
	for i, s := range sc.tree {
		tree[i] = strings.ReplaceAll(s, "@", base)
	}
	makeTree(t, base, tree...)
	if sc.xdg != "" {
		t.Setenv("XDG_CONFIG_HOME", filepath.Join(base, sc.xdg))
	} else {
		t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "none"))
	}
	if sc.cwd != "" {
		t.Chdir(filepath.Join(base, sc.cwd))
	}
	for k, v := range sc.env {
		t.Setenv(k, strings.ReplaceAll(v, "@", base))
	}
	return base, filepath.ToSlash(filepath.Join(base, sc.root))
}

func TestScenarios(t *testing.T) {
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			_, root := runScenario(t, sc)
			want := splitProbe(sc.want)
			for _, marked := range []bool{false, true} {
				got := testWalk(t, root, walkOpts{hidden: !sc.noHidden, follow: sc.follow, marked: marked})
				if !reflect.DeepEqual(got, want) {
					t.Errorf("marked=%v\n got: %s\nwant: %s", marked, strings.Join(got, " | "), strings.Join(want, " | "))
				}
			}
		})
	}
}

// refScript runs the reference addon's glob (or fuzzyFind) and prints the
// result in the probe format.
const refScript = `
const m = require(process.env.IGNORE_REFERENCE);
const o = JSON.parse(process.argv[1]);
const done = r => console.log(r.matches.map(x => o.follow ? x.path : x.path + (x.fileType === 2 ? '/' : '')).join(' | '));
const fail = e => console.log('ERR ' + e.message);
if (o.follow) m.fuzzyFind({query: '', path: o.root, hidden: o.hidden, maxResults: 1000000}).then(done, fail);
else m.glob({pattern: '**/*', path: o.root, hidden: o.hidden}).then(done, fail);
`

// runReference lists root with the reference addon named by
// $IGNORE_REFERENCE (the pi_natives .node file), in the current
// environment and directory.
func runReference(t testing.TB, root string, hidden, follow bool) []string {
	t.Helper()
	arg, _ := json.Marshal(map[string]any{"root": root, "hidden": hidden, "follow": follow})
	out, err := exec.Command("node", "-e", refScript, string(arg)).CombinedOutput()
	if err != nil || strings.HasPrefix(string(out), "ERR") {
		t.Fatalf("reference: %v: %s", err, out)
	}
	return splitProbe(strings.TrimSuffix(string(out), "\n"))
}

func needReference(t testing.TB) {
	t.Helper()
	if os.Getenv("IGNORE_REFERENCE") == "" {
		t.Skip("set IGNORE_REFERENCE to the pi_natives .node file to compare with the reference")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not found")
	}
}

// TestScenariosAgainstReference checks the recorded answers against the
// live reference.
func TestScenariosAgainstReference(t *testing.T) {
	needReference(t)
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			_, root := runScenario(t, sc)
			got := runReference(t, root, !sc.noHidden, sc.follow)
			if want := splitProbe(sc.want); !reflect.DeepEqual(got, want) {
				t.Errorf("reference: %s\nrecorded:  %s", strings.Join(got, " | "), strings.Join(want, " | "))
			}
		})
	}
}

// refBatchScript lists many roots in one node process (loading the addon is
// slow): argv[1] is a JSON array of {root, hidden}; it prints a JSON array
// of probe strings.
const refBatchScript = `
const m = require(process.env.IGNORE_REFERENCE);
const jobs = JSON.parse(process.argv[1]);
(async () => {
  const out = [];
  for (const o of jobs) {
    try {
      const r = await m.glob({pattern: '**/*', path: o.root, hidden: o.hidden});
      out.push(r.matches.map(x => x.path + (x.fileType === 2 ? '/' : '')).join(' | '));
    } catch (e) { out.push('ERR ' + e.message); }
  }
  console.log(JSON.stringify(out));
})();
`

type refJob struct {
	Root   string `json:"root"`
	Hidden bool   `json:"hidden"`
}

func runReferenceBatch(t testing.TB, jobs []refJob) [][]string {
	t.Helper()
	arg, _ := json.Marshal(jobs)
	out, err := exec.Command("node", "-e", refBatchScript, string(arg)).Output()
	if err != nil {
		t.Fatalf("reference: %v", err)
	}
	var res []string
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("reference output: %v: %s", err, out)
	}
	lists := make([][]string, len(res))
	for i, r := range res {
		if strings.HasPrefix(r, "ERR") {
			t.Fatalf("reference: %s", r)
		}
		lists[i] = splitProbe(r)
	}
	return lists
}
