package readcache

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/diff"
)

// The object store under concurrent sessions (issue 45 item 8): several
// processes read, edit, prune and damage one store and one working tree
// at once. Each keeps what its model has seen of each file (the text of
// its full reads, with the diffs it was served applied) and checks every
// answer against it: a marker only for the content seen, a diff that
// turns what was seen into a real version of the file whose hash is the
// one served, a full answer that is a real version; no error, no store
// error. Pruning and damage make bases go missing under other processes'
// reads; those reads must fall back to full.
//
// The run takes FSCACHE_READCACHE_SOAK (a Go duration; default 2s) and at
// least concurrentMinIters operations per process, whichever is longer;
// `make readcache-soak` runs it for a minute.

const (
	concurrentProcs    = 4
	concurrentFiles    = 6
	concurrentMinIters = 150
	helperEnv          = "FSCACHE_READCACHE_CONCURRENT_HELPER"
)

// concurrentStats are one process's counts, printed as JSON.
type concurrentStats struct {
	Reads, Unchanged, Diffs, Full, BaseMissing, NotUseful int
	Edits, Prunes, Damages, Iters                         int
	Failures                                              []string
}

// versionOf is the content of version seed of file name: a header line
// naming both, then lines of which about one in 60 differs by seed.
func versionOf(name string, seed int64) string {
	h := fnv.New64a()
	h.Write([]byte(name))
	r := rand.New(rand.NewSource(seed ^ int64(h.Sum64())))
	var b strings.Builder
	fmt.Fprintf(&b, "%s v%d\n", name, seed)
	n := 300 + int(h.Sum64()%200)
	for i := 1; i <= n; i++ {
		if r.Intn(60) == 0 {
			fmt.Fprintf(&b, "edited line %d: %d\n", i, r.Int63())
		} else {
			fmt.Fprintf(&b, "line %d of %s, as it was\n", i, name)
		}
	}
	return b.String()
}

// validVersion: text is some version of name, whole.
func validVersion(name, text string) bool {
	head, _, ok := strings.Cut(text, "\n")
	if !ok || !strings.HasPrefix(head, name+" v") {
		return false
	}
	seed, err := strconv.ParseInt(strings.TrimPrefix(head, name+" v"), 10, 64)
	return err == nil && versionOf(name, seed) == text
}

