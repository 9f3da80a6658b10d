package engine

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/idxstore"
	"github.com/fscache/fscache/internal/index"
	"github.com/fscache/fscache/internal/scancache"
	"github.com/fscache/fscache/internal/watch"
)

// Persisted indexes shared by real processes: the test binary runs itself
// (TestDiskIndexChild) as builders killed at any point, and as concurrent
// greppers of one tree and one store.

// The child processes' environment.
const (
	envProcChild = "FSCACHE_DISK_CHILD" // the child's mode: build, grep, loop
	envProcRoot  = "FSCACHE_DISK_ROOT"  // the tree
	envProcDir   = "FSCACHE_DISK_DIR"   // the index store
	envProcEager = "FSCACHE_DISK_EAGER" // "1": eager policy
	envProcWatch = "FSCACHE_DISK_WATCH" // "1": the scan cache watches
	envProcHold  = "FSCACHE_DISK_HOLD"  // "1" (build): stop before publishing, until killed
	envProcFence = "FSCACHE_DISK_FENCE" // N (build): read slowly, and stop after N files, until killed
)

// procSay writes a line of the child protocol on stdout.
func procSay(format string, args ...any) {
	fmt.Fprintf(os.Stdout, "child: "+format+"\n", args...)
}

// procStats is the child's summary of its index statistics, parsed by
// procStat.
func procStats() string {
	s := IndexStats()
	return fmt.Sprintf("published=%d adopted=%d queries=%d untrusted=%d locked=%d builds=%d fails=%d roots=%d fallbacks=%v lasterror=%q",
		s.Persisted.Published, s.Persisted.Adopted, s.Persisted.Queries, s.Persisted.Untrusted,
		s.Fallbacks[idxLocked], s.Builds, s.BuildFailures, s.Roots, s.Fallbacks, s.Persisted.LastError)
}

// procStat returns the number named name in a line of procStats.
func procStat(t *testing.T, line, name string) int64 {
	t.Helper()
	for _, f := range strings.Fields(line) {
		if v, ok := strings.CutPrefix(f, name+"="); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			mustDo(t, err)
			return n
		}
	}
	t.Fatalf("no %s in %q", name, line)
	return 0
}

// TestDiskIndexChild is the body of the tests' child processes: it does
// nothing unless FSCACHE_DISK_CHILD is set. Its lines for the parent start
// with "child: "; a mismatch fails it (exit status 1, the difference on
// stdout).
//
//   - build: greps root once with the eager policy (the build reads every
//     file, saying "file" after each; with FSCACHE_DISK_FENCE slowly, and
//     it stops after that many), says "publish" before it publishes (and
//     stops there with FSCACHE_DISK_HOLD), "done STATS" once it ends, then
//     waits for stdin's end.
//   - grep: greps root once (eager: builds), says "built STATS", then, as
//     a new process that does not build in the call, compares every case
//     of diskCases with an unindexed grep; says "done STATS".
//   - loop: for each line of stdin, compares procLoopCases with unindexed
//     greps and says "ok STATS".
func TestDiskIndexChild(t *testing.T) {
	mode := os.Getenv(envProcChild)
	if mode == "" {
		return
	}
	root, dir := os.Getenv(envProcRoot), os.Getenv(envProcDir)
	eager, watching := os.Getenv(envProcEager) == "1", os.Getenv(envProcWatch) == "1"
	gi := useDiskIndex(t, dir, watching, eager)
	switch mode {
	case "build":
		fence, _ := strconv.Atoi(os.Getenv(envProcFence))
		n := 0
		gi.policy.onFile = func(*cancel.Token) {
			procSay("file")
			if n++; fence > 0 {
				for n >= fence {
					time.Sleep(time.Hour)
				}
				time.Sleep(200 * time.Microsecond)
			}
		}
		hold := os.Getenv(envProcHold) == "1"
		beforePublish = func() {
			procSay("publish")
			for hold {
				time.Sleep(time.Hour)
			}
		}
		t.Cleanup(func() { beforePublish = nil })
		procSay("start")
		_, err := Grep(GrepOptions{Pattern: "alpha", Path: root}, nil)
		mustDo(t, err)
		procSay("done %s", procStats())
		_, _ = io.Copy(io.Discard, os.Stdin)
	case "grep":
		_, err := Grep(GrepOptions{Pattern: "alpha", Path: root}, nil)
		mustDo(t, err)
		procSay("built %s", procStats())
		gi = restart(t, gi, false)
		compareDisk(t, "child", gi, root, true)
		procSay("done %s", procStats())
	case "loop":
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			procCompare(t, sc.Text(), gi, root)
			procSay("ok %s", procStats())
		}
	default:
		t.Fatalf("%s=%q", envProcChild, mode)
	}
}

