package core_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fscache/fscache/core"
)

// tree makes a small project in a temporary directory and returns its path.
func tree() string {
	dir, err := os.MkdirTemp("", "fscache-example")
	if err != nil {
		panic(err)
	}
	files := map[string]string{
		".git/HEAD":           "ref: refs/heads/main\n",
		".gitignore":          "dist/\n",
		"README.md":           "# demo\n",
		"AGENTS.md":           "Be brief.\n",
		"src/main.go":         "package main\n\nfunc main() {\n\t// TODO: greet\n}\n",
		"src/util/strings.go": "package util\n\n// TODO: trim\nfunc Trim() {}\n",
		"src/util/AGENTS.md":  "Keep util small.\n",
		"dist/main.js":        "// TODO: built, ignored\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			panic(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			panic(err)
		}
	}
	return dir
}

func ExampleGlob() {
	dir := tree()
	defer os.RemoveAll(dir)

	res, err := core.Glob(context.Background(), core.GlobOptions{Pattern: "*.go", Path: dir})
	if err != nil {
		panic(err)
	}
	for _, m := range res.Matches {
		fmt.Println(m.Path, m.FileType == core.File)
	}
	// Output:
	// src/main.go true
	// src/util/strings.go true
}

func ExampleFuzzyFind() {
	dir := tree()
	defer os.RemoveAll(dir)

	res, err := core.FuzzyFind(context.Background(), core.FuzzyFindOptions{
		Query: "strgo", Path: dir, Cache: true, MaxResults: core.Int(3),
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Matches[0].Path)
	// Output:
	// src/util/strings.go
}

func ExampleGrep() {
	dir := tree()
	defer os.RemoveAll(dir)

	res, err := core.Grep(context.Background(), core.GrepOptions{
		Pattern: `TODO: \w+`, Path: dir, Context: core.Int(1),
	})
	if err != nil {
		panic(err)
	}
	for _, m := range res.Matches {
		fmt.Printf("%s:%d: %s (after: %q)\n", m.Path, m.LineNumber, m.Line, m.ContextAfter[0].Line)
	}
	fmt.Println("files searched:", res.FilesSearched)
	// Output:
	// src/main.go:4: 	// TODO: greet (after: "}")
	// src/util/strings.go:3: // TODO: trim (after: "func Trim() {}")
	// files searched: 6
}

func ExampleGrep_count() {
	dir := tree()
	defer os.RemoveAll(dir)

	res, err := core.Grep(context.Background(), core.GrepOptions{
		Pattern: "todo", IgnoreCase: true, Path: dir, Mode: core.ModeCount, Type: "go",
	})
	if err != nil {
		panic(err)
	}
	for _, m := range res.Matches {
		fmt.Println(m.Path, *m.MatchCount)
	}
	// Output:
	// src/main.go 1
	// src/util/strings.go 1
}

func ExampleListWorkspace() {
	dir := tree()
	defer os.RemoveAll(dir)

	res, err := core.ListWorkspace(context.Background(), core.ListWorkspaceOptions{
		Path: dir, MaxDepth: 1, CollectAgentsMd: true,
	})
	if err != nil {
		panic(err)
	}
	for _, e := range res.Entries {
		fmt.Println(e.Path, e.Type == core.Dir)
	}
	fmt.Println(res.AgentsMdFiles)
	// Output:
	// AGENTS.md false
	// README.md false
	// src true
	// [src/util/AGENTS.md]
}

func ExampleInvalidate() {
	dir := tree()
	defer os.RemoveAll(dir)
	ctx := context.Background()
	opts := core.GlobOptions{Pattern: "*.md", Path: dir, Cache: true}

	before, _ := core.Glob(ctx, opts)
	name := filepath.Join(dir, "NOTES.md")
	if err := os.WriteFile(name, []byte("new\n"), 0o644); err != nil {
		panic(err)
	}
	core.Invalidate(name) // needed only where the root is not watched
	after, _ := core.Glob(ctx, opts)
	fmt.Println(before.TotalMatches, "->", after.TotalMatches)
	// Output:
	// 3 -> 4
}

func ExampleCacheStats() {
	dir := tree()
	defer os.RemoveAll(dir)
	ctx := context.Background()

	for i := 0; i < 2; i++ {
		if _, err := core.Glob(ctx, core.GlobOptions{Pattern: "*.go", Path: dir, Cache: true}); err != nil {
			panic(err)
		}
	}
	st := core.CacheStats()
	fmt.Println(st.Entries > 0, st.Hits > 0)
	// Output:
	// true true
}

func ExampleError() {
	_, err := core.Grep(context.Background(), core.GrepOptions{Pattern: "[a-", Path: "."})
	var fe *core.Error
	if errors.As(err, &fe) {
		fmt.Println(fe.Code)
	}
	// Output:
	// invalid_regex
}

// A read tool backed by the read cache: the first read of a file is pi's
// own output; a later read of the same, unchanged file, with the hash the
// first one served as its base, is one marker line. After an edit it is a
// unified diff when that is much smaller than the file; this small file is
// sent again whole (full_fallback, the diff was not useful).
func ExampleReadCache() {
	dir := tree()
	defer os.RemoveAll(dir)
	ctx := context.Background()
	o := core.ReadCacheOptions{Path: "src/main.go", Cwd: dir}

	first, err := core.ReadCache(ctx, o)
	if err != nil {
		panic(err)
	}
	fmt.Println(first.Mode, first.Meta.TotalLines, "lines")

	// What the session trusts: the file's key and the hash of each scope read.
	o.PathKey, o.Bases = first.PathKey, map[string]string{first.Meta.ScopeKey: first.Meta.ServedHash}
	again, _ := core.ReadCache(ctx, o)
	fmt.Println(again.Mode, again.Text)

	if err := os.WriteFile(filepath.Join(dir, "src/main.go"), []byte("package main\n\nfunc main() {\n\t// TODO: greet twice\n}\n"), 0o644); err != nil {
		panic(err)
	}
	changed, _ := core.ReadCache(ctx, o)
	fmt.Println(changed.Mode, changed.Reason)
	// Output:
	// full 6 lines
	// unchanged [readcache: unchanged, 6 lines]
	// full_fallback diff_not_useful
}
