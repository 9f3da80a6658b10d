package ignore

import (
	"fmt"
	"sync"
	"testing"
)

func TestParseExcludesFile(t *testing.T) {
	tests := []struct {
		data string
		want string
		ok   bool
	}{
		{"[core]\nexcludesFile = /foo/bar", "/foo/bar", true},
		{"[core]\nexcludesFile = ~/foo/bar", "/home/u/foo/bar", true},
		{"[core]\nexcludeFile = /foo/bar", "", false},
		{"[core]\nexcludesFile = \"~/foo/bar\"", "/home/u/foo/bar", true},
		{"[core]\nexcludesFile = \" \"~/foo/bar \" \"", "", false},
		{"[core]\n\tEXCLUDESFILE=/x \r\n", "/x", true},
		{"[user]\nname = a\n[core]\n  excludesfile = /a/b\n  excludesfile = /c\n", "/a/b", true},
		{"[core]\nexcludesfile = /a b\n", "", false},
		{"[core]\nexcludesfile =\n  /next/line\n", "/next/line", true},
	}
	for _, tc := range tests {
		got, ok := parseExcludesFile([]byte(tc.data), "/home/u")
		if got != tc.want || ok != tc.ok {
			t.Errorf("%q: got %q %v, want %q %v", tc.data, got, ok, tc.want, tc.ok)
		}
	}
}

func TestDirState(t *testing.T) {
	isolateEnv(t)
	base := tempRoot(t)
	makeTree(t, base,
		"repo/.git/", "repo/.gitignore=*.log\n", "repo/.ignore=*.i\n",
		"repo/plain/deeper/", "repo/withfile/.gitignore=*.tmp\n",
		"outside/.gitignore=*.log\n", "outside/sub/",
	)
	root := NewRoot(base + "/repo/")
	if root.Path() != base+"/repo" {
		t.Fatalf("Path: %q", root.Path())
	}
	if !root.InRepo() {
		t.Fatal("repo not detected")
	}
	plain := root.Child("plain")
	if plain.Path() != base+"/repo/plain" {
		t.Fatalf("child Path: %q", plain.Path())
	}
	// A child without ignore files shares the compiled rules.
	if len(plain.git) != 1 || plain.git[0] != root.git[0] || &plain.ign[0] != &root.ign[0] {
		t.Fatal("light child does not share the parent's rules")
	}
	deeper := plain.Child("deeper")
	if got := deeper.Match("x.log", false); got != Ignore {
		t.Fatalf("deeper x.log: %v", got)
	}
	if got := deeper.Match("x.i", true); got != Ignore {
		t.Fatalf("deeper x.i: %v", got)
	}
	with := root.Child("withfile")
	if len(with.git) != 2 || with.git[1] != root.git[0] {
		t.Fatal("child gitignore not stacked over the parent's")
	}
	if with.Match("a.tmp", false) != Ignore || root.Match("a.tmp", false) != None {
		t.Fatal("child rules leak or are missing")
	}

	out := NewRoot(base + "/outside")
	if out.InRepo() || out.Match("a.log", false) != None || out.Child("sub").Match("a.log", false) != None {
		t.Fatal(".gitignore applied outside a repository")
	}
	if NewRoot("/").Path() != "/" {
		t.Fatal("root Path")
	}
}

// TestConcurrentUse shares one state tree between goroutines (run with
// -race).
func TestConcurrentUse(t *testing.T) {
	isolateEnv(t)
	base := tempRoot(t)
	makeTree(t, base, ".git/", ".gitignore=*.log\n!keep.log\nbuild/\n", "a/.ignore=*.i\n", "a/b/", "c/")
	root := NewRoot(base)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				a := root.Child("a")
				b := a.Child("b")
				if b.Match("x.i", false) != Ignore || b.Match("keep.log", false) != Whitelist ||
					root.Match("build", true) != Ignore || root.Child("c").Match("z", false) != None {
					t.Error("wrong verdict")
					return
				}
			}
		}()
	}
	wg.Wait()
}