// procLoopCases are the greps the loop children compare: a third of
// diskCases (every pattern, not every option), to keep the rounds short.
func procLoopCases(root string) []GrepOptions {
	var out []GrepOptions
	for i, o := range diskCases(root) {
		if i%3 == 0 || o.MaxCount != nil {
			out = append(out, o)
		}
	}
	return out
}

// procCompare is compareDisk over procLoopCases, without its check that
// the published index served them (the other process may hold its lock).
func procCompare(t *testing.T, step string, gi *grepIndexes, root string) {
	t.Helper()
	compareDiskCases(t, step, gi, procLoopCases(root), false)
}

// procChild is a running child process.
type procChild struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *procOut
	done chan struct{} // closed once it exited and its output is read
	err  error         // its Wait's, once done
}

// procOut collects a child's output, and passes its protocol lines on.
type procOut struct {
	mu    sync.Mutex
	all   bytes.Buffer
	part  []byte
	lines chan string
}

func (w *procOut) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.all.Write(p)
	w.part = append(w.part, p...)
	for {
		i := bytes.IndexByte(w.part, '\n')
		if i < 0 {
			break
		}
		line := string(w.part[:i])
		w.part = w.part[i+1:]
		if rest, ok := strings.CutPrefix(line, "child: "); ok {
			w.lines <- rest
		}
	}
	return len(p), nil
}

func (w *procOut) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.all.String()
}

// startChild runs TestDiskIndexChild in a new process in mode, on root
// and the store dir, with env added.
func startChild(t *testing.T, mode, root, dir string, env ...string) *procChild {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestDiskIndexChild$", "-test.count=1", "-test.timeout=2m")
	cmd.Env = append(os.Environ(), envProcChild+"="+mode, envProcRoot+"="+root, envProcDir+"="+dir)
	cmd.Env = append(cmd.Env, env...)
	c := &procChild{cmd: cmd, out: &procOut{lines: make(chan string, 1<<14)}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = c.out, c.out
	in, err := cmd.StdinPipe()
	mustDo(t, err)
	c.in = in
	mustDo(t, cmd.Start())
	go func() {
		c.err = cmd.Wait()
		close(c.done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-c.done
	})
	return c
}

// await returns the child's next protocol line that starts with want,
// after counting (in *n, when not nil) the lines "file" it skips; it
// fails when the child exits first.
func (c *procChild) await(t *testing.T, want string, n *int) string {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		var line string
		select {
		case line = <-c.out.lines:
		case <-c.done:
			select {
			case line = <-c.out.lines:
			default:
				t.Fatalf("the child exited (%v) before saying %q:\n%s", c.err, want, c.out)
			}
		case <-timeout:
			t.Fatalf("hang: the child did not say %q in a minute:\n%s", want, c.out)
		}
		if strings.HasPrefix(line, want) {
			return line
		}
		if line == "file" && n != nil {
			*n++
		}
	}
}

// kill kills the child (SIGKILL on unix) and waits for it to end: it must
// not have ended by itself.
func (c *procChild) kill(t *testing.T) {
	t.Helper()
	mustDo(t, c.cmd.Process.Kill())
	<-c.done
	if runtime.GOOS != "windows" && c.cmd.ProcessState.Exited() {
		t.Fatalf("the child ended before it was killed (%v):\n%s", c.err, c.out)
	}
}

// finish closes the child's stdin and waits for it to exit: with status 0.
func (c *procChild) finish(t *testing.T) {
	t.Helper()
	c.in.Close()
	select {
	case <-c.done:
	case <-time.After(time.Minute):
		t.Fatalf("hang: the child did not exit in a minute:\n%s", c.out)
	}
	if c.err != nil {
		t.Fatalf("the child failed (%v):\n%s", c.err, c.out)
	}
}

// procTree is diskTree with 300 more files ("m/"), enough that rewriting
// them all makes a published index too stale to adopt (staleMax). The
// files are an hour old. It returns the number of files a build reads.
func procTree(t *testing.T) (root string, w func(rel, content string), files int) {
	root, w = churnTree(t)
	for i := range procMass {
		w(procMassFile(i), fmt.Sprintf("alpha %03d mass\n", i))
	}
	age(t, root, time.Hour)
	mustDo(t, filepath.Walk(root, func(_ string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			files++
		}
		return err
	}))
	return root, w, files
}

