package core

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/engine"
	"github.com/fscache/fscache/internal/walk"
)

// dropped are the engine's exported fields the public types leave out, on
// purpose: a name's raw bytes when they are not UTF-8 (pi-natives reports
// the lossy path only).
var dropped = map[string]bool{"walk.Entry.RawPath": true}

// notFromEngine are the public fields not converted from the engine's
// value: Stats.Dropped is internal/fence's record of dropped background
// work, which CacheStats adds.
var notFromEngine = map[string]bool{"core.Stats.Dropped": true}

// converted are the engine's fields whose public field holds another unit:
// the function gives the public value of the engine's. A glob match's
// mtime is the engine's ns as the milliseconds pi-natives 18.2 reports
// (-1: none).
var converted = map[string]func(reflect.Value) any{
	"walk.Entry.Mtime": func(v reflect.Value) any {
		if v.Int() < 0 {
			return -1.0
		}
		return walk.MtimeMs(v.Int())
	},
}

// renamed are the engine's fields whose public field has another name.
var renamed = map[string]string{"walk.Entry.Type": "FileType", "readcache.Result.Resolved": "ReadCacheResolved"}

// sameFields checks that pub, a public value, holds every field of eng,
// the engine's value it was converted from, recursively: each exported
// field of eng (but dropped) has a public field of the same name (or
// renamed) and kind and an equal value, slices have the same length and
// nil-ness, and pub has no other field.
func sameFields(t *testing.T, at string, pub, eng reflect.Value) {
	t.Helper()
	if pub.Kind() != eng.Kind() {
		t.Errorf("%s: public %s, engine %s", at, pub.Type(), eng.Type())
		return
	}
	switch eng.Kind() {
	case reflect.Struct:
		sameStructFields(t, at, pub, eng)
	case reflect.Slice:
		if pub.IsNil() != eng.IsNil() || pub.Len() != eng.Len() {
			t.Errorf("%s: public len %d (nil %v), engine len %d (nil %v)", at, pub.Len(), pub.IsNil(), eng.Len(), eng.IsNil())
			return
		}
		for i := range eng.Len() {
			sameFields(t, at+"["+strconv.Itoa(i)+"]", pub.Index(i), eng.Index(i))
		}
	case reflect.Pointer:
		if pub.IsNil() != eng.IsNil() {
			t.Errorf("%s: public nil %v, engine nil %v", at, pub.IsNil(), eng.IsNil())
		} else if !eng.IsNil() {
			sameFields(t, at, pub.Elem(), eng.Elem())
		}
	case reflect.Map:
		if !reflect.DeepEqual(pub.Interface(), eng.Interface()) {
			t.Errorf("%s: public %v, engine %v", at, pub.Interface(), eng.Interface())
		}
	default:
		if !pub.Type().ConvertibleTo(eng.Type()) || pub.Convert(eng.Type()).Interface() != eng.Interface() {
			t.Errorf("%s: public %v, engine %v", at, pub.Interface(), eng.Interface())
		}
	}
}

func sameStructFields(t *testing.T, at string, pub, eng reflect.Value) {
	t.Helper()
	if pub.Type().PkgPath() != "github.com/fscache/fscache/core" {
		t.Errorf("%s: %s is not declared in core", at, pub.Type())
	}
	used := map[string]bool{}
	for i := range eng.NumField() {
		f := eng.Type().Field(i)
		key := eng.Type().String() + "." + f.Name
		if !f.IsExported() || dropped[key] {
			continue
		}
		name := f.Name
		if r, ok := renamed[key]; ok {
			name = r
		}
		pf := pub.FieldByName(name)
		if !pf.IsValid() {
			t.Errorf("%s: %s has no field %s (%s)", at, pub.Type(), name, key)
			continue
		}
		used[name] = true
		if conv, ok := converted[key]; ok {
			if want := conv(eng.Field(i)); pf.Interface() != want {
				t.Errorf("%s.%s: public %v, want %v (engine %v)", at, name, pf.Interface(), want, eng.Field(i).Interface())
			}
			continue
		}
		sameFields(t, at+"."+name, pf, eng.Field(i))
	}
	for i := range pub.NumField() {
		if f := pub.Type().Field(i); !used[f.Name] && !notFromEngine[pub.Type().String()+"."+f.Name] {
			t.Errorf("%s: %s.%s has no engine field (or is unexported)", at, pub.Type(), f.Name)
		}
	}
}

// same runs sameFields on two values.
func same(t *testing.T, name string, pub, eng any) {
	t.Helper()
	sameFields(t, name, reflect.ValueOf(pub), reflect.ValueOf(eng))
}

