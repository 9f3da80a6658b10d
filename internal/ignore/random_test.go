package ignore

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

var (
	randNames = []string{
		"a", "b", "ab", "abc", "src", "build", "lib", "foo", "bar", "foo.bar", "Foo",
		"x.log", "y.txt", "z.tar.gz", ".env", ".hidden", ".cfg.yml", "a b", "[x]", "#c",
		"!d", "é", "é.txt", "q?", "a.b.c", "out", "gen", "test_1", "-", "a-z",
	}
	randSegs = []string{
		"*", "**", "?", "a", "b", "ab", "src", "build", "foo", "bar", "*.log", "*.txt",
		"x.*", "*.b*", "a*", "*b", "[ab]", "[!a]*", "[a-c]*", "{a,b}", "{foo,bar}*", ".*",
		"*.{log,txt}", "\\#c", "\\!d", "é*", "?.txt", "a?", "[^x]", "a[!b]c", "out",
		"gen", "*_1", "[]x]", "[-]", "z.tar.gz", "**.log", "a**",
	}
)

func randPattern(r *rand.Rand) string {
	var b strings.Builder
	if r.Intn(4) == 0 {
		b.WriteByte('!')
	}
	if r.Intn(5) == 0 {
		b.WriteByte('/')
	}
	n := 1 + r.Intn(3)
	if r.Intn(2) == 0 {
		n = 1
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(randSegs[r.Intn(len(randSegs))])
	}
	if r.Intn(4) == 0 {
		b.WriteByte('/')
	}
	if r.Intn(15) == 0 {
		b.WriteString("  ")
	}
	return b.String()
}

func randRules(r *rand.Rand) string {
	var lines []string
	for i, n := 0, 1+r.Intn(6); i < n; i++ {
		lines = append(lines, randPattern(r))
	}
	if r.Intn(6) == 0 {
		lines = append(lines, "# comment")
	}
	return strings.Join(lines, "\n") + "\n"
}

// randTree builds a random fixture below base and returns the
// directories it made (relative, "" for base).
func randTree(t testing.TB, r *rand.Rand, base string) []string {
	dirs := []string{""}
	var specs []string
	var grow func(rel string, depth int)
	grow = func(rel string, depth int) {
		for i, n := 0, 2+r.Intn(5); i < n; i++ {
			name := randNames[r.Intn(len(randNames))]
			p := name
			if rel != "" {
				p = rel + "/" + name
			}
			if depth < 3 && r.Intn(3) == 0 {
				specs = append(specs, p+"/")
				dirs = append(dirs, p)
				grow(p, depth+1)
			} else {
				specs = append(specs, p)
			}
		}
	}
	grow("", 0)
	// Files that became directories (or the reverse) make MkdirAll or
	// WriteFile fail; keep the first kind seen.
	seen := map[string]bool{}
	for _, s := range specs {
		name := strings.TrimSuffix(s, "/")
		if seen[name] {
			continue
		}
		seen[name] = true
		p := filepath.Join(base, name)
		if strings.HasSuffix(s, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				continue
			}
		} else if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			continue
		} else {
			os.WriteFile(p, nil, 0o644)
		}
	}
	var real []string
	for _, d := range dirs {
		if fi, err := os.Stat(filepath.Join(base, d)); err == nil && fi.IsDir() {
			real = append(real, d)
		}
	}
	return real
}

func TestRandomAgainstReference(t *testing.T) {
	needReference(t)
	n := 300
	if s := os.Getenv("IGNORE_RANDOM_CASES"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	seed := int64(1)
	if s := os.Getenv("IGNORE_RANDOM_SEED"); s != "" {
		seed, _ = strconv.ParseInt(s, 10, 64)
	}
	isolateEnv(t)
	r := rand.New(rand.NewSource(seed))
	base := tempRoot(t)
	var jobs []refJob
	var descs []string
	for i := 0; i < n; i++ {
		dir := filepath.Join(base, fmt.Sprint("case", i))
		os.MkdirAll(dir, 0o755)
		dirs := randTree(t, r, dir)
		var desc []string
		if r.Intn(4) != 0 {
			d := dirs[r.Intn(len(dirs))]
			os.MkdirAll(filepath.Join(dir, d, ".git/info"), 0o755)
			desc = append(desc, d+"/.git")
			if r.Intn(3) == 0 {
				c := randRules(r)
				os.WriteFile(filepath.Join(dir, d, ".git/info/exclude"), []byte(c), 0o644)
				desc = append(desc, fmt.Sprintf("%s/.git/info/exclude=%q", d, c))
			}
		}
		for k, m := 0, 1+r.Intn(4); k < m; k++ {
			d := dirs[r.Intn(len(dirs))]
			file := ".gitignore"
			if r.Intn(3) == 0 {
				file = ".ignore"
			}
			c := randRules(r)
			os.WriteFile(filepath.Join(dir, d, file), []byte(c), 0o644)
			desc = append(desc, fmt.Sprintf("%s/%s=%q", d, file, c))
		}
		root := dir
		if r.Intn(4) == 0 {
			root = filepath.Join(dir, dirs[r.Intn(len(dirs))])
		}
		jobs = append(jobs, refJob{Root: root, Hidden: r.Intn(3) != 0})
		descs = append(descs, strings.Join(desc, "\n"))
	}
	want := runReferenceBatch(t, jobs)
	fails := 0
	for i, j := range jobs {
		got := testWalk(t, j.Root, walkOpts{hidden: j.Hidden})
		if !reflect.DeepEqual(got, want[i]) {
			fails++
			if fails <= 5 {
				t.Errorf("case %d root=%s hidden=%v\n%s\n got: %s\nwant: %s", i, j.Root, j.Hidden, descs[i],
					strings.Join(got, " | "), strings.Join(want[i], " | "))
			}
		}
	}
	if fails > 0 {
		t.Errorf("%d of %d random cases differ", fails, n)
	}
}
