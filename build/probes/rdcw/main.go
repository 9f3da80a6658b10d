//go:build windows

// Command rdcw asks whether an overlapped ReadDirectoryChangesW request
// observes a change immediately after the Win32 call that made it has
// returned (like inotify does on Linux), or only some time later. Its
// answer under wine is why internal/watch has no Windows watcher
// (docs/indexed-grep.md); run it with `make probe-rdcw`.
//
//	rdcw [-n 2000] [-nchild 200] [-check gor|wait0|internal|all] [-timeout 5s]
//
// For each variant and each check method it prints: misses on the immediate,
// non-blocking check (out of N), and the latency distribution of the misses
// (time from the end of the change's Win32 call until the notification was seen,
// found by polling with short sleeps).
//
// Check methods (all non-blocking):
//
//	gor       GetOverlappedResult(bWait=FALSE)
//	wait0     WaitForSingleObject(ov.hEvent, 0), then GetOverlappedResult
//	internal  HasOverlappedIoCompleted (ov.Internal != STATUS_PENDING), no call at all
//
//	barrier   not a non-blocking check: after the change, create a sentinel file
//	          in the root and wait until its notification arrives, then check
//	          whether the change's notification has arrived too
//
// Variants:
//
//	create     CreateFile(CREATE_NEW)+CloseHandle of a new file in the root
//	append     open an existing file (pre-created, drained), WriteFile 16 bytes, close
//	subcreate  create a new file in a subdirectory that existed before the
//	           watch and was never opened (recursive watch)
//	subscan-create  the same, but the subdirectory was enumerated (opened) after
//	           the watch started, as a scanner would
//	subnew-create   the same in a subdirectory created after the watch started
//	rename     MoveFileEx of a pre-created file
//	delete     DeleteFile of a pre-created file
//	nopending-create   the create happens while NO ReadDirectoryChangesW is
//	           outstanding; then the request is issued and checked at once
//	           (did it complete before ReadDirectoryChangesW returned?)
//	child-create  a child process (this program, "child" mode) creates the
//	           file and exits; the parent waits for its exit, then checks
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

const filter = windows.FILE_NOTIFY_CHANGE_FILE_NAME | windows.FILE_NOTIFY_CHANGE_DIR_NAME |
	windows.FILE_NOTIFY_CHANGE_SIZE | windows.FILE_NOTIFY_CHANGE_LAST_WRITE |
	windows.FILE_NOTIFY_CHANGE_ATTRIBUTES

const statusPending = 0x103

var (
	kernel32 = windows.NewLazySystemDLL("kernel32.dll")
	procQPC  = kernel32.NewProc("QueryPerformanceCounter")
	procQPF  = kernel32.NewProc("QueryPerformanceFrequency")
	qpf      int64
)

func qpc() int64 {
	var v int64
	procQPC.Call(uintptr(unsafe.Pointer(&v)))
	return v
}

func since(t0 int64) time.Duration {
	return time.Duration(float64(qpc()-t0) * 1e9 / float64(qpf))
}

func u16(s string) *uint16 {
	p, err := windows.UTF16PtrFromString(s)
	if err != nil {
		panic(err)
	}
	return p
}

// watcher: one recursive handle, one overlapped request kept pending.
type watcher struct {
	h       windows.Handle
	ev      windows.Handle
	ov      *windows.Overlapped
	buf     []byte
	pending bool
	seen    map[string]int // name (relative, lower-case) -> count of records
	check   string
	records int
	// how the last issue() went
	issueSync int // requests found completed right after ReadDirectoryChangesW returned
}

func newWatcher(dir, check string) *watcher {
	h, err := windows.CreateFile(u16(dir), windows.FILE_LIST_DIRECTORY,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil,
		windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS|windows.FILE_FLAG_OVERLAPPED, 0)
	if err != nil {
		panic(fmt.Sprintf("open dir: %v", err))
	}
	ev, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		panic(err)
	}
	return &watcher{h: h, ev: ev, ov: new(windows.Overlapped), buf: make([]byte, 64<<10),
		seen: map[string]int{}, check: check}
}

func (w *watcher) close() {
	if w.pending {
		windows.CancelIoEx(w.h, w.ov)
		var n uint32
		windows.GetOverlappedResult(w.h, w.ov, &n, true)
	}
	windows.CloseHandle(w.h)
	windows.CloseHandle(w.ev)
}

