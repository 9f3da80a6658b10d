package readcache

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Store bounds, when Options leave them 0.
const (
	DefaultStoreMaxBytes      = 256 << 20         // 256 MiB of objects
	DefaultStoreMaxAgeSeconds = 14 * 24 * 60 * 60 // two weeks unused
	// pruneEvery is how often one process prunes one store.
	pruneEvery = 10 * time.Minute
	// tmpMaxAge: a temporary file older than this was left by a writer
	// that died; pruning removes it.
	tmpMaxAge = time.Hour
)

// store is the content-addressed object store of §10:
//
//	<dir>/objects/sha256-<64 hex>.txt
//	<dir>/tmp/
//
// Objects are written to tmp/ and renamed into place, so a reader never
// sees a partial object, and two writers of one object write the same
// bytes. An object is checked against its name (sha256) when read, so one
// damaged on disk is never used as a base.
type store struct {
	dir string
}

// objectName is the file name of the object with the given sha256 hex.
func objectName(hash string) string { return "sha256-" + hash + ".txt" }

// openStore checks (and creates) the store directory and its objects/ and
// tmp/ subdirectories: each must be a real directory (not a symlink) owned
// by this user and writable by nobody else. Created ones are made 0700.
func openStore(dir string) (*store, error) {
	if !filepath.IsAbs(dir) {
		return nil, &Error{Code: CodeStore, Message: fmt.Sprintf("read cache store %q is not an absolute path", dir)}
	}
	if err := secureDir(dir, true); err != nil {
		return nil, err
	}
	for _, sub := range []string{"objects", "tmp"} {
		if err := secureDir(filepath.Join(dir, sub), false); err != nil {
			return nil, err
		}
	}
	s := &store{dir: dir}
	if err := s.markers(); err != nil {
		return nil, err
	}
	return s, nil
}

// The store's marker files: a .gitignore of "*" keeps the store (itself
// included) out of git, so a read in a repository leaves `git status`
// clean (git shows no untracked directory whose files are all ignored);
// CACHEDIR.TAG (the Cache Directory Tagging specification) keeps it out
// of backups and archivers that honour the tag.
const (
	gitignoreName    = ".gitignore"
	gitignoreContent = "# fscache's read cache: nothing here belongs in git.\n*\n"
	cachedirTagName  = "CACHEDIR.TAG"
	cachedirTag      = "Signature: 8a477f597d28d172789f06886806bc55\n" +
		"# This file is a cache directory tag created by fscache's read cache.\n" +
		"# For information about cache directory tags, see:\n" +
		"#\thttps://bford.info/cachedir/\n"
)

// markers writes the store's .gitignore and CACHEDIR.TAG where they are
// missing (a store made before they existed gets them at its next use).
// Each is written to tmp/ and renamed into place, so a concurrent process
// never sees part of one; one that exists, whatever its content, is left
// as the user may have made it.
func (s *store) markers() error {
	for _, m := range [...]struct{ name, content string }{
		{gitignoreName, gitignoreContent},
		{cachedirTagName, cachedirTag},
	} {
		p := filepath.Join(s.dir, m.name)
		if _, err := os.Lstat(p); err == nil {
			continue
		}
		if err := s.writeAtomic(p, []byte(m.content)); err != nil {
			return &Error{Code: CodeStore, Message: fmt.Sprintf("read cache store %s: cannot write its %s: %v", s.dir, m.name, err)}
		}
	}
	return nil
}

// writeAtomic writes content to a unique file in tmp/ and renames it to p.
func (s *store) writeAtomic(p string, content []byte) error {
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := filepath.Join(s.dir, "tmp", fmt.Sprintf("%s.%d.%s.tmp", filepath.Base(p), os.Getpid(), hex.EncodeToString(rnd[:])))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(content)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		// rename replaces atomically; a concurrent writer of the same
		// name wrote the same bytes.
		werr = os.Rename(tmp, p)
	}
	if werr != nil {
		_ = os.Remove(tmp)
	}
	return werr
}

// secureDir creates dir (0700; with its parents when parents) when missing
// and refuses it when it is a symlink, not a directory, owned by another
// user or writable by group or others.
func secureDir(dir string, parents bool) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		mk := os.Mkdir
		if parents {
			mk = os.MkdirAll
		}
		if err := mk(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return &Error{Code: CodeStore, Message: fmt.Sprintf("read cache store %s: cannot create it: %v", dir, err)}
		}
		if err := os.Chmod(dir, 0o700); err != nil {
			return &Error{Code: CodeStore, Message: fmt.Sprintf("read cache store %s: %v", dir, err)}
		}
		fi, err = os.Lstat(dir)
	}
	if err != nil {
		return &Error{Code: CodeStore, Message: fmt.Sprintf("read cache store %s: %v", dir, err)}
	}
	return checkDir(dir, fi)
}

