package idxstore

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

// Pending is an index being written: a temporary file of the store, made
// the published index of its name by Publish, or removed by Abort. It is
// not safe for concurrent use.
type Pending struct {
	f    *os.File
	tmp  string // the temporary file's path
	path string // the published file's path
	dir  string // the store's directory
	done bool   // published or aborted
}

// createTries bounds Create's attempts at a temporary name no file has.
const createTries = 16

// Create creates a new, empty temporary file for the index name in the
// store, "NAME.tmp-PID-RANDOM", with mode 0600 (O_EXCL: never an existing
// file). Write it through File, then Publish or Abort it. Create does not
// lock: hold Lock(name) (or a successful TryLock) from before Create until
// after Publish or Abort.
func (s *Store) Create(name string) (*Pending, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	prefix := s.Path(name) + tmpInfix + strconv.Itoa(os.Getpid()) + "-"
	var err error
	for range createTries {
		tmp := prefix + strconv.FormatUint(rand.Uint64(), 36)
		var f *os.File
		f, err = os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return &Pending{f: f, tmp: tmp, path: s.Path(name), dir: s.dir}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	return nil, fmt.Errorf("idxstore: creating a temporary file for %s: %w", s.Path(name), err)
}

// File returns the temporary file to write the index into. It is closed
// by Publish or Abort: do not close it.
func (p *Pending) File() *os.File {
	return p.f
}

// Publish makes the written file the published index of its name: it
// fsyncs the file, closes it, renames it over the name (atomically
// replacing an earlier index: readers see the old file or the new one,
// complete) and, on unix, fsyncs the directory so that the rename is
// durable. It must be called while holding Lock(name). When the file is
// not published (an error before or at the rename) the temporary file is
// removed; an error syncing the directory is reported although the index
// is published. Calling Publish or Abort again does nothing (Publish
// returns an error).
//
// On Windows, replacing an index that another process holds open without
// FILE_SHARE_DELETE (or maps) can fail: Publish then returns that error.
func (p *Pending) Publish() error {
	if p.done {
		return fmt.Errorf("idxstore: publishing %s: %w (already published or aborted)", p.tmp, os.ErrClosed)
	}
	p.done = true
	if err := p.f.Sync(); err != nil {
		p.f.Close()
		os.Remove(p.tmp)
		return fmt.Errorf("idxstore: syncing %s: %w", p.tmp, err)
	}
	if err := p.f.Close(); err != nil {
		os.Remove(p.tmp)
		return fmt.Errorf("idxstore: closing %s: %w", p.tmp, err)
	}
	if err := os.Rename(p.tmp, p.path); err != nil {
		os.Remove(p.tmp)
		return fmt.Errorf("idxstore: publishing %s: %w", p.path, err)
	}
	if err := syncDir(p.dir); err != nil {
		return fmt.Errorf("idxstore: published %s, but syncing its directory: %w", p.path, err)
	}
	return nil
}

// Abort closes and removes the temporary file: nothing is published. It
// does nothing after Publish or an earlier Abort.
func (p *Pending) Abort() {
	if p.done {
		return
	}
	p.done = true
	p.f.Close()
	os.Remove(p.tmp)
}

// Sweep removes the temporary files of name left by writers that died
// while writing (those of this process included: call it before Create).
// It must be called while holding Lock(name), which guarantees no writer
// is using them. Errors (an unreadable directory, a file that cannot be
// removed) are ignored: Sweep is housekeeping, and the next one retries.
func (s *Store) Sweep(name string) {
	if checkName(name) != nil {
		return
	}
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	prefix := name + tmpInfix
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), prefix) && e.Type().IsRegular() {
			os.Remove(s.Path(e.Name()))
		}
	}
}
