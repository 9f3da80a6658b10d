//go:build unix

package idxstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// otherUID is a user id that is not the test's (nobody's, commonly).
const otherUID = 65534

// needRoot skips a test that makes files owned by another user.
func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("making a file owned by another user needs root")
	}
}

func TestOpenRefusesOtherOwner(t *testing.T) {
	needRoot(t)
	dir := filepath.Join(t.TempDir(), "store")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, otherUID, otherUID); err != nil {
		t.Fatal(err)
	}
	_, err := Open(dir)
	if err == nil {
		t.Fatalf("Open accepted %s, owned by uid %d", dir, otherUID)
	}
	if !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "owned by uid") {
		t.Errorf("error %q should name %s and its owner", err, dir)
	}
}

func TestOpenIndexRefusesOtherOwner(t *testing.T) {
	needRoot(t)
	s := openStore(t)
	name := s.Name("/root", "k")
	publish(t, s, name, "x")
	if err := os.Chown(s.Path(name), otherUID, otherUID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OpenIndex(name); err == nil || !strings.Contains(err.Error(), "owned by uid") {
		t.Errorf("OpenIndex of a file owned by uid %d: %v, want an owner error", otherUID, err)
	}
}

// TestOpenIndexRefusesFIFO: a FIFO in place of the index is refused, and
// opening it does not wait for a writer.
func TestOpenIndexRefusesFIFO(t *testing.T) {
	s := openStore(t)
	name := s.Name("/root", "k")
	if err := unix.Mkfifo(s.Path(name), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		f, err := s.OpenIndex(name)
		if f != nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("OpenIndex of a FIFO: %v, want a not-a-regular-file error", err)
		}
	case <-time.After(10 * time.Second):
		// Unblock the open so the goroutine ends.
		if w, err := os.OpenFile(s.Path(name), os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		<-done
		t.Fatal("OpenIndex of a FIFO blocked")
	}
}

// TestOpenIndexBlocking: the returned file is in blocking mode again.
func TestOpenIndexBlocking(t *testing.T) {
	s := openStore(t)
	name := s.Name("/root", "k")
	publish(t, s, name, "x")
	f, err := s.OpenIndex(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fl, err := unix.FcntlInt(f.Fd(), unix.F_GETFL, 0)
	if err != nil {
		t.Fatal(err)
	}
	if fl&unix.O_NONBLOCK != 0 {
		t.Error("OpenIndex's file is O_NONBLOCK")
	}
}