// convTree makes files for the conversion tests: a.txt with two matches
// of "hit" with context around them, one of them long; b.txt with one.
func convTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"a.txt":     "one\ntwo\nhit " + strings.Repeat("x", 40) + "\nthree\nfour\nfive\nhit again\nsix\n",
		"sub/b.txt": "hit\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestConvertGrepKeepsEveryField: Grep's result (grouped in the engine,
// converted in core) equals the engine's flat result field by field, with
// context lines and truncation, in content and count modes, and OnMatch
// sees the same matches.
func TestConvertGrepKeepsEveryField(t *testing.T) {
	dir := convTree(t)
	ctx := context.Background()
	for _, o := range []GrepOptions{
		{Pattern: "hit", Path: dir, Context: Int(1), MaxColumns: Int(20)},
		{Pattern: "hit", Path: dir, ContextBefore: Int(2), ContextAfter: Int(0)},
		{Pattern: "hit", Path: dir, Mode: ModeCount},
		{Pattern: "hit", Path: dir, Mode: ModeFilesWithMatches, MaxCount: Int(1)},
	} {
		var streamed []GrepMatch
		o.OnMatch = func(m GrepMatch) { streamed = append(streamed, m) }
		got, err := Grep(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		eo := grepOptions(ctx, o)
		eo.Grouped = false
		want, err := engine.Grep(eo, nil)
		if err != nil {
			t.Fatal(err)
		}
		same(t, "GrepResult", got, want)
		if !reflect.DeepEqual(streamed, got.Matches) {
			t.Errorf("OnMatch saw %+v, Matches are %+v", streamed, got.Matches)
		}
	}
	// The first case's first match, by hand: the test above is not vacuous.
	got, _ := Grep(ctx, GrepOptions{Pattern: "hit", Path: dir, Context: Int(1), MaxColumns: Int(20)})
	m := got.Matches[0]
	if m.Path != "a.txt" || m.LineNumber != 3 || !m.Truncated || len(m.Line) != 20 ||
		!reflect.DeepEqual(m.ContextBefore, []ContextLine{{2, "two"}}) ||
		!reflect.DeepEqual(m.ContextAfter, []ContextLine{{4, "three"}}) || m.MatchCount != nil {
		t.Errorf("first match %+v", m)
	}
	// A match's context is a window of one shared slice: appending to it
	// must not overwrite the next match's.
	before := got.Matches[1].ContextBefore[0]
	_ = append(m.ContextAfter, ContextLine{99, "appended"})
	if got.Matches[1].ContextBefore[0] != before {
		t.Errorf("an append to one match's context changed the next: %+v", got.Matches[1].ContextBefore)
	}
}

// TestConvertOthersKeepEveryField: Glob (with mtime and size), FuzzyFind,
// ListWorkspace and the statistics keep every field of the engine's.
func TestConvertOthersKeepEveryField(t *testing.T) {
	dir := convTree(t)
	ctx := context.Background()
	// a.txt's mtime has a sub-millisecond part: Mtime is the float64 that
	// pi-natives 18.2.3 reports for it.
	at := time.Unix(1767225600, 5_100_001)
	if err := os.Chtimes(filepath.Join(dir, "a.txt"), at, at); err != nil {
		t.Fatal(err)
	}
	g, err := Glob(ctx, GlobOptions{Pattern: "*", Path: dir, SortByMtime: true})
	if err != nil {
		t.Fatal(err)
	}
	eg, err := engine.Glob(engine.GlobOptions{Pattern: "*", Path: dir, SortByMtime: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "GlobResult", g, eg)
	for _, m := range g.Matches {
		if m.Mtime <= 0 || (m.FileType == File) != (m.Size > 0) {
			t.Errorf("glob match %+v: want an mtime, and a size for files only", m)
		}
		if m.Path == "a.txt" && m.Mtime != 1767225600005.1 {
			t.Errorf("a.txt: Mtime %v, want 1767225600005.1", m.Mtime)
		}
	}
	g, _ = Glob(ctx, GlobOptions{Pattern: "*", Path: dir})
	for _, m := range g.Matches {
		if m.Mtime != -1 || m.Size != -1 {
			t.Errorf("glob match %+v without SortByMtime: want Mtime and Size -1", m)
		}
	}
	f, err := FuzzyFind(ctx, FuzzyFindOptions{Query: "btxt", Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	ef, _ := engine.FuzzyFind(engine.FuzzyFindOptions{Query: "btxt", Path: dir})
	same(t, "FuzzyFindResult", f, ef)
	if len(f.Matches) == 0 {
		t.Errorf("fuzzyFind found nothing")
	}
	os.WriteFile(filepath.Join(dir, "sub", "AGENTS.md"), []byte("x\n"), 0o644)
	lo := ListWorkspaceOptions{Path: dir, MaxDepth: 2, CollectAgentsMd: true}
	l, err := ListWorkspace(ctx, lo)
	if err != nil {
		t.Fatal(err)
	}
	el, _ := engine.ListWorkspace(engine.ListWorkspaceOptions{Path: dir, MaxDepth: 2, CollectAgentsMd: true})
	same(t, "ListWorkspaceResult", l, el)
	if len(l.Entries) != 4 || len(l.AgentsMdFiles) != 1 {
		t.Errorf("listWorkspace: %+v", l)
	}
	cs := engine.CacheStats()
	cs.Fallbacks["x"], cs.RefreshTime = 1, time.Second // values that show
	same(t, "Stats", cacheStats(&cs), cs)
	is := engine.IndexStats()
	is.Roots, is.BuildTime = 2, time.Second
	same(t, "IndexStats", indexStats(&is), is)
}

// TestConvertEmpty: the slices of empty results are empty, not nil.
func TestConvertEmpty(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	g, _ := Glob(ctx, GlobOptions{Pattern: "*.none", Path: dir})
	f, _ := FuzzyFind(ctx, FuzzyFindOptions{Query: "none", Path: dir})
	r, _ := Grep(ctx, GrepOptions{Pattern: "none", Path: dir})
	l, _ := ListWorkspace(ctx, ListWorkspaceOptions{Path: dir, MaxDepth: 1})
	if g.Matches == nil || f.Matches == nil || r.Matches == nil || l.Entries == nil || l.AgentsMdFiles == nil {
		t.Errorf("nil slices: %#v %#v %#v %#v", g, f, r, l)
	}
}

// TestConvertError: every function's errors are *Error with the engine's
// code and message.
func TestConvertError(t *testing.T) {
	ctx := context.Background()
	_, err := Grep(ctx, GrepOptions{Pattern: "[a-", Path: "."})
	_, want := engine.Grep(engine.GrepOptions{Pattern: "[a-", Path: "."}, nil)
	var e *Error
	var ew *engine.Error
	if !errors.As(err, &e) || !errors.As(want, &ew) {
		t.Fatalf("errors %T %v, %T %v", err, err, want, want)
	}
	same(t, "Error", *e, *ew)
	if e.Code != CodeInvalidRegex || err.Error() != ew.Message {
		t.Errorf("got %q %q", e.Code, err.Error())
	}
	_, err = Glob(ctx, GlobOptions{Pattern: "*", Path: filepath.Join(t.TempDir(), "gone")})
	if !errors.As(err, &e) || e.Code != CodePathNotFound {
		t.Errorf("glob of a missing directory: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = ListWorkspace(cctx, ListWorkspaceOptions{Path: ".", MaxDepth: 1})
	if !errors.As(err, &e) || e.Code != CodeAborted {
		t.Errorf("cancelled listWorkspace: %v", err)
	}
	if err := publicError(errors.New("boom")); !errors.As(err, &e) || e.Code != CodeInternal || e.Message != "boom" {
		t.Errorf("other error: %#v", err)
	}
}

// TestConstantsMatchEngine: the public constants have the engine's values.
func TestConstantsMatchEngine(t *testing.T) {
	for _, c := range []struct{ pub, eng any }{
		{File, walk.File}, {Dir, walk.Dir}, {Symlink, walk.Symlink},
		{ModeContent, engine.ModeContent}, {ModeCount, engine.ModeCount},
		{ModeFilesWithMatches, engine.ModeFilesWithMatches},
		{CodePathNotFound, engine.CodePathNotFound}, {CodeNotADirectory, engine.CodeNotADirectory},
		{CodeInvalidGlob, engine.CodeInvalidGlob}, {CodeInvalidRegex, engine.CodeInvalidRegex},
		{CodeTimeout, engine.CodeTimeout}, {CodeAborted, engine.CodeAborted},
		{CodeInvalidOptions, engine.CodeInvalidOptions}, {CodeInternal, engine.CodeInternal},
	} {
		same(t, reflect.TypeOf(c.pub).Name(), c.pub, c.eng)
	}
}

// TestTypesDeclaredInCore: no exported type of the package is an alias,
// and every exported field of its structs has a doc comment.
func TestTypesDeclaredInCore(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range pkgs["core"].Files {
		ast.Inspect(f, func(node ast.Node) bool {
			ts, ok := node.(*ast.TypeSpec)
			if !ok || !ts.Name.IsExported() {
				return true
			}
			n++
			if ts.Assign.IsValid() {
				t.Errorf("%s is an alias", ts.Name.Name)
			}
			if st, ok := ts.Type.(*ast.StructType); ok {
				for _, fl := range st.Fields.List {
					for _, name := range fl.Names {
						if name.IsExported() && (fl.Doc == nil || len(fl.Names) > 1) {
							t.Errorf("%s.%s has no doc comment of its own", ts.Name.Name, name.Name)
						}
					}
				}
			}
			return false
		})
	}
	if n < 19 {
		t.Errorf("%d exported types, want at least 19", n)
	}
}