const procMass = 300

// procFenceAhead: files a killed builder may read past the one after which
// it is killed.
const procFenceAhead = 16

func procMassFile(i int) string { return fmt.Sprintf("m/m%03d.txt", i) }

// procCheckout rewrites every file of m/ as a checkout does (new content,
// of another size for most, mtime now), generation gen.
func procCheckout(w func(rel, content string), gen int) {
	for i := range procMass {
		w(procMassFile(i), procCheckedOut(i, gen))
	}
}

// procCheckedOut is the content of m/'s file i after procCheckout(gen).
func procCheckedOut(i, gen int) string {
	return fmt.Sprintf("omega %03d Delta gen%d %s\n", i, gen, strings.Repeat("x", i%3))
}

// procStore opens the store in dir, and returns it with the name of the
// index of root that diskCases use.
func procStore(t *testing.T, dir, root string) (*idxstore.Store, string) {
	t.Helper()
	st, err := idxstore.Open(dir)
	mustDo(t, err)
	key := scancache.Key{Root: root, Hidden: true, Gitignore: true, SkipNodeModules: true}
	return st, st.Name(root, diskKey(key))
}

// procTemps returns the leftover temporary files of name in st.
func procTemps(t *testing.T, st *idxstore.Store, name string) []string {
	t.Helper()
	m, err := filepath.Glob(st.Path(name) + ".tmp-*")
	mustDo(t, err)
	return m
}

// procPublished returns the published index of name (nil: none), after
// checking that it is complete and of root.
func procPublished(t *testing.T, st *idxstore.Store, name, root string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(st.Path(name))
	if os.IsNotExist(err) {
		return nil
	}
	mustDo(t, err)
	ix, err := index.Open(st.Path(name))
	if err != nil {
		t.Fatalf("the published index is not usable: %v", err)
	}
	defer ix.Close()
	if err := ix.VerifyBlobs(); err != nil {
		t.Fatalf("the published index is damaged: %v", err)
	}
	if h := ix.Header(); h.Root != root {
		t.Fatalf("the published index is of %q", h.Root)
	}
	return fi
}

