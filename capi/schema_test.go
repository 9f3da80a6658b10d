//go:build cgo

package main

// The option schema (schema/options.json) against the Go side: what capi
// decodes, internal/engine's option structs, the public package's option
// structs and their doc comments, and the option tables of
// include/fscache.h. bindings/node/test/schema.test.mjs checks index.d.ts
// and index.cjs against the same file.

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/fscache/fscache/core"
	"github.com/fscache/fscache/internal/engine"
	"github.com/fscache/fscache/internal/readcache"
)

type schemaField struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Required bool   `json:"required"`
	Default  any    `json:"default"` // nil: no single default value
}

type schemaInterface struct {
	Name   string        `json:"name"`
	JS     string        `json:"js"`
	C      string        `json:"c"`
	Fields []schemaField `json:"fields"`
}

func loadSchema(t *testing.T) []schemaInterface {
	t.Helper()
	b, err := os.ReadFile("../schema/options.json")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Comment    []string          `json:"$comment"`
		Interfaces []schemaInterface `json:"interfaces"`
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("schema/options.json: %v", err)
	}
	if len(s.Interfaces) != 7 {
		t.Fatalf("schema/options.json: %d interfaces, want 7", len(s.Interfaces))
	}
	return s.Interfaces
}

// goName is the Go field of a JSON field: pattern -> Pattern.
func goName(field string) string { return strings.ToUpper(field[:1]) + field[1:] }

// goFields are the Go fields a schema has no entry for: the public
// package's callbacks, the engine's cancellation (signal and timeoutMs in
// JSON) and its Grouped switch for encoders.
var goFields = map[string]bool{"OnMatch": true, "Cancel": true, "Aborted": true, "Grouped": true}

// wantGoType is the Go type a field must have, by its schema entry:
// optional values are pointers (nil: absent) but for booleans whose
// default is false, strings ("" is absent) and the enums (0 is absent, or
// ModeContent).
func wantGoType(f schemaField) string {
	switch f.Type {
	case "string":
		return "string"
	case "boolean":
		if f.Default == false {
			return "bool"
		}
		return "*bool"
	case "number":
		switch {
		case f.Name == "timeoutMs":
			return "*int64"
		case f.Required:
			return "uint32"
		}
		return "*int"
	case "FileType":
		return "FileType"
	case "GrepOutputMode":
		return "GrepMode"
	case "integer":
		return "*int"
	case "size":
		return "int64"
	case "StringMap":
		return "map[string]string"
	case "StringArray":
		return "[]string"
	case "LineCount":
		return "string"
	}
	return "?" + f.Type
}

func goTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + goTypeName(t.Elem())
	case reflect.Map, reflect.Slice:
		return t.String()
	}
	return t.Name()
}

// exportedFields lists the exported fields of t, through embedded structs
// (whose own names are not listed).
func exportedFields(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, exportedFields(f.Type)...)
			continue
		}
		out = append(out, f.Name)
	}
	return out
}

var (
	// The read cache's engine options are what capi decodes into:
	// readcache's structs, with the timeout beside them.
	engineOptions = map[string]reflect.Type{
		"GlobOptions":             reflect.TypeFor[engine.GlobOptions](),
		"FuzzyFindOptions":        reflect.TypeFor[engine.FuzzyFindOptions](),
		"GrepOptions":             reflect.TypeFor[engine.GrepOptions](),
		"ListWorkspaceOptions":    reflect.TypeFor[engine.ListWorkspaceOptions](),
		"ReadCacheOptions":        reflect.TypeFor[readCacheOptions](),
		"ReadCacheResolveOptions": reflect.TypeFor[readcache.ResolveOptions](),
		"ReadCacheStoreOptions":   reflect.TypeFor[readCacheStoreOptions](),
	}
	// ReadCacheStoreOptions has no public struct: core.ReadCacheStore
	// takes the directory itself.
	publicOptions = map[string]reflect.Type{
		"GlobOptions":             reflect.TypeFor[core.GlobOptions](),
		"FuzzyFindOptions":        reflect.TypeFor[core.FuzzyFindOptions](),
		"GrepOptions":             reflect.TypeFor[core.GrepOptions](),
		"ListWorkspaceOptions":    reflect.TypeFor[core.ListWorkspaceOptions](),
		"ReadCacheOptions":        reflect.TypeFor[core.ReadCacheOptions](),
		"ReadCacheResolveOptions": reflect.TypeFor[core.ReadCacheResolveOptions](),
	}
	noPublicStruct = map[string]bool{"ReadCacheStoreOptions": true}
)

