package readcache

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/unicode/norm"
)

// unicodeSpaces are the characters pi's path utilities turn into a plain
// space (path-utils.ts, UNICODE_SPACES). It and the two below are
// compiled at first use: at package initialisation they cost every
// process that loads the library 0.1 ms before its first call.
var unicodeSpaces = lazyRegexp("[\u00A0\u2000-\u200A\u202F\u205F\u3000]")

// amPM finds " AM." and " PM." (any case), which macOS screenshot names
// write with a narrow no-break space.
var amPM = lazyRegexp(`(?i) (AM|PM)\.`)

// rangeSuffix is the "path:start" or "path:start-end" shorthand of §5.2.
var rangeSuffix = lazyRegexp(`^(.*):([0-9]+)(?:-([0-9]+))?$`)

// lazyRegexp returns a function compiling pattern at its first call.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// expandPath is pi's expandPath: a leading "@" dropped, unicode spaces made
// plain, "~" and "~/" expanded to the home directory.
func expandPath(p string) string {
	p = strings.TrimPrefix(p, "@")
	p = unicodeSpaces().ReplaceAllString(p, " ")
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return home + p[1:]
		}
	}
	return p
}

// resolveToCwd is pi's resolveToCwd: absolute paths as they are, relative
// ones joined to cwd and cleaned (node's path.resolve).
func resolveToCwd(p, cwd string) string {
	p = expandPath(p)
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(cwd, p)
}

// exists is node's accessSync(p, F_OK): the path, its links followed, is
// there.
func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// resolveReadPath is pi's resolveReadPath: the path, else the first of the
// macOS variants (narrow space before AM/PM, NFD, curly apostrophe, NFD and
// curly apostrophe) that exists, else the path.
func resolveReadPath(p, cwd string) string {
	resolved := resolveToCwd(p, cwd)
	if exists(resolved) {
		return resolved
	}
	if v := amPM().ReplaceAllString(resolved, "\u202F$1."); v != resolved && exists(v) {
		return v
	}
	nfd := norm.NFD.String(resolved)
	if nfd != resolved && exists(nfd) {
		return nfd
	}
	if v := strings.ReplaceAll(resolved, "'", "\u2019"); v != resolved && exists(v) {
		return v
	}
	if v := strings.ReplaceAll(nfd, "'", "\u2019"); v != resolved && exists(v) {
		return v
	}
	return resolved
}

// pathKey names a file across spellings: its real path when it resolves.
func pathKey(abs string) string {
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return filepath.Clean(abs)
}

// Resolve applies §5: pi's path normalization, then the "path:start-end"
// shorthand when neither Offset nor Limit is given and the path as written
// does not exist but the path before the suffix does. A suffix whose lines
// are not positive or whose end precedes its start is an error
// (CodeInvalidRange).
func Resolve(o ResolveOptions) (Resolved, error) { return resolve(o, false) }

// resolve is Resolve; anyBase parses a suffix also when the path before it
// does not exist (a read of a stored object: the file may be gone since
// the read that was served with the suffix parsed).
func resolve(o ResolveOptions, anyBase bool) (Resolved, error) {
	cwd, err := workingDir(o.Cwd)
	if err != nil {
		return Resolved{}, err
	}
	r := Resolved{Path: o.Path, Offset: o.Offset, Limit: o.Limit}
	r.AbsPath = resolveReadPath(o.Path, cwd)
	if o.Offset == nil && o.Limit == nil && !exists(r.AbsPath) {
		if m := rangeSuffix().FindStringSubmatch(o.Path); m != nil && m[1] != "" {
			if abs := resolveReadPath(m[1], cwd); anyBase || exists(abs) {
				start, end, err := parseRange(o.Path, m[2], m[3])
				if err != nil {
					return Resolved{}, err
				}
				limit := end - start + 1
				r.Path, r.AbsPath, r.Offset, r.Limit = m[1], abs, &start, &limit
			}
		}
	}
	r.PathKey = pathKey(r.AbsPath)
	return r, nil
}

// parseRange checks the numbers of a "path:start[-end]" suffix; ":n" is the
// one line n.
func parseRange(path, s, e string) (start, end int, err error) {
	bad := func(why string) error {
		return &Error{Code: CodeInvalidRange, Message: fmt.Sprintf("Invalid line range in %q: %s", path, why)}
	}
	num := func(d string) (int, error) {
		n, err := strconv.Atoi(d)
		switch {
		case err != nil:
			return 0, bad(fmt.Sprintf("line number %s is too large", d))
		case n < 1:
			return 0, bad("line numbers start at 1")
		}
		return n, nil
	}
	if start, err = num(s); err != nil {
		return 0, 0, err
	}
	end = start
	if e != "" {
		if end, err = num(e); err != nil {
			return 0, 0, err
		}
		if end < start {
			return 0, 0, bad(fmt.Sprintf("the end line %d is before the start line %d", end, start))
		}
	}
	return start, end, nil
}

// workingDir is cwd when given (it must be absolute), else the process's.
func workingDir(cwd string) (string, error) {
	if cwd == "" {
		d, err := os.Getwd()
		if err != nil {
			return "", &Error{Code: CodeInvalidOptions, Message: "readcache: no cwd given and the working directory is unknown: " + err.Error()}
		}
		return d, nil
	}
	if !filepath.IsAbs(cwd) {
		return "", &Error{Code: CodeInvalidOptions, Message: fmt.Sprintf("readcache: cwd %q is not an absolute path", cwd)}
	}
	return cwd, nil
}
