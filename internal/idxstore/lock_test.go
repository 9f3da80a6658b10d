package idxstore

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// goldenName is Name("/src/repo", "policy"): xxhash64 of
// "/src/repo\x00policy".
const goldenName = "2b996b23443ef659.idx"

// The helper process (TestMain): helperEnv selects its mode ("lock": open
// the store helperDirEnv, take the lock of helperNameEnv, print "locked",
// then wait for its stdin to close, for at most two minutes).
const (
	helperEnv     = "IDXSTORE_TEST_HELPER"
	helperDirEnv  = "IDXSTORE_TEST_DIR"
	helperNameEnv = "IDXSTORE_TEST_NAME"
)

// runHelper is the helper process's main; it returns the exit code.
func runHelper() int {
	if os.Getenv(helperEnv) != "lock" {
		fmt.Fprintf(os.Stderr, "unknown helper mode %q\n", os.Getenv(helperEnv))
		return 2
	}
	s, err := Open(os.Getenv(helperDirEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := s.Lock(os.Getenv(helperNameEnv)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("locked")
	// Sleep until killed; exit if the test process is gone (its end of
	// stdin closes) or after two minutes, so that no helper is ever left.
	time.AfterFunc(2*time.Minute, func() { os.Exit(3) })
	io.Copy(io.Discard, os.Stdin)
	return 0
}

// TestTryLockTwoStores: the lock belongs to the open lock file, so a
// second TryLock in the same process, through another Store on the same
// directory (another open file), fails while the first is held, on every
// platform: flock locks belong to the open file description (Linux,
// macOS), LockFileEx locks to the handle (Windows).
func TestTryLockTwoStores(t *testing.T) {
	dir := t.TempDir()
	s1, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	name := s1.Name("/root", "k")
	l1, ok, err := s1.TryLock(name)
	if err != nil || !ok {
		t.Fatalf("first TryLock: %v, %v", ok, err)
	}
	if l, ok, err := s2.TryLock(name); err != nil || ok || l != nil {
		t.Fatalf("second TryLock (another Store, same process) while held: %v, %v, %v; want nil, false, nil", l, ok, err)
	}
	if l, ok, err := s1.TryLock(name); err != nil || ok || l != nil {
		t.Fatalf("second TryLock (same Store) while held: %v, %v, %v; want nil, false, nil", l, ok, err)
	}
	// Another name is independent.
	lo, ok, err := s2.TryLock(s2.Name("/other", "k"))
	if err != nil || !ok {
		t.Fatalf("TryLock of another name: %v, %v", ok, err)
	}
	if err := lo.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := l1.Unlock(); err != nil {
		t.Fatal(err)
	}
	l2, ok, err := s2.TryLock(name)
	if err != nil || !ok {
		t.Fatalf("TryLock after Unlock: %v, %v", ok, err)
	}
	if err := l2.Unlock(); err != nil {
		t.Fatal(err)
	}
}

func TestLockWaits(t *testing.T) {
	s := openStore(t)
	name := s.Name("/root", "k")
	l1, err := s.Lock(name)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		l2, err := s.Lock(name)
		if err == nil {
			err = l2.Unlock()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("second Lock returned while the first was held: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	if err := l1.Unlock(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("second Lock still waiting 10s after Unlock")
	}
}

func TestUnlockTwice(t *testing.T) {
	s := openStore(t)
	l, err := s.Lock(s.Name("/root", "k"))
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := l.Unlock(); err == nil || !strings.Contains(err.Error(), ".lock") {
		t.Errorf("second Unlock: %v, want an error naming the lock file", err)
	}
}

func TestLockFileKept(t *testing.T) {
	s := openStore(t)
	name := s.Name("/root", "k")
	l, err := s.Lock(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(s.Path(name) + ".lock")
	if err != nil {
		t.Fatalf("lock file after Unlock: %v", err)
	}
	if !fi.Mode().IsRegular() {
		t.Errorf("lock file mode %v", fi.Mode())
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&^0o600 != 0 {
		t.Errorf("lock file mode %v, want 0600", fi.Mode())
	}
}

// TestLockDiesWithProcess: a child process (this test binary as helper)
// takes the lock; while it lives TryLock fails; once it is killed
// (SIGKILL on unix, TerminateProcess on Windows: no cleanup of its own
// runs) TryLock succeeds.
func TestLockDiesWithProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("no path to the test binary: %v", err)
	}
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	name := s.Name("/root", "k")
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=lock", helperDirEnv+"="+dir, helperNameEnv+"="+name)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if strings.TrimSpace(line) != "locked" {
		t.Fatalf("helper said %q (%v); stderr: %s", line, err, stderr.String())
	}
	if l, ok, err := s.TryLock(name); err != nil || ok {
		if ok {
			l.Unlock()
		}
		t.Fatalf("TryLock while the child holds the lock: %v, %v; want false, nil", ok, err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killed = true
	werr := cmd.Wait()
	t.Logf("child ended: %v", werr)
	// The system releases the lock as the process ends; on Windows
	// possibly a moment after: poll.
	deadline := time.Now().Add(10 * time.Second)
	for {
		l, ok, err := s.TryLock(name)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			if err := l.Unlock(); err != nil {
				t.Fatal(err)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("TryLock still fails 10s after the holder was killed")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
