package engine

import (
	"bytes"
	"os"
	"strings"
)

// mountTable is the file system type of every mount point of the process's
// mount namespace, read from /proc/self/mountinfo once per grep call that
// searches many directories: it answers shortReadIsEOF for a directory by
// its path, sparing an open, an fstatfs and a close per directory (on a
// repository of small test-fixture directories, a third of grep's system
// calls). Paths must be canonical (no symbolic link on the way), as grep's
// are: the scan root is resolved and links are not followed.
type mountTable struct {
	points []mountPoint
}

type mountPoint struct {
	dir   string
	local bool // shortReadIsEOF holds on it
}

// localFS are the types shortReadIsEOF accepts (by magic number), by name.
var localFS = map[string]bool{
	"ext2": true, "ext3": true, "ext4": true, "xfs": true, "btrfs": true, "tmpfs": true, "devtmpfs": true,
	"f2fs": true, "bcachefs": true, "zfs": true,
}

// readMounts reads the mount table; nil when it cannot be read or parsed,
// and the caller asks each directory (shortReadIsEOF).
func readMounts() *mountTable {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	return parseMountinfo(data)
}

// parseMountinfo parses mountinfo lines ("36 35 98:0 /mnt1 /mnt/parent rw
// master:1 - ext3 /dev/root rw"): the fifth field is the mount point
// (octal escapes for space, tab, newline and backslash), the one after "-"
// the type. A line it cannot parse makes the whole table unknown (nil).
func parseMountinfo(data []byte) *mountTable {
	t := &mountTable{}
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if len(line) == 0 {
			continue
		}
		f := strings.Fields(string(line))
		sep := -1
		for i := 6; i < len(f); i++ {
			if f[i] == "-" {
				sep = i
				break
			}
		}
		if len(f) < 5 || sep < 0 || sep+1 >= len(f) || !strings.HasPrefix(f[4], "/") {
			return nil
		}
		dir, ok := unescapeMount(f[4])
		if !ok {
			return nil
		}
		// A later line for the same point is a mount over it: it wins.
		t.points = append(t.points, mountPoint{dir: dir, local: localFS[f[sep+1]]})
	}
	if len(t.points) == 0 {
		return nil
	}
	return t
}

// unescapeMount undoes mountinfo's \ooo escapes.
func unescapeMount(s string) (string, bool) {
	if !strings.Contains(s, `\`) {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+4 > len(s) {
			return "", false
		}
		v := 0
		for _, c := range []byte(s[i+1 : i+4]) {
			if c < '0' || c > '7' {
				return "", false
			}
			v = v*8 + int(c-'0')
		}
		b.WriteByte(byte(v))
		i += 3
	}
	return b.String(), true
}

// shortEOF reports shortReadIsEOF for the directory dir (an absolute,
// canonical path): the type of the innermost mount point holding it, the
// last one mounted there.
func (t *mountTable) shortEOF(dir string) bool {
	best, local := -1, false
	for _, p := range t.points {
		if len(p.dir) >= best && under(dir, p.dir) {
			best, local = len(p.dir), p.local
		}
	}
	return best >= 0 && local
}

// under reports whether path is dir or below it.
func under(path, dir string) bool {
	_, below := relBelow(path, dir)
	return path == dir || below
}
