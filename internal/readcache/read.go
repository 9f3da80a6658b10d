package readcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/fscache/fscache/internal/diff"
)

// DefaultMaxFileBytes: larger files are left to the caller's own read.
const DefaultMaxFileBytes = 64 << 20

// DefaultExclude are the files never cached unless Options.Exclude says
// otherwise (§15): secrets stay out of the store. The seed's four, the
// peer pi-readcache's (certificates and keys, SSH private keys, npm's and
// netrc's credentials) and anything under a .ssh directory (a pattern
// ending in "/" names a directory: see Options.Exclude).
var DefaultExclude = []string{
	".env*", "*.pem", "*.key", "*.p12",
	"*.pfx", "*.crt", "*.cer", "*.der", "*.pk8",
	"id_rsa", "id_ed25519", "id_ecdsa", "id_dsa",
	".npmrc", ".netrc",
	".ssh/",
}

// diffContext is the unified diff's context (§9.2).
const diffContext = 3

// Read answers a read (§8): the file is read once; the answer is pi's own
// read output (ModeFull, and ModeFullFallback when a base could not be
// used), a marker (ModeUnchanged, ModeUnchangedRange) or a unified diff
// (ModeDiff), each with its Meta; or ModeBaseline when the file is not
// text the cache serves. Errors are those pi's read reports itself (an
// offset past the end), a malformed range, a FIFO or device (which pi would
// block on), and cancellation.
func Read(o Options) (Result, error) {
	r, err := resolve(o.ResolveOptions, o.ObjectHash != "")
	if err != nil {
		return Result{}, err
	}
	res := Result{Resolved: r}
	baseline := func(reason string) (Result, error) {
		res.Mode, res.Reason = ModeBaseline, reason
		return res, nil
	}
	if cancelled(o.Cancel) {
		return Result{}, errCancelled()
	}
	var byLines bool
	switch o.LineCount {
	case "", LineCountSplit:
	case LineCountLines:
		byLines = true
	default:
		return Result{}, &Error{Code: CodeInvalidOptions, Message: fmt.Sprintf("readcache: lineCount %q: expected %q or %q", o.LineCount, LineCountSplit, LineCountLines)}
	}
	if o.ObjectHash != "" {
		if !isHash(o.ObjectHash) {
			return Result{}, &Error{Code: CodeInvalidOptions, Message: fmt.Sprintf("readcache: objectHash %q: expected a sha256 of 64 lowercase hex digits", o.ObjectHash)}
		}
		if o.NoStore {
			return Result{}, &Error{Code: CodeInvalidOptions, Message: fmt.Sprintf("readcache: objectHash %s with noStore: the object is read from the store", o.ObjectHash)}
		}
	}
	if (r.Offset != nil && *r.Offset < 0) || (r.Limit != nil && *r.Limit < 1) {
		return baseline("unusual_range")
	}
	if o.ObjectHash != "" {
		return readObject(res, o, byLines)
	}
	fi, err := os.Stat(r.AbsPath)
	switch {
	case err != nil:
		return baseline("not_found")
	case fi.IsDir():
		return baseline("directory")
	case !fi.Mode().IsRegular():
		return Result{}, &Error{Code: CodeNotRegular, Message: fmt.Sprintf("Not a regular file: %s (%s): refusing to read it", r.AbsPath, kind(fi.Mode()))}
	case excluded(o.Exclude, r.AbsPath, r.PathKey):
		return baseline("excluded")
	}
	limit := o.MaxFileBytes
	if limit <= 0 {
		limit = DefaultMaxFileBytes
	}
	if fi.Size() > limit {
		return readHuge(res, byLines, o.Cancel)
	}
	b, err := readFile(r.AbsPath, limit)
	switch {
	case errors.Is(err, errTooLarge): // it grew since
		return readHuge(res, byLines, o.Cancel)
	case errors.Is(err, errNotRegular):
		return Result{}, &Error{Code: CodeNotRegular, Message: fmt.Sprintf("Not a regular file: %s: refusing to read it", r.AbsPath)}
	case err != nil:
		return baseline("unreadable")
	case isImage(b):
		return baseline("image")
	case !utf8.Valid(b):
		return baseline("invalid_utf8")
	}
	text := string(b)
	lines := strings.Split(text, "\n")
	w, err := selectWindow(len(lines), r.Offset, r.Limit)
	if err != nil {
		return Result{}, err
	}
	sum := sha256.Sum256(b)
	hash := hex.EncodeToString(sum[:])
	meta := newMeta(r, lines, w, hash)
	start, end, scope := meta.RangeStart, meta.RangeEnd, meta.ScopeKey
	res.Meta = meta

	// The base: the exact scope's hash, else (for a range) the full read's.
	var base string
	fromFull := false
	if o.PathKey == r.PathKey && o.Bases != nil {
		if base = o.Bases[scope]; base == "" && scope != "full" {
			base, fromFull = o.Bases["full"], true
		}
	}

	var st *store
	if !o.NoStore {
		dir, err := storeDir(o)
		if err != nil {
			return Result{}, err
		}
		if st, err = openStore(dir); err != nil {
			res.StoreError = err.Error()
		}
	}

	full := func(mode Mode, reason string) {
		res.Mode, res.Reason = mode, reason
		res.Text, res.Truncation = piText(lines, w, r.Path, byLines)
	}
	switch {
	case base == "":
		full(ModeFull, "")
	case base == hash && (!fromFull || covered(lines, end, byLines)):
		res.Mode = ModeUnchanged
		res.Text = markerUnchanged(lineTotal(lines, byLines))
		if scope != "full" {
			res.Mode = ModeUnchangedRange
			res.Text = markerUnchangedRange(start, end, lineTotal(lines, byLines))
		}
	case base == hash:
		// The full read this range falls back on showed fewer lines.
		full(ModeFull, "")
	default:
		old, ok := "", false
		if st != nil {
			old, ok = st.get(base)
		}
		switch {
		case !ok:
			full(ModeFullFallback, "base_missing")
		case scope != "full":
			oldLines := strings.Split(old, "\n")
			if end <= len(oldLines) && slices.Equal(oldLines[start-1:end], lines[start-1:end]) &&
				(!fromFull || covered(oldLines, end, byLines)) {
				res.Mode = ModeUnchangedRange
				res.Text = markerUnchangedRangeElsewhere(start, end)
			} else {
				full(ModeFullFallback, "range_changed")
			}
		default:
			if err := serveDiff(&res, o, lines, w, old, text, byLines); err != nil {
				return Result{}, err
			}
		}
	}
	meta.BaseHash = base
	meta.Mode = res.Mode
	meta.Bytes = len(res.Text)
	if cancelled(o.Cancel) {
		return Result{}, errCancelled()
	}
	if st != nil {
		if err := st.put(hash, b); err != nil {
			res.StoreError = err.Error()
		}
		st.maybePrune(o.StoreMaxBytes, o.StoreMaxAgeSeconds)
	}
	return res, nil
}