// realisticGitignore is a typical JavaScript/Go project .gitignore.
const realisticGitignore = `# dependencies
node_modules/
/.pnp
.pnp.js
bower_components

# testing
/coverage
*.lcov
.nyc_output

# production
/build
/dist/
out/

# misc
.DS_Store
*.pem
Thumbs.db
*.swp
*~
.idea/
.vscode/*
!.vscode/settings.json
!.vscode/extensions.json

# debug
npm-debug.log*
yarn-debug.log*
yarn-error.log*
*.log
logs

# env files
.env
.env*.local
!.env.example

# typescript
*.tsbuildinfo
next-env.d.ts

# go
*.exe
*.exe~
*.dll
*.so
*.dylib
*.test
*.out
vendor/
go.work

# generated
src/**/generated/
**/__pycache__/
*.py[cod]
docs/_build/
/tmp/
coverage.*
*.{orig,rej}
`

// benchNames is a realistic mix of entry names (mostly not ignored).
var benchNames = []struct {
	name string
	dir  bool
}{
	{"index.ts", false}, {"main.go", false}, {"README.md", false}, {"package.json", false},
	{"src", true}, {"components", true}, {"Button.tsx", false}, {"utils.ts", false},
	{"server.log", false}, {"node_modules", true}, {".env", false}, {".env.example", false},
	{"api", true}, {"handler_test.go", false}, {"styles.css", false}, {"logo.svg", false},
	{"generated", true}, {"types.d.ts", false}, {"a.pyc", false}, {"Makefile", false},
	{"patch.orig", false}, {"lib", true}, {"vendor", true}, {"tsconfig.json", false},
}

func benchState(b testing.TB) *Dir {
	base := tempRoot(b)
	makeTree(b, base,
		".git/info/exclude=# git ls-files --others --exclude-from=.git/info/exclude\n*.bak\n",
		".gitignore="+realisticGitignore,
		".ignore=*.min.js\n/fixtures/\n",
		"src/app/components/",
		"src/app/.gitignore=*.snap\n!keep.snap\n",
	)
	return NewRoot(base).Child("src").Child("app").Child("components")
}

func TestMatchDoesNotAllocate(t *testing.T) {
	isolateEnv(t)
	d := benchState(t)
	allocs := testing.AllocsPerRun(100, func() {
		for _, n := range benchNames {
			d.Match(n.name, n.dir)
		}
	})
	if allocs != 0 {
		t.Fatalf("Match allocates: %v per run", allocs)
	}
	for _, c := range []struct {
		name string
		dir  bool
		want Match
	}{
		{"server.log", false, Ignore}, {"node_modules", true, Ignore}, {".env", false, Ignore},
		{".env.example", false, Whitelist}, {"generated", true, Ignore}, {"a.pyc", false, Ignore},
		{"patch.orig", false, Ignore}, {"index.ts", false, None}, {"vendor", true, Ignore},
		{"x.snap", false, Ignore}, {"keep.snap", false, Whitelist}, {"x.bak", false, Ignore},
		{"app.min.js", false, Ignore}, {"build", true, None}, {"logs", false, Ignore},
	} {
		if got := d.Match(c.name, c.dir); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func BenchmarkMatch(b *testing.B) {
	b.Setenv("HOME", b.TempDir())
	b.Setenv("XDG_CONFIG_HOME", "")
	d := benchState(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := benchNames[i%len(benchNames)]
		d.Match(n.name, n.dir)
	}
}

func BenchmarkChild(b *testing.B) {
	b.Setenv("HOME", b.TempDir())
	b.Setenv("XDG_CONFIG_HOME", "")
	base := tempRoot(b)
	makeTree(b, base, ".git/", ".gitignore="+realisticGitignore)
	for i := 0; i < 16; i++ {
		makeTree(b, base, fmt.Sprintf("d%d/", i))
	}
	root := NewRoot(base)
	b.Run("probe", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			root.Child(fmt.Sprintf("d%d", i%16))
		}
	})
	b.Run("marked", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			root.ChildMarked(fmt.Sprintf("d%d", i%16), 0)
		}
	})
}

func BenchmarkParseRealistic(b *testing.B) {
	data := []byte(realisticGitignore)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		parseRuleFile("/x", data)
	}
}
