package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// makeWorkspaceTree builds testdata/ws_tree.json like testdata/reclw.js did,
// "mtimeNs" ("sec.nanos") included.
func makeWorkspaceTree(t *testing.T) string {
	root := makeTree(t, "ws_tree.json")
	var entries []struct {
		Path    string `json:"path"`
		MtimeNs string `json:"mtimeNs"`
	}
	b, err := os.ReadFile("testdata/ws_tree.json")
	mustDo(t, err)
	mustDo(t, json.Unmarshal(b, &entries))
	for _, e := range entries {
		if e.MtimeNs == "" {
			continue
		}
		var sec, nsec int64
		sp, np, _ := strings.Cut(e.MtimeNs, ".")
		mustDo(t, json.Unmarshal([]byte(sp), &sec))
		mustDo(t, json.Unmarshal([]byte(strings.TrimLeft(np, "0")+"0"), &nsec))
		nsec /= 10
		mt := time.Unix(sec, nsec)
		mustDo(t, os.Chtimes(filepath.Join(root, e.Path), mt, mt))
	}
	return root
}

func workspaceJSON(r ListWorkspaceResult) any {
	entries := []any{}
	for _, e := range r.Entries {
		o := map[string]any{"path": e.Path, "fileType": float64(e.Type), "mtime": e.Mtime}
		if e.Size >= 0 {
			o["size"] = float64(e.Size)
		}
		entries = append(entries, o)
	}
	files := []any{}
	for _, p := range r.AgentsMdFiles {
		files = append(files, p)
	}
	return map[string]any{"entries": entries, "agentsMdFiles": files, "truncated": r.Truncated}
}

