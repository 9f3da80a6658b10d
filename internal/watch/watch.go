// Package watch reports changes to directories from the operating system's
// change notifications (inotify on Linux), for the scan cache. One Watcher
// serves one cached root: it holds one watch per directory, and Drain
// returns what happened since the previous Drain without blocking.
package watch

import "errors"

// ErrUnsupported is returned by New where no notification mechanism is
// built in (every platform but Linux, see watch_other.go).
var ErrUnsupported = errors.New("watch: change notifications are not supported on this platform")

// ErrLimit is returned by Add when the system refuses another watch
// (inotify's max_user_watches).
var ErrLimit = errors.New("watch: watch limit reached (fs.inotify.max_user_watches)")

// Event is one change inside a watched directory.
type Event struct {
	// Dir is the absolute path of the watched directory the event is for.
	Dir string
	// Name is the entry of Dir that changed; empty for the directory itself.
	Name string
	// IsDir reports whether the entry is (or was) a directory.
	IsDir bool
	// Content reports a change of content or attributes only (the entry
	// set of Dir is unchanged): write, chmod, touch.
	Content bool
	// Gone reports that Dir itself was deleted, moved or unmounted, so its
	// watch is gone.
	Gone bool
}

// Watcher watches a set of directories.
type Watcher interface {
	// Add watches the directory dir (not following a final symlink).
	// Adding a directory already watched is cheap and keeps one watch.
	Add(dir string) error
	// RemoveIfGone stops watching dir and every directory under it when
	// no directory is at dir any more (it was deleted, or moved: a moved
	// directory's watch would report its events under the old path). The
	// check and the removal are one step with respect to Add, so a watch
	// that Add just placed on a new directory at dir is kept.
	RemoveIfGone(dir string)
	// Drain returns the events queued since the last Drain, without
	// blocking. overflow reports that the kernel dropped events: the
	// watched tree must be considered unknown.
	Drain() (events []Event, overflow bool, err error)
	// Len returns the number of watches held.
	Len() int
	// Close releases every watch. Drain and Add fail afterwards.
	Close() error
}