// newMeta is the Meta of a read of lines[w.start:w.end] of content hash
// (its Mode, BaseHash and Bytes are set when answered).
func newMeta(r Resolved, lines []string, w window, hash string) *Meta {
	start, end := w.start+1, w.end
	scope := "full"
	if start != 1 || end != len(lines) {
		scope = fmt.Sprintf("r:%d:%d", start, end)
	}
	return &Meta{V: 1, PathKey: r.PathKey, ScopeKey: scope, ServedHash: hash,
		TotalLines: len(lines), RangeStart: start, RangeEnd: end}
}

// storeDir is the object store's directory: o.StoreDir, else
// <Cwd>/.pi/readcache.
func storeDir(o Options) (string, error) {
	if o.StoreDir != "" {
		return o.StoreDir, nil
	}
	cwd, err := workingDir(o.Cwd)
	if err != nil {
		return "", err
	}
	return filepath.Join(cwd, ".pi", "readcache"), nil
}

// readObject answers a read with Options.ObjectHash: pi's read output for
// the resolved range of the store's object of that hash (checked against
// its name, and marked used, as a base is), as Read answers for a file
// holding exactly that content (ModeFull; baseline for an excluded path,
// or content that is an image or not UTF-8, which no read stores). The
// file itself is not opened. Bases are ignored; nothing is written and the
// store is not pruned. A refused store is its CodeStore error; a missing
// or damaged object CodeObjectMissing.
func readObject(res Result, o Options, byLines bool) (Result, error) {
	r := res.Resolved
	if excluded(o.Exclude, r.AbsPath, r.PathKey) {
		res.Mode, res.Reason = ModeBaseline, "excluded"
		return res, nil
	}
	dir, err := storeDir(o)
	if err != nil {
		return Result{}, err
	}
	st, err := openStore(dir)
	if err != nil {
		return Result{}, err
	}
	text, ok := st.get(o.ObjectHash)
	if !ok {
		return Result{}, &Error{Code: CodeObjectMissing, Message: fmt.Sprintf("readcache: object %s is missing or damaged in the read cache store %s", objectName(o.ObjectHash), dir)}
	}
	switch {
	case isImage([]byte(text[:min(len(text), 12)])):
		res.Mode, res.Reason = ModeBaseline, "image"
		return res, nil
	case !utf8.ValidString(text):
		res.Mode, res.Reason = ModeBaseline, "invalid_utf8"
		return res, nil
	}
	lines := strings.Split(text, "\n")
	w, err := selectWindow(len(lines), r.Offset, r.Limit)
	if err != nil {
		return Result{}, err
	}
	res.Meta = newMeta(r, lines, w, o.ObjectHash)
	res.Mode = ModeFull
	res.Text, res.Truncation = piText(lines, w, r.Path, byLines)
	res.Meta.Mode = res.Mode
	res.Meta.Bytes = len(res.Text)
	if cancelled(o.Cancel) {
		return Result{}, errCancelled()
	}
	return res, nil
}