// issue starts a new request; reports whether it had already completed when
// ReadDirectoryChangesW returned.
func (w *watcher) issue() bool {
	if w.pending {
		panic("issue while pending")
	}
	windows.ResetEvent(w.ev)
	*w.ov = windows.Overlapped{HEvent: w.ev}
	err := windows.ReadDirectoryChanges(w.h, &w.buf[0], uint32(len(w.buf)), true, filter, nil, w.ov, 0)
	if err != nil && err != windows.ERROR_IO_PENDING {
		panic(fmt.Sprintf("ReadDirectoryChanges: %v", err))
	}
	w.pending = true
	done := atomic.LoadUintptr(&w.ov.Internal) != statusPending
	if done {
		w.issueSync++
	}
	return done
}

// completed: the non-blocking check.
func (w *watcher) completed() bool {
	switch w.check {
	case "internal":
		return atomic.LoadUintptr(&w.ov.Internal) != statusPending
	case "wait0", "barrier":
		r, _ := windows.WaitForSingleObject(w.ev, 0)
		if r != windows.WAIT_OBJECT_0 {
			return false
		}
	}
	var n uint32
	err := windows.GetOverlappedResult(w.h, w.ov, &n, false)
	if err == windows.ERROR_IO_INCOMPLETE {
		return false
	}
	return true
}

// collect parses the completed buffer.
func (w *watcher) collect() {
	var n uint32
	err := windows.GetOverlappedResult(w.h, w.ov, &n, false)
	w.pending = false
	if err != nil {
		panic(fmt.Sprintf("GetOverlappedResult: %v", err))
	}
	if n == 0 {
		// overflow: the buffer was too small; count it
		w.seen["<overflow>"]++
		return
	}
	off := uint32(0)
	for {
		fi := (*windows.FileNotifyInformation)(unsafe.Pointer(&w.buf[off]))
		name := windows.UTF16ToString(unsafe.Slice(&fi.FileName, fi.FileNameLength/2))
		w.seen[strings.ToLower(name)]++
		w.records++
		if fi.NextEntryOffset == 0 {
			break
		}
		off += fi.NextEntryOffset
	}
}

// drain: non-blocking; collects every completed request and re-issues
// (if reissue), checking again after each re-issue.
func (w *watcher) drain(reissue bool) {
	for w.pending && w.completed() {
		w.collect()
		if reissue {
			w.issue()
		}
	}
}

// quiesce: drain until nothing has arrived for d.
func (w *watcher) quiesce(d time.Duration) {
	last := time.Now()
	for time.Since(last) < d {
		if w.pending && w.completed() {
			w.collect()
			w.issue()
			last = time.Now()
			continue
		}
		time.Sleep(time.Millisecond)
	}
}

func createFile(path string) {
	h, err := windows.CreateFile(u16(path), windows.GENERIC_WRITE, 0, nil, windows.CREATE_NEW,
		windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		panic(fmt.Sprintf("create %s: %v", path, err))
	}
	windows.CloseHandle(h)
}

var payload = []byte("0123456789abcdef")

func appendFile(path string) {
	h, err := windows.CreateFile(u16(path), windows.FILE_APPEND_DATA, windows.FILE_SHARE_READ, nil,
		windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		panic(fmt.Sprintf("open %s: %v", path, err))
	}
	var n uint32
	if err := windows.WriteFile(h, payload, &n, nil); err != nil {
		panic(err)
	}
	windows.CloseHandle(h)
}

type result struct {
	name, check string
	n, misses   int
	never       int
	lat         []time.Duration
	issueSync   int // nopending: requests complete when ReadDirectoryChangesW returned
	barrier     []time.Duration
	barrierFail int
}

func (r result) String() string {
	s := fmt.Sprintf("%-17s check=%-8s misses %4d/%d", r.name, r.check, r.misses, r.n)
	if r.never > 0 {
		s += fmt.Sprintf(" (never seen within timeout: %d)", r.never)
	}
	if r.name == "nopending-create" {
		s += fmt.Sprintf(" [request already complete when ReadDirectoryChangesW returned: %d/%d]", r.issueSync, r.n)
	}
	if len(r.lat) > 0 {
		s += "  miss latency " + dist(r.lat)
	}
	if r.check == "barrier" {
		s += fmt.Sprintf("  [barrier wait %s; barrier never seen: %d]", dist(r.barrier), r.barrierFail)
	}
	return s
}

