package core

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// treeEntry describes one fixture entry of testdata/tree.json.
type treeEntry struct {
	Path    string  `json:"path"`
	Content *string `json:"content"`
	Symlink string  `json:"symlink"`
	Mtime   int64   `json:"mtime"`
}

// makeTree builds testdata/tree.json under a new temp dir, exactly as the
// script that recorded the reference's answers did.
func makeTree(t testing.TB) string {
	t.Helper()
	var entries []treeEntry
	b, err := os.ReadFile("testdata/tree.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &entries); err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for _, e := range entries {
		p := filepath.Join(root, e.Path)
		if strings.HasSuffix(e.Path, "/") {
			mustDo(t, os.MkdirAll(p, 0o755))
			continue
		}
		mustDo(t, os.MkdirAll(filepath.Dir(p), 0o755))
		if e.Symlink != "" {
			mustDo(t, os.Symlink(e.Symlink, p))
			continue
		}
		content := e.Path + "\n"
		if e.Content != nil {
			content = *e.Content
		}
		mustDo(t, os.WriteFile(p, []byte(content), 0o644))
	}
	for _, e := range entries {
		if e.Mtime != 0 {
			mt := time.UnixMilli(e.Mtime)
			mustDo(t, os.Chtimes(filepath.Join(root, e.Path), mt, mt))
		}
	}
	return root
}

func mustDo(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// isolateGit keeps the machine's global git excludes out of the tests.
func isolateGit(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
}

// refCase is one call recorded from @oh-my-pi/pi-natives 14.9.9.
type refCase struct {
	Fn      string          `json:"fn"`
	Options json.RawMessage `json:"options"`
	Want    json.RawMessage `json:"want"`
	Error   string          `json:"error"`
}

// jsonOf renders results the way the JS binding shows them.
func jsonOf(v any) any {
	var out []map[string]any
	switch r := v.(type) {
	case GlobResult:
		for _, m := range r.Matches {
			o := map[string]any{"path": m.Path, "fileType": float64(m.Type)}
			if m.Mtime >= 0 {
				o["mtime"] = float64(m.Mtime)
			}
			if m.Size >= 0 {
				o["size"] = float64(m.Size)
			}
			out = append(out, o)
		}
		return map[string]any{"matches": orEmpty(out), "totalMatches": float64(r.TotalMatches)}
	case FuzzyFindResult:
		for _, m := range r.Matches {
			out = append(out, map[string]any{"path": m.Path, "isDirectory": m.IsDirectory, "score": float64(m.Score)})
		}
		return map[string]any{"matches": orEmpty(out), "totalMatches": float64(r.TotalMatches)}
	}
	panic("unknown result")
}

func orEmpty(s []map[string]any) []any {
	out := []any{}
	for _, m := range s {
		out = append(out, m)
	}
	return out
}

func TestGlobAndFuzzyMatchReference(t *testing.T) {
	isolateGit(t)
	root := makeTree(t)
	var cases []refCase
	b, err := os.ReadFile("testdata/ref_glob_fuzzy.json")
	mustDo(t, err)
	mustDo(t, json.Unmarshal(b, &cases))
	for _, c := range cases {
		t.Run(c.Fn+string(c.Options), func(t *testing.T) {
			var got any
			var err error
			switch c.Fn {
			case "glob":
				var o struct {
					Pattern            string
					FileType           int
					Recursive          *bool
					Hidden             bool
					MaxResults         *int
					Gitignore          *bool
					SortByMtime        bool
					IncludeNodeModules *bool
				}
				mustDo(t, json.Unmarshal(c.Options, &o))
				var r GlobResult
				r, err = Glob(GlobOptions{Pattern: o.Pattern, Path: root, FileType: FileType(o.FileType),
					Recursive: o.Recursive, Hidden: o.Hidden, MaxResults: o.MaxResults, Gitignore: o.Gitignore,
					SortByMtime: o.SortByMtime, IncludeNodeModules: o.IncludeNodeModules}, nil)
				got = jsonOf(r)
			case "fuzzyFind":
				var o struct {
					Query      string
					Hidden     bool
					Gitignore  *bool
					MaxResults *int
				}
				mustDo(t, json.Unmarshal(c.Options, &o))
				var r FuzzyFindResult
				r, err = FuzzyFind(FuzzyFindOptions{Query: o.Query, Path: root, Hidden: o.Hidden,
					Gitignore: o.Gitignore, MaxResults: o.MaxResults})
				got = jsonOf(r)
			}
			if c.Error != "" {
				if err == nil || !strings.HasPrefix(err.Error(), c.Error) {
					t.Fatalf("want error %q, got %v", c.Error, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var want any
			mustDo(t, json.Unmarshal(c.Want, &want))
			if !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				t.Errorf("\ngot  %s\nwant %s", g, c.Want)
			}
		})
	}
}