// TestSchemaGoStructs: internal/engine's and the public package's option
// structs have a field of the expected type for each field of the schema
// (signal aside), and no other field but those of goFields.
func TestSchemaGoStructs(t *testing.T) {
	for _, it := range loadSchema(t) {
		for side, types := range map[string]map[string]reflect.Type{"engine": engineOptions, "fscache": publicOptions} {
			st := types[it.Name]
			if st == nil {
				if side != "fscache" || !noPublicStruct[it.Name] {
					t.Errorf("%s.%s: no such struct", side, it.Name)
				}
				continue
			}
			known := map[string]bool{}
			for _, f := range it.Fields {
				if f.Type == "AbortSignal" {
					continue
				}
				known[goName(f.Name)] = true
				sf, ok := st.FieldByName(goName(f.Name))
				if !ok {
					t.Errorf("%s.%s has no field %s (%s)", side, it.Name, goName(f.Name), f.Name)
					continue
				}
				if got, want := goTypeName(sf.Type), wantGoType(f); got != want {
					t.Errorf("%s.%s.%s is %s, want %s (schema: %s, required %v, default %v)",
						side, it.Name, sf.Name, got, want, f.Type, f.Required, f.Default)
				}
			}
			for _, name := range exportedFields(st) {
				if !known[name] && !goFields[name] {
					t.Errorf("%s.%s.%s is not in schema/options.json", side, it.Name, name)
				}
			}
		}
	}
	// The default mode is the zero GrepMode, in both packages.
	if engine.ModeContent != 0 || core.ModeContent != 0 {
		t.Errorf("ModeContent is not the zero GrepMode")
	}
}

// decoders decode each interface's JSON into its engine struct.
var decoders = map[string]func(string) (any, error){
	"GlobOptions":          func(js string) (any, error) { return decodeGlob(js, nil) },
	"FuzzyFindOptions":     func(js string) (any, error) { return decodeFuzzy(js, nil) },
	"GrepOptions":          func(js string) (any, error) { return decodeGrep(js, nil) },
	"ListWorkspaceOptions": func(js string) (any, error) { return decodeListWorkspace(js, nil) },
	"ReadCacheOptions":     func(js string) (any, error) { return decodeReadCache(js, nil) },
	"ReadCacheResolveOptions": func(js string) (any, error) {
		return decodeReadCacheResolve(js)
	},
	"ReadCacheStoreOptions": func(js string) (any, error) { return decodeReadCacheStore(js) },
}

// requiredJSON is a valid value for each required field.
func requiredJSON(it schemaInterface) map[string]any {
	m := map[string]any{}
	for _, f := range it.Fields {
		if f.Required {
			if f.Type == "string" {
				m[f.Name] = "x"
			} else {
				m[f.Name] = 1
			}
		}
	}
	return m
}

func decodeWith(t *testing.T, it schemaInterface, fields map[string]any) (reflect.Value, error) {
	t.Helper()
	js, err := json.Marshal(fields)
	if err != nil {
		t.Fatal(err)
	}
	v, err := decoders[it.Name](string(js))
	return reflect.ValueOf(v), err
}

// fieldValue reads the Go value of a schema field from a decoded struct:
// pointers are dereferenced (nil for absent), enums become integers.
func fieldValue(v reflect.Value, name string) any {
	f := v.FieldByName(goName(name))
	if f.Kind() == reflect.Pointer {
		if f.IsNil() {
			return nil
		}
		f = f.Elem()
	}
	switch f.Kind() {
	case reflect.Map, reflect.Slice:
		return f.Interface()
	case reflect.Int, reflect.Int64, reflect.Uint8, reflect.Uint32:
		if f.CanInt() {
			return f.Int()
		}
		return int64(f.Uint())
	}
	return f.Interface()
}

