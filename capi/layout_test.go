//go:build cgo

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// The result envelope's layout is part of the C ABI (include/fscache.h,
// "Result layout"): the Node addon splits large results on the bytes
// {"ok":{"matches":[. TestResultLayout runs every exported function that
// returns a document and checks its bytes against the header's list.

// layoutKey is one key of a layout: its name, whether it may be absent, and
// the layout of its array's elements, or of its object ("" when not checked
// further).
type layoutKey struct {
	name     string
	optional bool
	elem     string
	object   bool // elem is the layout of the value itself, an object
}

// headerLayouts reads the "Result layout" list of include/fscache.h.
func headerLayouts(t *testing.T) map[string][]layoutKey {
	t.Helper()
	b, err := os.ReadFile("../include/fscache.h")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, " * Result layout:")
	if start < 0 {
		t.Fatal(`fscache.h has no "Result layout" section`)
	}
	text = text[start:]
	text = text[:strings.Index(text, "\n *\n")]
	entry := regexp.MustCompile(`(?m)^ \*     (\w+) +\{([^}]*)\}`)
	// name, name: [Elem], name: Object; each optional in brackets.
	item := regexp.MustCompile(`^(\w+)(?:: (?:\[(\w+)\]|(\w+)))?$`)
	layouts := map[string][]layoutKey{}
	for _, m := range entry.FindAllStringSubmatch(text, -1) {
		body := regexp.MustCompile(`\s*\n \*\s+`).ReplaceAllString(m[2], " ")
		var keys []layoutKey
		for _, it := range strings.Split(body, ", ") {
			it = strings.TrimSpace(it)
			optional := strings.HasPrefix(it, "[")
			if optional {
				if !strings.HasSuffix(it, "]") {
					t.Fatalf("fscache.h, layout of %s: cannot read %q", m[1], it)
				}
				it = it[1 : len(it)-1]
			}
			p := item.FindStringSubmatch(it)
			if p == nil {
				t.Fatalf("fscache.h, layout of %s: cannot read %q", m[1], it)
			}
			k := layoutKey{name: p[1], optional: optional, elem: p[2]}
			if p[3] != "" {
				k.elem, k.object = p[3], true
			}
			keys = append(keys, k)
		}
		layouts[m[1]] = keys
	}
	for _, want := range []string{"error", "GlobResult", "GlobMatch", "FuzzyFindResult", "FuzzyFindMatch",
		"GrepResult", "GrepMatch", "ContextLine", "ListWorkspaceResult", "WorkspaceEntry", "CacheStats",
		"ReadCacheResult", "ReadCacheTruncation", "ReadCacheMeta", "ReadCacheResolved", "ReadCacheStoreInfo"} {
		if _, ok := layouts[want]; !ok {
			t.Fatalf("fscache.h's result layout has no %s", want)
		}
	}
	return layouts
}

// node is a JSON value with its object keys in document order.
type node struct {
	keys []string // an object's keys
	vals []*node  // an object's values, or an array's elements
	obj  bool
}

func readNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return &node{}, nil
	}
	n := &node{obj: d == '{'}
	for dec.More() {
		if n.obj {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, k.(string))
		}
		v, err := readNode(dec)
		if err != nil {
			return nil, err
		}
		n.vals = append(n.vals, v)
	}
	_, err = dec.Token() // the closing delimiter
	return n, err
}

// layoutChecker checks documents against the header's layouts and records
// which keys it has seen, so the test knows every optional key was tried.
type layoutChecker struct {
	t       *testing.T
	layouts map[string][]layoutKey
	seen    map[string]bool // "Layout.key"
}