// TestDiskIndexKilledBuilder kills (SIGKILL) a process building the
// persisted index at many points of its build: before it reads a file,
// while it reads them, once it read them all (writing), and after it wrote
// the file but before it published it; first with no published index, then
// with a stale one (the tree checked out anew). After each kill, a new
// process (in this one, holding the index's lock so that it does not
// build) answers every grep as an unindexed grep does; the store holds
// only complete indexes (the stale one untouched until a build publishes),
// at most the killed builder's temporary file, which the next successful
// build removes.
func TestDiskIndexKilledBuilder(t *testing.T) {
	dir := t.TempDir()
	gi := useDiskIndex(t, dir, false, false)
	root, w, files := procTree(t)
	st, name := procStore(t, dir, root)
	type point struct {
		name  string
		lines int  // kill once the child read that many files
		hold  bool // kill when it stopped before publishing
	}
	points := []point{{"before any file", 0, false}, {"after the first file", 1, false},
		{"mid-read", files / 2, false}, {"at the last file", files - 1, false},
		{"every file read", files, false}, {"written, not published", files, true}}
	var stale os.FileInfo // the published index the kills must leave as it is
	var staleData []byte  // its content
	for phase := range 2 {
		if phase == 1 {
			procCheckout(w, 1)
			age(t, root, 30*time.Minute)
		}
		for _, p := range points {
			step := fmt.Sprintf("phase %d (published index: %t), killed %s", phase, stale != nil, p.name)
			env := []string{envProcEager + "=1"}
			if p.hold {
				env = append(env, envProcHold+"=1")
			}
			if p.lines < files {
				// The kill lands within the next few files, never later.
				env = append(env, fmt.Sprintf("%s=%d", envProcFence, min(p.lines+procFenceAhead, files)))
			}
			c := startChild(t, "build", root, dir, env...)
			c.await(t, "start", nil)
			n := 0
			switch {
			case p.hold:
				c.await(t, "publish", &n)
			case p.lines > 0:
				for n < p.lines {
					c.await(t, "file", nil)
					n++
				}
			}
			c.kill(t)
			lk, err := st.Lock(name) // the new process does not build
			mustDo(t, err)
			temps := procTemps(t, st, name)
			tag := fmt.Sprintf(".tmp-%d-", c.cmd.Process.Pid)
			// The killed build's own temporary file, and its scratch file
			// (index.Builder.Spill), may remain; no other.
			for _, tmp := range temps {
				if !strings.Contains(tmp, tag) || len(temps) > 2 {
					t.Fatalf("%s: temporary files not swept by the killed build: %q", step, temps)
				}
			}
			if p.hold && len(temps) != 1 {
				t.Fatalf("%s: no temporary file: %q", step, temps)
			}
			pub := procPublished(t, st, name, root)
			republished := false
			switch {
			case p.lines < files || p.hold:
				if (pub == nil) != (stale == nil) || pub != nil && !os.SameFile(pub, stale) {
					t.Fatalf("%s: the published index changed (%v, was %v)", step, pub, stale)
				}
			case pub != nil && (stale == nil || !os.SameFile(pub, stale)):
				t.Logf("%s: killed after it published", step)
				republished = true
			}
			gi = restart(t, gi, false)
			compareDisk(t, step, gi, root, pub != nil)
			stopBuilders(t)
			if republished {
				// Back to the phase's published index, so that the next
				// builder builds (it would adopt the new one).
				if stale == nil {
					mustDo(t, st.Remove(name))
				} else {
					tmp := filepath.Join(dir, "stale.idx")
					mustDo(t, os.WriteFile(tmp, staleData, 0o600))
					mustDo(t, os.Rename(tmp, st.Path(name)))
					stale = procPublished(t, st, name, root)
				}
			}
			mustDo(t, lk.Unlock())
		}
		// The next build succeeds, and removes the leftover of the last
		// kill.
		c := startChild(t, "build", root, dir, envProcEager+"=1")
		n := 0
		done := c.await(t, "done", &n)
		c.finish(t)
		if n != files || procStat(t, done, "published") != 1 {
			t.Fatalf("phase %d: the successful build read %d files of %d: %s", phase, n, files, done)
		}
		if temps := procTemps(t, st, name); len(temps) != 0 {
			t.Fatalf("phase %d: a successful build left temporary files: %q", phase, temps)
		}
		pub := procPublished(t, st, name, root)
		var err error
		if pub == nil || stale != nil && os.SameFile(pub, stale) {
			t.Fatalf("phase %d: the successful build published no new index", phase)
		}
		stale = pub
		staleData, err = os.ReadFile(st.Path(name))
		mustDo(t, err)
		gi = restart(t, gi, false)
		compareDisk(t, fmt.Sprintf("phase %d, built", phase), gi, root, true)
		if s := IndexStats().Persisted; s.Untrusted != 0 || s.LastError != "" {
			t.Fatalf("phase %d: the new index does not describe the tree: %+v", phase, s)
		}
	}
}