// TestSchemaDecode: capi reads every field of the schema, with its type,
// requiredness and absent value, and reads nothing else: a value of the
// wrong type is an error naming the field, a required field's absence
// too, null is absent, and a valid value arrives in the engine's field.
func TestSchemaDecode(t *testing.T) {
	modes := map[string]int64{"content": int64(engine.ModeContent), "count": int64(engine.ModeCount),
		"filesWithMatches": int64(engine.ModeFilesWithMatches)}
	for _, it := range loadSchema(t) {
		base := requiredJSON(it)
		absent, err := decodeWith(t, it, base)
		if err != nil {
			t.Fatalf("%s: %v", it.Name, err)
		}
		for _, f := range it.Fields {
			where := it.Name + "." + f.Name
			with := func(v any) map[string]any {
				m := map[string]any{}
				for k, x := range base {
					m[k] = x
				}
				m[f.Name] = v
				return m
			}
			if f.Type == "AbortSignal" {
				// Ignored by the C ABI: cancellation is its own argument.
				if _, err := decodeWith(t, it, with(map[string]any{"aborted": true})); err != nil {
					t.Errorf("%s: %v", where, err)
				}
				continue
			}
			if f.Required {
				m := with(nil)
				delete(m, f.Name)
				if _, err := decodeWith(t, it, m); err == nil || !strings.Contains(err.Error(), where+": missing") {
					t.Errorf("%s absent: error %v, want %q", where, err, where+": missing ...")
				}
			} else {
				// Absent and null read as the zero value: nil, false, "",
				// or the zero enum, which the engine reads as the default.
				if !absent.FieldByName(goName(f.Name)).IsZero() {
					t.Errorf("%s absent: %v, want the zero value", where, fieldValue(absent, f.Name))
				}
				if v, err := decodeWith(t, it, with(nil)); err != nil || !v.FieldByName(goName(f.Name)).IsZero() {
					t.Errorf("%s null: %v, err %v; want absent", where, fieldValue(v, f.Name), err)
				}
			}
			var valid, want, wrong any
			var more [][2]any // further valid values and what the engine gets
			switch f.Type {
			case "string":
				valid, want, wrong = "v", "v", 1
			case "boolean":
				valid, want, wrong = f.Default != true, f.Default != true, "true"
			case "number":
				valid, want, wrong = 7.9, int64(7), "7"
			case "FileType":
				valid, want, wrong = 2, int64(2), "dir"
			case "GrepOutputMode":
				valid, want, wrong = "count", modes["count"], 1
			case "integer":
				valid, want, wrong = 7.9, int64(7), "7"
				more = [][2]any{{0, int64(0)}, {-3, int64(-3)}, {-2.5, int64(-2)}, {1e12, int64(math.MaxInt32)}, {-1e12, int64(math.MinInt32)}}
			case "size":
				valid, want, wrong = 7.9, int64(7), "7"
				more = [][2]any{{0, int64(0)}, {1e300, int64(1 << 53)}, {1 << 40, int64(1 << 40)}}
			case "StringMap":
				valid, want, wrong = map[string]any{"full": "h1", "r:1:2": "h2"}, map[string]string{"full": "h1", "r:1:2": "h2"}, []any{"h"}
				more = [][2]any{{map[string]any{}, map[string]string{}}}
			case "StringArray":
				valid, want, wrong = []any{"*.pem", ".env*"}, []string{"*.pem", ".env*"}, "*.pem"
				more = [][2]any{{[]any{}, []string{}}}
			case "LineCount":
				valid, want, wrong = "lines", "lines", 1
				more = [][2]any{{"split", "split"}}
				if _, err := decodeWith(t, it, with("Lines")); err == nil || !strings.HasPrefix(err.Error(), where+": ") {
					t.Errorf("%s = \"Lines\": error %v, want one naming %s", where, err, where)
				}
			default:
				t.Fatalf("%s: unknown type %q", where, f.Type)
			}
			for _, vw := range append([][2]any{{valid, want}}, more...) {
				v, err := decodeWith(t, it, with(vw[0]))
				if err != nil {
					t.Errorf("%s = %v: %v", where, vw[0], err)
				} else if got := fieldValue(v, f.Name); !reflect.DeepEqual(got, vw[1]) {
					t.Errorf("%s = %v: engine field %s = %#v (%T), want %#v", where, vw[0], goName(f.Name), got, got, vw[1])
				}
			}
			if _, err := decodeWith(t, it, with(wrong)); err == nil || !strings.HasPrefix(err.Error(), where+": ") {
				t.Errorf("%s = %#v: error %v, want one naming %s", where, wrong, err, where)
			}
			if f.Type == "number" || f.Type == "size" {
				if _, err := decodeWith(t, it, with(-1)); err == nil || !strings.HasPrefix(err.Error(), where+": ") {
					t.Errorf("%s = -1: error %v, want one naming %s", where, err, where)
				}
			}
			// The elements of a map or an array are strings.
			var badElem any
			switch f.Type {
			case "StringMap":
				badElem = map[string]any{"full": 1}
			case "StringArray":
				badElem = []any{"a", 1}
			case "string":
				badElem = "a\x00b"
			}
			if badElem != nil {
				if _, err := decodeWith(t, it, with(badElem)); err == nil || !strings.HasPrefix(err.Error(), where+": ") {
					t.Errorf("%s = %#v: error %v, want one naming %s", where, badElem, err, where)
				}
			}
		}
		// Nothing but the schema's fields is read.
		m := requiredJSON(it)
		m["unknownField"] = []any{1}
		if _, err := decodeWith(t, it, m); err != nil {
			t.Errorf("%s with an unknown field: %v", it.Name, err)
		}
	}
}