func TestStoreConcurrentSessions(t *testing.T) {
	dur := 2 * time.Second
	if s := os.Getenv("FSCACHE_READCACHE_SOAK"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("FSCACHE_READCACHE_SOAK=%q: %v", s, err)
		}
		dur = d
	}
	root := t.TempDir()
	work, store := filepath.Join(root, "work"), filepath.Join(root, "store")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range concurrentFiles {
		name := fmt.Sprintf("f%d.txt", i)
		if err := os.WriteFile(filepath.Join(work, name), []byte(versionOf(name, 0)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type proc struct {
		cmd    *exec.Cmd
		out    bytes.Buffer
		stderr bytes.Buffer
	}
	procs := make([]*proc, concurrentProcs)
	for i := range procs {
		p := &proc{cmd: exec.Command(os.Args[0], "-test.run=^TestStoreConcurrentHelper$", "-test.count=1")}
		p.cmd.Env = append(os.Environ(), helperEnv+"="+strings.Join([]string{work, store, strconv.Itoa(i), dur.String()}, "|"))
		p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.stderr
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs[i] = p
	}
	var total concurrentStats
	for i, p := range procs {
		err := p.cmd.Wait()
		var st *concurrentStats
		sc := bufio.NewScanner(&p.out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if line, ok := strings.CutPrefix(sc.Text(), "STATS "); ok {
				st = new(concurrentStats)
				if jerr := json.Unmarshal([]byte(line), st); jerr != nil {
					t.Fatalf("process %d: %v", i, jerr)
				}
			}
		}
		if err != nil || st == nil {
			t.Fatalf("process %d: %v, no stats\nstdout:\n%s\nstderr:\n%s", i, err, p.out.String(), p.stderr.String())
		}
		for _, f := range st.Failures {
			t.Errorf("process %d: %s", i, f)
		}
		t.Logf("process %d: %+v", i, *st)
		total.Reads += st.Reads
		total.Unchanged += st.Unchanged
		total.Diffs += st.Diffs
		total.BaseMissing += st.BaseMissing
		total.Prunes += st.Prunes
		total.Damages += st.Damages
		total.Edits += st.Edits
	}
	// The run did what it is for: every kind of answer and of disturbance.
	if total.Unchanged == 0 || total.Diffs == 0 || total.BaseMissing == 0 || total.Prunes == 0 || total.Damages == 0 || total.Edits == 0 {
		t.Errorf("the run did not exercise the store: %+v", total)
	}
}

// TestStoreConcurrentHelper is one process of TestStoreConcurrentSessions
// (it does nothing unless that test started it).
func TestStoreConcurrentHelper(t *testing.T) {
	arg := os.Getenv(helperEnv)
	if arg == "" {
		return
	}
	parts := strings.Split(arg, "|")
	if len(parts) != 4 {
		t.Fatalf("%s=%q", helperEnv, arg)
	}
	id, _ := strconv.Atoi(parts[2])
	dur, _ := time.ParseDuration(parts[3])
	st := concurrentWorker(parts[0], parts[1], id, dur)
	b, _ := json.Marshal(st)
	fmt.Printf("STATS %s\n", b)
}

// concurrentWorker runs one process's operations on work and store.
func concurrentWorker(work, store string, id int, dur time.Duration) concurrentStats {
	var st concurrentStats
	fail := func(format string, args ...any) {
		if len(st.Failures) < 20 {
			st.Failures = append(st.Failures, fmt.Sprintf(format, args...))
		}
	}
	rng := rand.New(rand.NewSource(int64(id)*7919 + time.Now().UnixNano()))
	seen := map[string]string{} // file -> the text its model has seen
	deadline := time.Now().Add(dur)
	for ; st.Iters < concurrentMinIters || time.Now().Before(deadline); st.Iters++ {
		name := fmt.Sprintf("f%d.txt", rng.Intn(concurrentFiles))
		switch op := rng.Intn(100); {
		case op < 60:
			st.Reads++
			o := Options{ResolveOptions: ResolveOptions{Path: name, Cwd: work}, StoreDir: store}
			if v, ok := seen[name]; ok {
				o.PathKey = filepath.Join(work, name)
				if real, err := filepath.EvalSymlinks(o.PathKey); err == nil {
					o.PathKey = real
				}
				o.Bases = map[string]string{"full": sha([]byte(v))}
			}
			r, err := Read(o)
			if err != nil {
				fail("read %s: error %v", name, err)
				continue
			}
			if r.StoreError != "" {
				fail("read %s: store error %s", name, r.StoreError)
			}
			if r.Meta == nil {
				fail("read %s: mode %s (%s), no meta", name, r.Mode, r.Reason)
				continue
			}
			var now string
			switch r.Mode {
			case ModeUnchanged:
				st.Unchanged++
				now = seen[name]
			case ModeDiff:
				st.Diffs++
				_, patch, _ := strings.Cut(r.Text, "\n")
				got, err := diff.Apply(seen[name], patch)
				if err != nil {
					fail("read %s: the diff does not apply to what was seen: %v", name, err)
					delete(seen, name)
					continue
				}
				now = got
			case ModeFull, ModeFullFallback:
				st.Full++
				switch r.Reason {
				case "base_missing":
					st.BaseMissing++
				case "diff_not_useful":
					st.NotUseful++
				}
				now = r.Text
			default:
				fail("read %s: mode %s (%s)", name, r.Mode, r.Reason)
				continue
			}
			if sha([]byte(now)) != r.Meta.ServedHash || !validVersion(name, now) {
				fail("read %s: mode %s served content that is not the file's (hash %s)", name, r.Mode, r.Meta.ServedHash[:12])
				delete(seen, name)
				continue
			}
			seen[name] = now
		case op < 80:
			// An edit, written as editors do (a temporary file renamed over).
			st.Edits++
			tmp := filepath.Join(work, fmt.Sprintf(".%s.%d.tmp", name, id))
			if err := os.WriteFile(tmp, []byte(versionOf(name, rng.Int63n(1<<40)+1)), 0o644); err != nil {
				fail("edit %s: %v", name, err)
				continue
			}
			if err := os.Rename(tmp, filepath.Join(work, name)); err != nil {
				fail("edit %s: %v", name, err)
			}
		case op < 90:
			// Pruning down to a few objects' worth, as a store over its
			// bound is pruned (and everything, now and then).
			st.Prunes++
			s, err := openStore(store)
			if err != nil {
				fail("prune: %v", err)
				continue
			}
			s.prune(time.Now(), 1+rng.Int63n(150000), 0)
		case op < 95:
			// Damage: an object overwritten in place or cut short, as a
			// crash or a stray tool might leave it.
			ents, err := os.ReadDir(filepath.Join(store, "objects"))
			if err != nil || len(ents) == 0 {
				continue
			}
			p := filepath.Join(store, "objects", ents[rng.Intn(len(ents))].Name())
			f, err := os.OpenFile(p, os.O_WRONLY, 0)
			if err != nil {
				continue // pruned meanwhile
			}
			st.Damages++
			if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
				if rng.Intn(2) == 0 {
					_, _ = f.WriteAt([]byte("DAMAGED"), rng.Int63n(fi.Size()))
				} else {
					_ = f.Truncate(fi.Size() / 2)
				}
			}
			_ = f.Close()
		default:
			// The status command's count, beside the others' writes.
			if _, err := StoreStats(store); err != nil {
				fail("store stats: %v", err)
			}
		}
	}
	return st
}