// TestDiskIndexProcessesAtOnce runs processes on one tree and one store,
// grepping at the same time (two building in their greps, the second one
// watching when it can, and one queueing builds in the background), while
// this one edits the tree between rounds: every answer is an unindexed
// grep's, and at least one of them published an index.
func TestDiskIndexProcessesAtOnce(t *testing.T) {
	dir := t.TempDir()
	root, w, _ := procTree(t)
	st, name := procStore(t, dir, root)
	watchB := "0"
	if wt, err := watch.New(); err == nil {
		wt.Close()
		watchB = "1"
	}
	kids := []*procChild{
		startChild(t, "loop", root, dir, envProcEager+"=1"),
		startChild(t, "loop", root, dir, envProcEager+"=1", envProcWatch+"="+watchB),
		startChild(t, "loop", root, dir, envProcEager+"=0"),
	}
	path := func(rel string) string { return filepath.Join(root, rel) }
	var racy []os.FileInfo
	rounds := []struct {
		name string
		edit func()
	}{
		{"initial", func() {}},
		{"again", func() {}},
		{"rewrite, create, delete", func() {
			w("d2/f02.txt", "Alpha beta rewritten nowhere_token\n")
			w("d9/new.go", "package q // DELTA gamma77\n")
			mustDo(t, os.Remove(path("d1/f05.txt")))
		}},
		{"rewrite of the same size, rename over", func() {
			w("d0/f04.txt", "line 4\nomega 4\nbeta\n")
			w("tmp.txt", "omega nowhere_token (renamed)\n")
			mustDo(t, os.Rename(path("tmp.txt"), path("d3/f03.txt")))
		}},
		{"checkout", func() {
			procCheckout(w, 1)
			racy = racy[:0]
			for i := 0; i < procMass; i += 37 {
				fi, err := os.Stat(path(procMassFile(i)))
				mustDo(t, err)
				racy = append(racy, fi)
			}
		}},
		{"same size, same mtime (racy)", func() {
			// An index that read these files before this rewrite was
			// built before it: their entries are racy in it as long as
			// the rewrite comes within racySlack of the checkout (else
			// it could not tell: a rewrite of another size then).
			late := time.Since(racy[0].ModTime()) > racySlack/2
			if late {
				t.Logf("the checkout was %v ago: the racy rewrite changes the size", time.Since(racy[0].ModTime()))
			}
			for i, fi := range racy {
				p := path(procMassFile(i * 37))
				old, err := os.ReadFile(p)
				mustDo(t, err)
				content := strings.Replace(string(old), "omega", "alpha", 1)
				if late {
					content += "\n"
				}
				w(procMassFile(i*37), content)
				mustDo(t, os.Chtimes(p, fi.ModTime(), fi.ModTime()))
			}
		}},
		{"deletes and creates", func() {
			for i := 0; i < procMass; i += 3 {
				mustDo(t, os.Remove(path(procMassFile(i))))
			}
			for i := range 20 {
				w(fmt.Sprintf("n/n%02d.txt", i), fmt.Sprintf("alpha new %d xyz = 1\n", i))
			}
		}},
	}
	var last []string
	for _, r := range rounds {
		r.edit()
		for _, c := range kids {
			if _, err := io.WriteString(c.in, r.name+"\n"); err != nil {
				t.Fatalf("%s: %v:\n%s", r.name, err, c.out)
			}
		}
		last = last[:0]
		for _, c := range kids {
			last = append(last, c.await(t, "ok", nil))
		}
	}
	var published int64
	for i, c := range kids {
		c.finish(t)
		published += procStat(t, last[i], "published")
		if runtime.GOOS != "windows" && !strings.Contains(last[i], `lasterror=""`) {
			t.Fatalf("child %d: %s", i, last[i])
		}
		t.Logf("child %d: %s", i, last[i])
	}
	if published == 0 || procPublished(t, st, name, root) == nil {
		t.Fatalf("no index was published: %q", last)
	}
}

// TestDiskIndexCheckoutBetweenProcesses: a process builds the index and
// exits; the tree is checked out anew (every file of m/ rewritten, mtime
// now); the next process rebuilds it (the checkout's files then have
// mtimes within racySlack of the build) and exits; some of them are
// rewritten with the same size and their mtime set back; the next process
// must not trust their entries.
func TestDiskIndexCheckoutBetweenProcesses(t *testing.T) {
	dir := t.TempDir()
	root, w, _ := procTree(t)
	st, name := procStore(t, dir, root)
	grep := func(step string, eager bool) string {
		t.Helper()
		e := "0"
		if eager {
			e = "1"
		}
		c := startChild(t, "grep", root, dir, envProcEager+"="+e)
		line := c.await(t, "built", nil)
		t.Logf("%s: %s; %s", step, line, c.await(t, "done", nil))
		c.finish(t)
		return line
	}
	if line := grep("first", true); procStat(t, line, "published") != 1 {
		t.Fatalf("first process: %s", line)
	}
	procCheckout(w, 1)
	if line := grep("after the checkout", true); procStat(t, line, "published") != 1 {
		t.Fatalf("the process after the checkout did not rebuild: %s", line)
	}
	ix, err := index.Open(st.Path(name))
	mustDo(t, err)
	racyFrom := ix.Header().BuiltNs - int64(racySlack)
	ix.Close()
	rewritten := 0
	for i := 0; i < procMass; i += 7 {
		p := filepath.Join(root, procMassFile(i))
		fi, err := os.Stat(p)
		mustDo(t, err)
		if fi.ModTime().UnixNano() < racyFrom {
			continue // the build came late: its entry is not racy
		}
		w(procMassFile(i), strings.Replace(procCheckedOut(i, 1), "omega", "alpha", 1))
		mustDo(t, os.Chtimes(p, fi.ModTime(), fi.ModTime()))
		rewritten++
	}
	if rewritten == 0 {
		t.Skip("the rebuild came more than racySlack after the checkout (a slow machine): no racy entry to test")
	}
	// The child compares every grep with an unindexed one.
	grep("after the racy rewrites", false)
}