// defaultText is how the docs write a default: "default true", "default
// 100", "default ModeContent" (Go) for the mode.
func defaultText(f schemaField, mode string) string {
	if s, ok := f.Default.(string); ok && f.Type == "GrepOutputMode" {
		return mode + strings.ToUpper(s[:1]) + s[1:]
	}
	return fmt.Sprint(f.Default)
}

// TestSchemaPublicDocs: every field of the public option structs is
// documented, and the doc of a field with a default states it ("default
// true", "default 100", "default ModeContent").
func TestSchemaPublicDocs(t *testing.T) {
	fset := token.NewFileSet()
	docs := map[string]map[string]string{} // struct -> field -> doc
	for _, name := range []string{"../core/ops.go", "../core/readcache.go"} {
		file, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		collectFieldDocs(file, docs)
	}
	for _, it := range loadSchema(t) {
		if noPublicStruct[it.Name] {
			continue
		}
		fields, ok := docs[it.Name]
		if !ok {
			t.Errorf("core declares no %s", it.Name)
			continue
		}
		for _, f := range it.Fields {
			if f.Type == "AbortSignal" {
				continue
			}
			doc := strings.Join(strings.Fields(fields[goName(f.Name)]), " ")
			switch {
			case doc == "":
				t.Errorf("core.%s.%s has no doc comment", it.Name, goName(f.Name))
			case f.Default != nil && !regexp.MustCompile(`(?i)\bdefault:? `+regexp.QuoteMeta(defaultText(f, "Mode"))+`\b`).MatchString(doc):
				t.Errorf("core.%s.%s: its doc does not say \"default %s\": %q", it.Name, goName(f.Name), defaultText(f, "Mode"), doc)
			}
		}
	}
}

// collectFieldDocs records the doc comment of each field of each struct
// type of file in docs (struct -> field -> doc).
func collectFieldDocs(file *ast.File, docs map[string]map[string]string) {
	ast.Inspect(file, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok {
			return true
		}
		st, ok := ts.Type.(*ast.StructType)
		if !ok {
			return false
		}
		docs[ts.Name.Name] = map[string]string{}
		for _, f := range st.Fields.List {
			for _, name := range f.Names {
				docs[ts.Name.Name][name.Name] = f.Doc.Text()
			}
		}
		return false
	})
}

// TestSchemaHeader: include/fscache.h's option tables list, for each C
// function, the schema's fields (signal aside) in order, with their JSON
// type and "required", the default, or "-".
func TestSchemaHeader(t *testing.T) {
	b, err := os.ReadFile("../include/fscache.h")
	if err != nil {
		t.Fatal(err)
	}
	heading := regexp.MustCompile(`^ \*   (fscache_\w+), (\w+Options):$`)
	row := regexp.MustCompile(`^ \*     (\w+) +(string|bool|number|object|array) +(\S.*)$`)
	tables := map[string][]string{} // "fscache_glob, GlobOptions" -> rows
	var cur string
	for _, line := range strings.Split(string(b), "\n") {
		if m := heading.FindStringSubmatch(line); m != nil {
			cur = m[1] + ", " + m[2]
			tables[cur] = []string{}
			continue
		}
		if m := row.FindStringSubmatch(line); m != nil && cur != "" {
			tables[cur] = append(tables[cur], m[1]+" "+m[2]+" "+m[3])
			continue
		}
		cur = ""
	}
	jsonType := map[string]string{"string": "string", "boolean": "bool", "number": "number",
		"FileType": "number", "GrepOutputMode": "string", "integer": "number", "size": "number",
		"StringMap": "object", "StringArray": "array", "LineCount": "string"}
	for _, it := range loadSchema(t) {
		key := it.C + ", " + it.Name
		got, ok := tables[key]
		if !ok {
			t.Errorf("fscache.h has no option table %q", key)
			continue
		}
		var want []string
		for _, f := range it.Fields {
			if f.Type == "AbortSignal" {
				continue
			}
			d := "-"
			switch {
			case f.Required:
				d = "required"
			case f.Default != nil:
				j, _ := json.Marshal(f.Default)
				d = string(j)
			}
			want = append(want, f.Name+" "+jsonType[f.Type]+" "+d)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("fscache.h, %s:\n got %q\nwant %q", key, got, want)
		}
	}
	if len(tables) != 7 {
		t.Errorf("fscache.h has %d option tables, want 7", len(tables))
	}
}
