package engine

import (
	"strings"
	"testing"
)

// TestTypeFilter checks every row of the reference's type table
// (reference-behavior.md, "type filter"): each listed extension or file
// name passes, in any case and with a leading '.', and a near miss does not.
func TestTypeFilter(t *testing.T) {
	table := map[string]string{
		"js": "js jsx mjs cjs", "ts": "ts tsx mts cts", "json": "json jsonc json5",
		"yaml": "yaml yml", "yml": "yaml yml", "toml": "toml", "md": "md markdown mdx",
		"markdown": "md markdown mdx", "py": "py pyi", "python": "py pyi", "rs": "rs", "rust": "rs",
		"go": "go", "java": "java", "kt": "kt kts", "kotlin": "kt kts", "c": "c h",
		"cpp": "cpp cc cxx hpp hxx hh", "cxx": "cpp cc cxx hpp hxx hh", "cs": "cs csx", "csharp": "cs csx",
		"php": "php phtml", "rb": "rb rake gemspec", "ruby": "rb rake gemspec", "sh": "sh bash zsh",
		"bash": "sh bash zsh", "zsh": "zsh", "fish": "fish", "html": "html htm", "css": "css",
		"scss": "scss", "sass": "sass", "less": "less", "xml": "xml",
	}
	for typ, exts := range table {
		for _, spelling := range []string{typ, strings.ToUpper(typ), "." + typ} {
			f := newTypeFilter(spelling)
			for _, ext := range strings.Fields(exts) {
				if !f.match("file." + ext) {
					t.Errorf("type %q: file.%s should pass", spelling, ext)
				}
				if !f.match("FILE." + strings.ToUpper(ext)) {
					t.Errorf("type %q: FILE.%s should pass", spelling, strings.ToUpper(ext))
				}
			}
			if f.match("file."+typ+"q") || f.match("file") {
				t.Errorf("type %q: near misses pass", spelling)
			}
		}
	}
	for typ, name := range map[string]string{"docker": "dockerfile", "dockerfile": "dockerfile", "make": "makefile", "makefile": "makefile"} {
		f := newTypeFilter(typ)
		if !f.match(name) || !f.match(strings.ToUpper(name[:1])+name[1:]) || f.match(name+".bak") {
			t.Errorf("type %q: file name %q", typ, name)
		}
	}
	// Any other word is an extension or a whole file name.
	f := newTypeFilter("lock")
	if !f.match("yarn.lock") || !f.match("lock") || f.match("lockfile") {
		t.Error("custom type 'lock'")
	}
	if !newTypeFilter("").match("anything") {
		t.Error("no type filter must pass everything")
	}
}