// check reports whether n, the value at where, follows the layout name.
func (c *layoutChecker) check(where, name string, n *node) {
	layout := c.layouts[name]
	if !n.obj {
		c.t.Errorf("%s: not an object (%s)", where, name)
		return
	}
	i := 0
	for j, k := range n.keys {
		for i < len(layout) && layout[i].name != k {
			if !layout[i].optional {
				c.t.Errorf("%s: %s has %q where %q must come first (keys %q)", where, name, k, layout[i].name, n.keys)
			}
			i++
		}
		if i == len(layout) {
			c.t.Errorf("%s: %s key %q is not in the header's layout, or out of order (keys %q)", where, name, k, n.keys)
			return
		}
		c.seen[name+"."+k] = true
		switch e := layout[i].elem; {
		case e != "" && layout[i].object:
			c.check(where+"."+k, e, n.vals[j])
		case e != "":
			for x, el := range n.vals[j].vals {
				c.check(fmt.Sprintf("%s.%s[%d]", where, k, x), e, el)
			}
		}
		i++
	}
	for ; i < len(layout); i++ {
		if !layout[i].optional {
			c.t.Errorf("%s: %s lacks %q (keys %q)", where, name, layout[i].name, n.keys)
		}
	}
}

// document checks one returned document: compact, ASCII unless utf8, one
// key ("ok", holding a result of the layout name, or "error").
func (c *layoutChecker) document(where, name string, doc []byte, utf8 bool) {
	var compact bytes.Buffer
	if err := json.Compact(&compact, doc); err != nil {
		c.t.Errorf("%s: not JSON: %v: %.200s", where, err, doc)
		return
	}
	if !bytes.Equal(compact.Bytes(), doc) {
		c.t.Errorf("%s: not compact JSON: %.200s", where, doc)
	}
	if !utf8 {
		if i := slices.IndexFunc(doc, func(b byte) bool { return b >= 0x80 }); i >= 0 {
			c.t.Errorf("%s: a non-ASCII byte at %d: %.200s", where, i, doc)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	n, err := readNode(dec)
	if err == nil {
		_, err = dec.Token()
		if err == io.EOF {
			err = nil
		} else if err == nil {
			err = fmt.Errorf("more than one value")
		}
	}
	if err != nil || !n.obj || len(n.keys) != 1 {
		c.t.Errorf("%s: want one object with one key (%v): %.200s", where, err, doc)
		return
	}
	switch n.keys[0] {
	case "ok":
		c.check(where+".ok", name, n.vals[0])
	case "error":
		c.check(where+".error", "error", n.vals[0])
	default:
		c.t.Errorf("%s: the document's key is %q", where, n.keys[0])
	}
}

// take copies the document p and frees it.
func take(p unsafe.Pointer) []byte {
	defer cFree(p)
	return goBytes(p)
}

// document runs the exported function of the operation op ("glob",
// "fuzzyFind", "grep", "listWorkspace", "readCache", "readCacheResolve",
// "readCacheStore") on the options js and returns its document.
func document(op, js string) []byte {
	o := cBytes([]byte(js))
	defer cFree(unsafe.Pointer(o))
	switch op {
	case "glob":
		return take(unsafe.Pointer(fscache_go_glob(o, nil, nil, nil)))
	case "fuzzyFind":
		return take(unsafe.Pointer(fscache_go_fuzzy_find(o, nil)))
	case "grep":
		return take(unsafe.Pointer(fscache_go_grep(o, nil, nil, nil)))
	case "listWorkspace":
		return take(unsafe.Pointer(fscache_go_list_workspace(o, nil)))
	case "readCache":
		return take(unsafe.Pointer(fscache_go_read_cache(o, nil)))
	case "readCacheResolve":
		return take(unsafe.Pointer(fscache_go_read_cache_resolve(o)))
	case "readCacheStore":
		return take(unsafe.Pointer(fscache_go_read_cache_store(o)))
	}
	panic("no operation " + op)
}

// addonPrefix is MATCHES_PREFIX of the Node addon, the bytes on which it
// splits large results.
func addonPrefix(t *testing.T) []byte {
	b, err := os.ReadFile("../bindings/node/fscache_node.c")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`MATCHES_PREFIX\[\] = "((?:[^"\\]|\\.)*)";`).FindSubmatch(b)
	if m == nil {
		t.Fatal("fscache_node.c: no MATCHES_PREFIX")
	}
	return bytes.ReplaceAll(m[1], []byte(`\"`), []byte(`"`))
}

func TestResultLayout(t *testing.T) {
	c := &layoutChecker{t: t, layouts: headerLayouts(t), seen: map[string]bool{}}
	prefix := addonPrefix(t)
	if string(prefix) != `{"ok":{"matches":[` {
		t.Errorf("fscache_node.c's MATCHES_PREFIX is %q, not the header's", prefix)
	}

	root := t.TempDir()
	for name, body := range map[string]string{
		"a.txt":                "alpha one\nbeta\ngamma\ndelta\nalpha two é " + strings.Repeat("x", 40) + "\nomega\n",
		"sub/b.txt":            "alpha three\n",
		"sub/AGENTS.md":        "agents\n",
		"sub/deeper/c.go":      "package alpha\n",
		"sub/deeper/AGENTS.md": "more\n",
		"ünï.txt":              "alpha\n",
		"raw/cr.txt":           "lone\rcr\nmid\nomega \xff alpha\n",
	} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	q := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	cases := []struct {
		name, layout string
		op           string
		options      string
		matches      bool // a result that must begin with the addon's prefix
	}{
		{"glob", "GlobResult", "glob", `{"pattern":"**/*","path":` + q(root) + `}`, true},
		{"glob sortByMtime", "GlobResult", "glob", `{"pattern":"**/*","path":` + q(root) + `,"sortByMtime":true}`, true},
		{"glob cached (miss)", "GlobResult", "glob", `{"pattern":"**/*","path":` + q(root) + `,"cache":true}`, true},
		{"glob cached (hit)", "GlobResult", "glob", `{"pattern":"**/*","path":` + q(root) + `,"cache":true}`, true},
		{"glob, no match", "GlobResult", "glob", `{"pattern":"nothing","path":` + q(root) + `}`, true},
		{"fuzzyFind", "FuzzyFindResult", "fuzzyFind", `{"query":"txt","path":` + q(root) + `}`, true},
		{"grep content", "GrepResult", "grep", `{"pattern":"alpha","path":` + q(root) + `,"context":1,"maxColumns":20}`, true},
		{"grep rawLines", "GrepResult", "grep", `{"pattern":"alpha","path":` + q(root+"/raw") + `,"rawLines":true,"context":1}`, true},
		{"grep maxCount", "GrepResult", "grep", `{"pattern":"alpha","path":` + q(root) + `,"maxCount":1}`, true},
		{"grep count", "GrepResult", "grep", `{"pattern":"alpha","path":` + q(root) + `,"mode":"count"}`, true},
		{"grep filesWithMatches", "GrepResult", "grep", `{"pattern":"alpha","path":` + q(root) + `,"mode":"filesWithMatches"}`, true},
		{"listWorkspace", "ListWorkspaceResult", "listWorkspace", `{"path":` + q(root) + `,"maxDepth":3,"collectAgentsMd":true}`, false},
		{"glob, path not found", "GlobResult", "glob", `{"pattern":"*","path":` + q(root+"/none") + `}`, false},
		{"grep, bad regex", "GrepResult", "grep", `{"pattern":"(","path":` + q(root) + `}`, false},
		{"fuzzyFind, bad options", "FuzzyFindResult", "fuzzyFind", `{"query":1}`, false},
		{"listWorkspace, not found", "ListWorkspaceResult", "listWorkspace", `{"path":` + q(root+"/none") + `,"maxDepth":1}`, false},
	}
	for _, tc := range cases {
		doc := document(tc.op, tc.options)
		c.document(tc.name, tc.layout, doc, false)
		if tc.matches && !bytes.HasPrefix(doc, prefix) {
			t.Errorf("%s: does not begin with %s: %.80s", tc.name, prefix, doc)
		}
	}
	readCacheLayouts(t, c, root)
	stats := take(unsafe.Pointer(fscache_go_cache_stats()))
	c.document("cacheStats", "CacheStats", stats, true)

	// Every key of the layouts has been seen at least once, optional ones
	// too, so the order of each was checked. (watchOff appears only when
	// watching is off, which depends on the platform and environment.)
	for name, layout := range c.layouts {
		for _, k := range layout {
			if !c.seen[name+"."+k.name] && name+"."+k.name != "CacheStats.watchOff" {
				t.Errorf("no result had %s.%s: the test does not cover it", name, k.name)
			}
		}
	}
}

// readCacheLayouts checks the read cache's documents: a first read, a
// reread against its hash (meta.baseHash), a range (offset, limit), a
// truncated read, a baseline answer (reason, no meta), a refused store
// (storeError), resolve, the store's statistics, and errors.
func readCacheLayouts(t *testing.T, c *layoutChecker, root string) {
	rc := filepath.Join(root, "rc")
	if err := os.MkdirAll(rc, 0o755); err != nil {
		t.Fatal(err)
	}
	var big strings.Builder
	for i := range 2500 {
		fmt.Fprintf(&big, "line %d é\n", i+1)
	}
	for name, body := range map[string]string{"small.txt": "one\ntwo é\nthree\n", "big.txt": big.String(), "bin.dat": "\xff\xfe\x00\x01"} {
		if err := os.WriteFile(filepath.Join(rc, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	open := filepath.Join(root, "open-store")
	if err := os.Mkdir(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil { // past the umask
		t.Fatal(err)
	}
	q := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	store := filepath.Join(root, "store")
	opts := func(extra string) string {
		return `{"path":"small.txt","cwd":` + q(rc) + `,"storeDir":` + q(store) + extra + `}`
	}
	first := document("readCache", opts(""))
	c.document("readCache, first", "ReadCacheResult", first, false)
	var env struct {
		OK struct {
			Mode string
			Meta struct{ PathKey, ServedHash string }
		} `json:"ok"`
	}
	if err := json.Unmarshal(first, &env); err != nil || env.OK.Mode != "full" || env.OK.Meta.ServedHash == "" {
		t.Fatalf("readCache, first: %v: %s", err, first)
	}
	again := document("readCache", opts(`,"pathKey":`+q(env.OK.Meta.PathKey)+`,"bases":{"full":`+q(env.OK.Meta.ServedHash)+`}`))
	c.document("readCache, unchanged", "ReadCacheResult", again, false)
	if !bytes.Contains(again, []byte(`"mode":"unchanged"`)) || !bytes.Contains(again, []byte(`"baseHash":`)) {
		t.Errorf("readCache, unchanged: %s", again)
	}
	for _, tc := range []struct{ name, layout, op, options string }{
		{"readCache, range", "ReadCacheResult", "readCache", opts(`,"offset":2,"limit":1`)},
		{"readCache, truncated", "ReadCacheResult", "readCache", `{"path":"big.txt","cwd":` + q(rc) + `,"noStore":true}`},
		{"readCache, baseline", "ReadCacheResult", "readCache", `{"path":"bin.dat","cwd":` + q(rc) + `,"noStore":true}`},
		{"readCache, refused store", "ReadCacheResult", "readCache", `{"path":"small.txt","cwd":` + q(rc) + `,"storeDir":` + q(open) + `}`},
		{"readCache, bad range", "ReadCacheResult", "readCache", `{"path":"small.txt:5-3","cwd":` + q(rc) + `}`},
		{"readCache, bad options", "ReadCacheResult", "readCache", `{"path":1}`},
		{"readCacheResolve", "ReadCacheResolved", "readCacheResolve", `{"path":"small.txt:2-3","cwd":` + q(rc) + `}`},
		{"readCacheResolve, bad options", "ReadCacheResolved", "readCacheResolve", `{}`},
		{"readCacheStore", "ReadCacheStoreInfo", "readCacheStore", `{"dir":` + q(store) + `}`},
		{"readCacheStore, refused", "ReadCacheStoreInfo", "readCacheStore", `{"dir":` + q(open) + `}`},
	} {
		c.document(tc.name, tc.layout, document(tc.op, tc.options), false)
	}
}