func dist(lat []time.Duration) string {
	if len(lat) == 0 {
		return "-"
	}
	l := append([]time.Duration(nil), lat...)
	sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
	pct := func(p float64) time.Duration { return l[int(p*float64(len(l)-1)+0.5)] }
	return fmt.Sprintf("min %v median %v p99 %v max %v",
		l[0].Round(time.Microsecond), pct(0.5).Round(time.Microsecond),
		pct(0.99).Round(time.Microsecond), l[len(l)-1].Round(time.Microsecond))
}

var timeout time.Duration
var pollMode string
var baseDir string

// waitSeen polls (non-blocking check + short sleep) until key is seen.
func waitSeen(w *watcher, key string, t0 int64, reissue bool) (time.Duration, bool) {
	for {
		if w.pending {
			w.drain(reissue)
		}
		if !w.pending && w.seen[key] == 0 {
			w.issue() // nopending variant: keep looking
			continue
		}
		if w.seen[key] > 0 {
			return since(t0), true
		}
		if d := since(t0); d > timeout {
			return d, false
		}
		if pollMode == "sleep" {
			time.Sleep(50 * time.Microsecond)
		} else {
			runtime.Gosched()
		}
	}
}

func run(variant, check string, n int, self string) result {
	base, err := os.MkdirTemp(baseDir, "rdcw-")
	if err != nil {
		panic(err)
	}
	defer cleanup(base)
	sub := filepath.Join(base, "sub")
	if err := windows.CreateDirectory(u16(sub), nil); err != nil {
		panic(err)
	}
	// pre-create what the variant needs, before the watch
	for i := 0; i < n; i++ {
		switch variant {
		case "append":
			createFile(filepath.Join(base, fmt.Sprintf("w_%d", i)))
		case "rename":
			createFile(filepath.Join(base, fmt.Sprintf("r_%d", i)))
		case "delete":
			createFile(filepath.Join(base, fmt.Sprintf("d_%d", i)))
		}
	}
	w := newWatcher(base, check)
	defer w.close()
	w.issue()
	switch variant {
	case "subnew-create":
		// the subdirectory is created while the watch is active
		sub = filepath.Join(base, "sub2")
		if err := windows.CreateDirectory(u16(sub), nil); err != nil {
			panic(err)
		}
	case "subscan-create":
		// the pre-existing subdirectory is enumerated (opened) after the
		// watch started, as a scanner would
		if _, err := os.ReadDir(sub); err != nil {
			panic(err)
		}
	}
	w.quiesce(300 * time.Millisecond)
	res := result{name: variant, check: check, n: n}
	for i := 0; i < n; i++ {
		var key string
		var t0 int64
		reissue := true
		switch variant {
		case "create":
			key = fmt.Sprintf("c_%d", i)
			createFile(filepath.Join(base, key))
			t0 = qpc()
		case "append":
			key = fmt.Sprintf("w_%d", i)
			appendFile(filepath.Join(base, key))
			t0 = qpc()
		case "subcreate", "subscan-create":
			key = fmt.Sprintf(`sub\s_%d`, i)
			createFile(filepath.Join(base, key))
			t0 = qpc()
		case "subnew-create":
			key = fmt.Sprintf(`sub2\s_%d`, i)
			createFile(filepath.Join(base, key))
			t0 = qpc()
		case "rename":
			key = fmt.Sprintf("r_%d.new", i)
			windows.MoveFileEx(u16(filepath.Join(base, fmt.Sprintf("r_%d", i))), u16(filepath.Join(base, key)), 0)
			t0 = qpc()
		case "delete":
			key = fmt.Sprintf("d_%d", i)
			if err := windows.DeleteFile(u16(filepath.Join(base, key))); err != nil {
				panic(err)
			}
			t0 = qpc()
		case "nopending-create":
			reissue = false
			// bring the watcher to "no request outstanding, nothing buffered":
			// the previous iteration left it so (see below); on the first, drain.
			if i == 0 {
				w.quiesce(100 * time.Millisecond)
				// leave no request outstanding: cancel the pending one
				windows.CancelIoEx(w.h, w.ov)
				var nn uint32
				windows.GetOverlappedResult(w.h, w.ov, &nn, true)
				w.pending = false
			}
			key = fmt.Sprintf("c_%d", i)
			createFile(filepath.Join(base, key))
			t0 = qpc()
			if w.issue() {
				res.issueSync++
			}
		case "child-create":
			key = fmt.Sprintf("c_%d", i)
			cmd := exec.Command(self, "child", filepath.Join(base, key))
			cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
			if err := cmd.Run(); err != nil { // waits for the child's exit
				panic(err)
			}
			t0 = qpc()
		}
		if check == "barrier" {
			// a cookie: create a sentinel file in the root and wait (blocking,
			// polling) until its own notification has arrived; only then check
			// for the change made before it.
			sk := fmt.Sprintf("zz_barrier_%d", i)
			createFile(filepath.Join(base, sk))
			b0 := qpc()
			d, ok := waitSeen(w, sk, b0, reissue)
			if !ok {
				res.barrierFail++
			} else {
				res.barrier = append(res.barrier, d)
			}
		}
		// the immediate, non-blocking check
		if w.pending {
			w.drain(reissue)
		}
		if w.seen[key] == 0 {
			res.misses++
			d, ok := waitSeen(w, key, t0, reissue)
			if ok {
				res.lat = append(res.lat, d)
			} else {
				res.never++
			}
		}
		if variant == "nopending-create" {
			// wait for the outstanding request (if any) to be consumed: there
			// must be none for the next iteration. Anything still pending here
			// has no change to report, so cancel it.
			if w.pending {
				windows.CancelIoEx(w.h, w.ov)
				var nn uint32
				err := windows.GetOverlappedResult(w.h, w.ov, &nn, true)
				if err == nil && nn > 0 {
					w.collect() // completed with data after all
				}
				w.pending = false
			}
		}
	}
	if os.Getenv("RDCW_DUMP") != "" {
		fmt.Fprintf(os.Stderr, "%s/%s: %d records; names seen: %d\n", variant, check, w.records, len(w.seen))
		k := 0
		for name, c := range w.seen {
			if k++; k <= 5 {
				fmt.Fprintf(os.Stderr, "  %q x%d\n", name, c)
			}
		}
	}
	return res
}

