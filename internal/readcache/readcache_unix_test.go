//go:build unix

package readcache

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestFIFOIsRefusedWithoutBlocking(t *testing.T) {
	f := newFixture(t)
	p := filepath.Join(f.cwd, "pipe")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := f.tryRead("pipe", nil, nil, nil); done <- err }()
	select {
	case err := <-done:
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeNotRegular || !strings.Contains(e.Message, "FIFO") || !strings.Contains(e.Message, p) {
			t.Fatalf("FIFO: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("reading a FIFO blocked")
	}
}

func TestStoreRefusesForeignOwner(t *testing.T) {
	real := filepath.Join(t.TempDir(), "store")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(real)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkDir(real, fi); err != nil {
		t.Fatalf("own directory refused: %v", err)
	}
	foreign := ownedBy{fi, uint32(os.Geteuid() + 1)}
	if err := checkDir(real, foreign); err == nil || !strings.Contains(err.Error(), "owned by uid") || !strings.Contains(err.Error(), real) {
		t.Errorf("foreign-owned: %v", err)
	}
}

// ownedBy reports another owner for a real directory's FileInfo.
type ownedBy struct {
	fs.FileInfo
	uid uint32
}

func (o ownedBy) Sys() any {
	st := *o.FileInfo.Sys().(*syscall.Stat_t)
	st.Uid = o.uid
	return &st
}
