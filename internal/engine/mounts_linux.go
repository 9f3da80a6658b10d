package engine

import "github.com/fscache/fscache/internal/mounts"

// mountTable is the file system type of every mount point of the process's
// mount namespace, read from /proc/self/mountinfo once per grep call that
// searches many directories: it answers shortReadIsEOF for a directory by
// its path, sparing an open, an fstatfs and a close per directory (on a
// repository of small test-fixture directories, a third of grep's system
// calls). Paths must be canonical (no symbolic link on the way), as grep's
// are: the scan root is resolved and links are not followed.
type mountTable struct {
	t *mounts.Table
}

// localFS are the types shortReadIsEOF accepts (by magic number), by name.
var localFS = map[string]bool{
	"ext2": true, "ext3": true, "ext4": true, "xfs": true, "btrfs": true, "tmpfs": true, "devtmpfs": true,
	"f2fs": true, "bcachefs": true, "zfs": true,
}

// readMounts reads the mount table; nil when it cannot be read or parsed,
// and the caller asks each directory (shortReadIsEOF).
func readMounts() *mountTable { return tableOf(mounts.Read()) }

// parseMountinfo parses mountinfo's text (mounts.Parse); nil when it
// cannot.
func parseMountinfo(data []byte) *mountTable { return tableOf(mounts.Parse(data)) }

func tableOf(t *mounts.Table) *mountTable {
	if t == nil {
		return nil
	}
	return &mountTable{t: t}
}

// shortEOF reports shortReadIsEOF for the directory dir (an absolute,
// canonical path): the type of the innermost mount point holding it, the
// last one mounted there.
func (m *mountTable) shortEOF(dir string) bool { return localFS[m.t.TypeOf(dir)] }
