package engine

import (
	"runtime"
	"strings"
)

// fileTypes maps a type name to its extensions; "=name" entries match a
// whole (lowercased) file name.
var fileTypes = map[string][]string{
	"js":         {"js", "jsx", "mjs", "cjs"},
	"ts":         {"ts", "tsx", "mts", "cts"},
	"json":       {"json", "jsonc", "json5"},
	"yaml":       {"yaml", "yml"},
	"yml":        {"yaml", "yml"},
	"toml":       {"toml"},
	"md":         {"md", "markdown", "mdx"},
	"markdown":   {"md", "markdown", "mdx"},
	"py":         {"py", "pyi"},
	"python":     {"py", "pyi"},
	"rs":         {"rs"},
	"rust":       {"rs"},
	"go":         {"go"},
	"java":       {"java"},
	"kt":         {"kt", "kts"},
	"kotlin":     {"kt", "kts"},
	"c":          {"c", "h"},
	"cpp":        {"cpp", "cc", "cxx", "hpp", "hxx", "hh"},
	"cxx":        {"cpp", "cc", "cxx", "hpp", "hxx", "hh"},
	"cs":         {"cs", "csx"},
	"csharp":     {"cs", "csx"},
	"php":        {"php", "phtml"},
	"rb":         {"rb", "rake", "gemspec"},
	"ruby":       {"rb", "rake", "gemspec"},
	"sh":         {"sh", "bash", "zsh"},
	"bash":       {"sh", "bash", "zsh"},
	"zsh":        {"zsh"},
	"fish":       {"fish"},
	"html":       {"html", "htm"},
	"css":        {"css"},
	"scss":       {"scss"},
	"sass":       {"sass"},
	"less":       {"less"},
	"xml":        {"xml"},
	"docker":     {"=dockerfile"},
	"dockerfile": {"=dockerfile"},
	"make":       {"=makefile"},
	"makefile":   {"=makefile"},
}

// typeFilter matches file names against a grep type.
type typeFilter struct {
	exts  []string
	names []string
	on    bool
}

func newTypeFilter(t string) typeFilter {
	t = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(t)), ".")
	if t == "" {
		return typeFilter{}
	}
	f := typeFilter{on: true}
	list, ok := fileTypes[t]
	if !ok {
		f.exts, f.names = []string{t}, []string{t}
		return f
	}
	for _, e := range list {
		if name, ok := strings.CutPrefix(e, "="); ok {
			f.names = append(f.names, name)
		} else {
			f.exts = append(f.exts, e)
		}
	}
	return f
}

// match reports whether the file name passes the filter.
func (f typeFilter) match(name string) bool {
	if !f.on {
		return true
	}
	lname := strings.ToLower(name)
	for _, n := range f.names {
		if lname == n {
			return true
		}
	}
	if i := strings.LastIndexByte(lname, '.'); i >= 0 {
		ext := lname[i+1:]
		for _, e := range f.exts {
			if ext == e {
				return true
			}
		}
	}
	return false
}

// numWorkers is the number of directory runs a grep of a directory
// searches at once, cached or not: one per CPU, and at least 4 (as many as
// the walk's listers), since most of a small file's time is spent in
// system calls.
func numWorkers() int { return max(4, runtime.GOMAXPROCS(0)) }
