package ignore

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// makeTree creates a fixture below base. Each spec is "dir/", "file",
// "file=content" or "link->target".
func makeTree(t testing.TB, base string, specs ...string) {
	t.Helper()
	for _, s := range specs {
		var err error
		switch {
		case strings.Contains(s, "->"):
			name, target, _ := strings.Cut(s, "->")
			p := filepath.Join(base, name)
			if err = os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
				err = os.Symlink(target, p)
			}
		case strings.Contains(s, "="):
			name, content, _ := strings.Cut(s, "=")
			p := filepath.Join(base, name)
			if err = os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
				err = os.WriteFile(p, []byte(content), 0o644)
			}
		case strings.HasSuffix(s, "/"):
			err = os.MkdirAll(filepath.Join(base, s), 0o755)
		default:
			p := filepath.Join(base, s)
			if err = os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
				err = os.WriteFile(p, nil, 0o644)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// tempRoot returns a canonical temporary directory.
func tempRoot(t testing.TB) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return filepath.ToSlash(d) // the form of every root (Windows: '/'-separated)
}

// isolateEnv points HOME and XDG_CONFIG_HOME at an empty directory so no
// global excludes file of the machine leaks into a test.
func isolateEnv(t *testing.T) string {
	t.Helper()
	home := tempRoot(t)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_GLOBAL", "")
	return home
}

// walkOpts configures testWalk.
type walkOpts struct {
	hidden bool
	follow bool // follow symlinks (fuzzyFind), else links are leaves
	marked bool // use ChildMarked with a listing of the child
}

// testWalk walks root the way the reference scan does (".git" pruned,
// hidden names dropped unless whitelisted, ignored entries skipped and
// ignored directories pruned) and returns the entries in the reference's
// probe format: relative paths, directories with a trailing "/", sorted by
// path.
func testWalk(t testing.TB, root string, o walkOpts) []string {
	t.Helper()
	var out []string
	var rec func(d *Dir, dir, rel string, depth int)
	rec = func(d *Dir, dir, rel string, depth int) {
		if depth > 20 {
			return
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			name := e.Name()
			if name == ".git" {
				continue
			}
			full := dir + "/" + name
			isDir := e.IsDir()
			if o.follow && e.Type()&os.ModeSymlink != 0 {
				if fi, err := os.Stat(full); err == nil {
					isDir = fi.IsDir()
				}
			}
			m := d.Match(name, isDir)
			if m == Ignore {
				continue
			}
			if !o.hidden && name[0] == '.' && m != Whitelist {
				continue
			}
			p := name
			if rel != "" {
				p = rel + "/" + name
			}
			if !isDir {
				out = append(out, p)
				continue
			}
			out = append(out, p+"/")
			var c *Dir
			if o.marked {
				var marks Marks
				if kids, err := os.ReadDir(full); err == nil {
					for _, k := range kids {
						marks |= MarkOf(k.Name())
					}
				}
				c = d.ChildMarked(name, marks)
			} else {
				c = d.Child(name)
			}
			rec(c, full, p, depth+1)
		}
	}
	rec(NewRoot(root), root, "", 0)
	sortProbe(out)
	return out
}

func sortProbe(s []string) {
	sort.Slice(s, func(i, j int) bool {
		return strings.TrimSuffix(s[i], "/") < strings.TrimSuffix(s[j], "/")
	})
}

// splitProbe parses the reference probe output "a | b/ | c".
func splitProbe(s string) []string {
	if s == "" {
		return nil
	}
	out := strings.Split(s, " | ")
	sortProbe(out)
	return out
}