// checkDir refuses a store directory that is a symlink, not a directory,
// writable by group or others, or owned by another user.
func checkDir(dir string, fi fs.FileInfo) error {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return &Error{Code: CodeStore, Message: fmt.Sprintf("read cache store %s is a symlink: refused", dir)}
	case !fi.IsDir():
		return &Error{Code: CodeStore, Message: fmt.Sprintf("read cache store %s is not a directory: refused", dir)}
	case !permOK(fi):
		return &Error{Code: CodeStore, Message: fmt.Sprintf("read cache store %s is writable by group or others (mode %04o): refused", dir, fi.Mode().Perm())}
	}
	if owner, ok := fileOwner(fi); ok && owner != os.Geteuid() {
		return &Error{Code: CodeStore, Message: fmt.Sprintf("read cache store %s is owned by uid %d, not this user (uid %d): refused", dir, owner, os.Geteuid())}
	}
	return nil
}

// get returns the object's content, or ok false when it is missing or does
// not hash to its name (a damaged object is removed).
func (s *store) get(hash string) (string, bool) {
	p := filepath.Join(s.dir, "objects", objectName(hash))
	b, fi, err := readRegularInfo(p)
	if err != nil {
		return "", false
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != hash {
		// Removed unless another session has renamed a good copy into
		// place since it was opened.
		if now, err := os.Lstat(p); err == nil && os.SameFile(fi, now) {
			_ = os.Remove(p)
		}
		return "", false
	}
	now := time.Now()
	_ = os.Chtimes(p, now, now) // recently used: pruned last
	return string(b), true
}

// put stores content under hash unless it is there already (then it is
// marked used).
func (s *store) put(hash string, content []byte) error {
	p := filepath.Join(s.dir, "objects", objectName(hash))
	if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && fi.Size() == int64(len(content)) {
		now := time.Now()
		_ = os.Chtimes(p, now, now)
		return nil
	}
	// No fsync: an object a crash left short or empty fails the check of
	// its content against its name when read, and counts as missing (the
	// read is then served in full). A sync would cost a reread ~1 ms.
	if err := s.writeAtomic(p, content); err != nil {
		return fmt.Errorf("read cache store: writing %s: %w", objectName(hash), err)
	}
	return nil
}

// pruned records when this process last pruned each store directory.
var pruned struct {
	sync.Mutex
	at map[string]time.Time
}

// maybePrune prunes the store when this process has not done so for
// pruneEvery.
func (s *store) maybePrune(maxBytes, maxAgeSeconds int64) {
	now := time.Now()
	pruned.Lock()
	if pruned.at == nil {
		pruned.at = make(map[string]time.Time)
	}
	if last, ok := pruned.at[s.dir]; ok && now.Sub(last) < pruneEvery {
		pruned.Unlock()
		return
	}
	pruned.at[s.dir] = now
	pruned.Unlock()
	s.prune(now, maxBytes, maxAgeSeconds)
}

// prune removes objects unused for maxAgeSeconds, then the least recently
// used ones until the objects take at most maxBytes, and temporary files
// left by writers that died.
func (s *store) prune(now time.Time, maxBytes, maxAgeSeconds int64) {
	if maxBytes <= 0 {
		maxBytes = DefaultStoreMaxBytes
	}
	if maxAgeSeconds <= 0 {
		maxAgeSeconds = DefaultStoreMaxAgeSeconds
	}
	if ents, err := os.ReadDir(filepath.Join(s.dir, "tmp")); err == nil {
		for _, e := range ents {
			if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > tmpMaxAge {
				_ = os.Remove(filepath.Join(s.dir, "tmp", e.Name()))
			}
		}
	}
	type obj struct {
		name string
		size int64
		used time.Time
	}
	ents, err := os.ReadDir(filepath.Join(s.dir, "objects"))
	if err != nil {
		return
	}
	var objs []obj
	var total int64
	cutoff := now.Add(-time.Duration(maxAgeSeconds) * time.Second)
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), "sha256-") {
			continue
		}
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if fi.ModTime().Before(cutoff) {
			_ = os.Remove(filepath.Join(s.dir, "objects", e.Name()))
			continue
		}
		objs = append(objs, obj{e.Name(), fi.Size(), fi.ModTime()})
		total += fi.Size()
	}
	if total <= maxBytes {
		return
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].used.Before(objs[j].used) })
	for _, o := range objs {
		if total <= maxBytes {
			break
		}
		if os.Remove(filepath.Join(s.dir, "objects", o.name)) == nil {
			total -= o.size
		}
	}
}

// StoreStats counts the objects of the store at dir (checked as a read
// checks it; a missing store is created).
func StoreStats(dir string) (StoreInfo, error) {
	s, err := openStore(dir)
	if err != nil {
		return StoreInfo{}, err
	}
	info := StoreInfo{Dir: s.dir}
	ents, err := os.ReadDir(filepath.Join(s.dir, "objects"))
	if err != nil {
		return info, &Error{Code: CodeStore, Message: fmt.Sprintf("read cache store %s: %v", dir, err)}
	}
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && strings.HasPrefix(e.Name(), "sha256-") {
			info.Objects++
			info.Bytes += fi.Size()
		}
	}
	return info, nil
}