// TestListWorkspaceAndMaxCountPerFileMatchReference replays the answers of
// pi-natives 18.2.3 recorded by testdata/reclw.js (ref_listworkspace.json):
// listWorkspace over many roots and options, and grep's maxCountPerFile in
// every mode with offset and context, with and without the scan cache.
func TestListWorkspaceAndMaxCountPerFileMatchReference(t *testing.T) {
	isolateGit(t)
	root := makeWorkspaceTree(t)
	var cases []refCase
	b, err := os.ReadFile("testdata/ref_listworkspace.json")
	mustDo(t, err)
	mustDo(t, json.Unmarshal(b, &cases))
	if len(cases) < 90 {
		t.Fatalf("only %d recorded cases", len(cases))
	}
	check := func(t *testing.T, c refCase, got any, err error) {
		t.Helper()
		if c.Error != "" {
			want := strings.ReplaceAll(c.Error, "<root>", root)
			if err == nil || err.Error() != want {
				t.Fatalf("want error %q, got %v", want, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		var want any
		mustDo(t, json.Unmarshal([]byte(strings.ReplaceAll(string(c.Want), "<root>", root)), &want))
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			t.Errorf("\ngot  %s\nwant %s", g, c.Want)
		}
	}
	for _, c := range cases {
		t.Run(c.Fn+string(c.Options), func(t *testing.T) {
			switch c.Fn {
			case "listWorkspace":
				var o struct {
					Path            string
					MaxDepth        uint32
					Hidden          bool
					Gitignore       *bool
					CollectAgentsMd bool
				}
				mustDo(t, json.Unmarshal(c.Options, &o))
				r, err := ListWorkspace(ListWorkspaceOptions{Path: filepath.Join(root, o.Path), MaxDepth: o.MaxDepth,
					Hidden: o.Hidden, Gitignore: o.Gitignore, CollectAgentsMd: o.CollectAgentsMd})
				check(t, c, workspaceJSON(r), err)
			case "grep":
				var o struct {
					Pattern, Path, Mode                             string
					MaxCountPerFile, Offset, Context, ContextBefore *int
				}
				mustDo(t, json.Unmarshal(c.Options, &o))
				mode := map[string]GrepMode{"": ModeContent, "count": ModeCount,
					"filesWithMatches": ModeFilesWithMatches}[o.Mode]
				for _, cached := range []bool{false, true} {
					InvalidateAll()
					r, err := Grep(GrepOptions{Pattern: o.Pattern, Path: filepath.Join(root, o.Path), Mode: mode,
						MaxCountPerFile: o.MaxCountPerFile, Offset: o.Offset, Context: o.Context,
						ContextBefore: o.ContextBefore, Cache: cached}, nil)
					check(t, c, jsonOf(r), err)
				}
			default:
				t.Fatalf("unknown fn %s", c.Fn)
			}
		})
	}
}

// TestListWorkspaceCancel: a raised flag or an expired deadline ends the
// walk with the usual messages, after the root was checked.
func TestListWorkspaceCancel(t *testing.T) {
	root := t.TempDir()
	zero := int64(0)
	_, err := ListWorkspace(ListWorkspaceOptions{Path: root, MaxDepth: 3, Cancel: Cancel{TimeoutMs: &zero}})
	if err == nil || err.Error() != "Aborted: Timeout" {
		t.Fatalf("timeout: got %v", err)
	}
	_, err = ListWorkspace(ListWorkspaceOptions{Path: root, MaxDepth: 3, Cancel: Cancel{Aborted: func() bool { return true }}})
	if err == nil || err.Error() != "Aborted: Signal" {
		t.Fatalf("signal: got %v", err)
	}
	_, err = ListWorkspace(ListWorkspaceOptions{Path: filepath.Join(root, "nope"), MaxDepth: 3, Cancel: Cancel{TimeoutMs: &zero}})
	if err == nil || !strings.HasPrefix(err.Error(), "Native directory scan failed for ") {
		t.Fatalf("missing root before timeout: got %v", err)
	}
}

// TestListWorkspaceDropsDSStore: as both references do, no entry is named
// .DS_Store, a file of that name or a directory (pruned with what it
// holds, AGENTS.md included), while names that merely contain it stay.
// The reproduction gives [".hidden","a.txt","sub"] in both.
func TestListWorkspaceDropsDSStore(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{".DS_Store", ".hidden", "a.txt", "sub/.DS_Store"} {
		p := filepath.Join(root, f)
		mustDo(t, os.MkdirAll(filepath.Dir(p), 0o755))
		mustDo(t, os.WriteFile(p, []byte("x\n"), 0o644))
	}
	r, err := ListWorkspace(ListWorkspaceOptions{Path: root, MaxDepth: 2, Hidden: true, Gitignore: Bool(false)})
	mustDo(t, err)
	if got, want := workspacePaths(r), []string{".hidden", "a.txt", "sub"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("entries %q, want %q", got, want)
	}

	for _, f := range []string{"d/.DS_Store/AGENTS.md", "d/.DS_Store/inner/x.txt", "d/AGENTS.md", "d/x.DS_Store", "d/.DS_Store.bak"} {
		p := filepath.Join(root, f)
		mustDo(t, os.MkdirAll(filepath.Dir(p), 0o755))
		mustDo(t, os.WriteFile(p, []byte("x\n"), 0o644))
	}
	r, err = ListWorkspace(ListWorkspaceOptions{Path: root, MaxDepth: 5, Hidden: true, Gitignore: Bool(false), CollectAgentsMd: true})
	mustDo(t, err)
	want := []string{".hidden", "a.txt", "d", "d/.DS_Store.bak", "d/AGENTS.md", "d/x.DS_Store", "sub"}
	if got := workspacePaths(r); !reflect.DeepEqual(got, want) {
		t.Fatalf("entries %q, want %q", got, want)
	}
	if want := []string{"d/AGENTS.md"}; !reflect.DeepEqual(r.AgentsMdFiles, want) {
		t.Fatalf("agentsMdFiles %q, want %q", r.AgentsMdFiles, want)
	}
}

func workspacePaths(r ListWorkspaceResult) []string {
	var out []string
	for _, e := range r.Entries {
		out = append(out, e.Path)
	}
	return out
}