func cleanup(dir string) {
	// os.RemoveAll does not work under wine 8.0 (FileDispositionInformationEx);
	// delete with DeleteFile / RemoveDirectory.
	var rm func(string)
	rm = func(d string) {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			p := filepath.Join(d, e.Name())
			if e.IsDir() {
				rm(p)
			} else {
				windows.DeleteFile(u16(p))
			}
		}
		windows.RemoveDirectory(u16(d))
	}
	rm(dir)
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == "child" {
		createFile(os.Args[2])
		return
	}
	self, _ := os.Executable()
	n := flag.Int("n", 2000, "changes per variant")
	nchild := flag.Int("nchild", 200, "changes for the child-process variant")
	checks := flag.String("check", "all", "gor|wait0|internal|barrier|all (all = the first three)")
	variants := flag.String("variants", "create,append,subcreate,subscan-create,subnew-create,rename,delete,nopending-create,child-create", "variants")
	flag.DurationVar(&timeout, "timeout", 2*time.Second, "give up on a change after this")
	flag.StringVar(&pollMode, "poll", "sleep", "after a miss: sleep (time.Sleep(50us) between checks) or spin (Gosched between checks)")
	flag.StringVar(&baseDir, "base", "", `parent of the temporary test directories (default: tmp\ beside the executable)`)
	flag.Parse()
	if baseDir == "" {
		baseDir = filepath.Join(filepath.Dir(self), "tmp")
		os.MkdirAll(baseDir, 0o755)
	}
	runtime.LockOSThread() // the overlapped requests belong to this thread
	procQPF.Call(uintptr(unsafe.Pointer(&qpf)))
	cs := []string{"gor", "wait0", "internal"}
	if *checks != "all" {
		cs = strings.Split(*checks, ",")
	}
	fmt.Printf("rdcw: GOMAXPROCS=%d NumCPU=%d poll=%s timeout=%v\n", runtime.GOMAXPROCS(0), runtime.NumCPU(), pollMode, timeout)
	for _, v := range strings.Split(*variants, ",") {
		for _, c := range cs {
			nn := *n
			if v == "child-create" {
				nn = *nchild
			}
			if v == "subcreate" && nn > 20 {
				nn = 20 // never notified under wine 8.0: each costs -timeout
			}
			start := time.Now()
			r := run(v, c, nn, self)
			fmt.Printf("%v  (%.1fs)\n", r, time.Since(start).Seconds())
		}
	}
}