// isHash: s is a sha256 in 64 lowercase hex digits.
func isHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// serveDiff answers a changed full-scope read with a unified diff from old
// to text when it is useful (§16.3): within pi's own output limits and at
// most half the size of the full answer it replaces, and found within the
// diff's work budget. Otherwise the full answer (ModeFullFallback).
func serveDiff(res *Result, o Options, lines []string, w window, old, text string, byLines bool) error {
	fullText, fullTrunc := piText(lines, w, res.Path, byLines)
	budget := min(maxBytes, len(fullText)/2)
	name := strings.TrimPrefix(res.Path, "@")
	patch, stats, err := diff.Unified(name, name, old, text, diff.Options{Context: diffContext, MaxBytes: budget, Cancel: o.Cancel})
	var out string
	if err == nil {
		out = diffHeader(stats.Changed, lineTotal(lines, byLines)) + patch
		// Served only when it provably turns the base into the current
		// text: a wrong diff would have the model edit the wrong thing.
		if got, aerr := diff.Apply(old, patch); aerr != nil || got != text {
			err = fmt.Errorf("readcache: the diff of %s does not apply to its base", res.Path)
		}
	}
	switch {
	case errors.Is(err, diff.ErrCancelled):
		return errCancelled()
	case errors.Is(err, diff.ErrTooCostly):
		// Past the diff's work budget (proportional to the two texts'
		// lines): inputs such as many lines drawn from a few distinct
		// ones, whose diff would be large anyway.
		res.Mode, res.Reason = ModeFullFallback, "diff_too_costly"
		res.Text, res.Truncation = fullText, fullTrunc
	case err != nil, len(out) > budget, strings.Count(out, "\n")+1 > maxLines:
		res.Mode, res.Reason = ModeFullFallback, "diff_not_useful"
		res.Text, res.Truncation = fullText, fullTrunc
	default:
		res.Mode, res.Text = ModeDiff, out
	}
	return nil
}

// covered: a full read of these lines showed the lines up to end (pi's
// read truncates at maxLines lines or maxBytes bytes).
func covered(lines []string, end int, byLines bool) bool {
	t := truncateHead(lines, byLines)
	return !t.Truncated || end <= t.OutputLines
}

var (
	errTooLarge   = errors.New("file too large")
	errNotRegular = errors.New("not a regular file")
)

// readFile reads a regular file of at most limit bytes. It opens without
// blocking (a FIFO swapped in after the check is refused, not waited on).
func readFile(p string, limit int64) ([]byte, error) {
	return openRegular(p, openFlags, limit)
}

// readRegularInfo reads a store object, refusing a symlink or anything but
// a regular file, and says which file it read.
func readRegularInfo(p string) ([]byte, fs.FileInfo, error) {
	f, err := os.OpenFile(p, openFlags|noFollow, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, errNotRegular
	}
	b, err := io.ReadAll(f)
	return b, fi, err
}

// openRegular opens p with flags and reads it whole when it is a regular
// file of at most limit bytes.
func openRegular(p string, flags int, limit int64) ([]byte, error) {
	f, err := os.OpenFile(p, flags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, errTooLarge
	}
	return b, nil
}

// isImage: the formats pi's read sends as images (jpeg, png, gif, webp),
// by their magic numbers.
func isImage(b []byte) bool {
	return bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) ||
		bytes.HasPrefix(b, []byte("\xff\xd8\xff")) ||
		bytes.HasPrefix(b, []byte("GIF87a")) || bytes.HasPrefix(b, []byte("GIF89a")) ||
		(len(b) >= 12 && bytes.HasPrefix(b, []byte("RIFF")) && string(b[8:12]) == "WEBP")
}

// excluded: a pattern matches the file's name (or, when it has a "/", its
// whole path; when it ends in "/", the name of a directory the file is
// under), as written or as its real path.
func excluded(patterns []string, abs, real string) bool {
	if patterns == nil {
		patterns = DefaultExclude
	}
	for _, pat := range patterns {
		for _, p := range []string{abs, real} {
			p = filepath.ToSlash(p)
			if dir, ok := strings.CutSuffix(pat, "/"); ok {
				if underDir(dir, p) {
					return true
				}
				continue
			}
			subject := path.Base(p)
			if strings.Contains(pat, "/") {
				subject = p
			}
			if ok, _ := path.Match(pat, subject); ok {
				return true
			}
		}
	}
	return false
}

// underDir: a directory of p (a slash path; its base name excluded) has a
// name that matches the glob pattern dir.
func underDir(dir, p string) bool {
	parts := strings.Split(path.Dir(p), "/")
	for _, part := range parts {
		if part == "" {
			continue
		}
		if ok, _ := path.Match(dir, part); ok {
			return true
		}
	}
	return false
}

// kind names a non-regular file's type for an error message.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

func cancelled(c func() bool) bool { return c != nil && c() }

func errCancelled() error { return &Error{Code: CodeCancelled, Message: "Operation aborted"} }
