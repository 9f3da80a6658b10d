// Package mounts reads the process's mount table (Linux's
// /proc/self/mountinfo) and answers what file system holds a path: grep
// asks whether a short read means end of file there, the scan cache
// whether change notifications can be trusted there.
package mounts

import (
	"bytes"
	"strings"
)

// Point is one mount: its directory (absolute, unescaped) and its file
// system type ("ext4", "nfs4", "fuse.sshfs").
type Point struct {
	Dir, Type string
}

// Table is a mount table, in mount order.
type Table struct {
	Points []Point
}

// Parse parses mountinfo lines ("36 35 98:0 /mnt1 /mnt/parent rw master:1
// - ext3 /dev/root rw"): the fifth field is the mount point (octal escapes
// for space, tab, newline and backslash), the one after "-" the type. A
// line it cannot parse makes the whole table unknown (nil).
func Parse(data []byte) *Table {
	t := &Table{}
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
		dir, ok := unescape(f[4])
		if !ok {
			return nil
		}
		t.Points = append(t.Points, Point{Dir: dir, Type: f[sep+1]})
	}
	if len(t.Points) == 0 {
		return nil
	}
	return t
}

// unescape undoes mountinfo's \ooo escapes.
func unescape(s string) (string, bool) {
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

// TypeOf returns the type of the file system holding dir (an absolute,
// canonical path): the innermost mount point at or above it, the last one
// mounted there; "" when none is.
func (t *Table) TypeOf(dir string) string {
	best, typ := -1, ""
	for _, p := range t.Points {
		if len(p.Dir) >= best && Under(dir, p.Dir) {
			best, typ = len(p.Dir), p.Type
		}
	}
	return typ
}

// Within returns the mounts whose directory lies strictly below dir.
func (t *Table) Within(dir string) []Point {
	var out []Point
	for _, p := range t.Points {
		if p.Dir != dir && Under(p.Dir, dir) {
			out = append(out, p)
		}
	}
	return out
}

// Under reports whether path is dir or below it ('/'-separated, canonical).
func Under(path, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(path, "/")
	}
	return path == dir || strings.HasPrefix(path, dir) && len(path) > len(dir) && path[len(dir)] == '/'
}

// Remote reports whether typ is a network, FUSE or host-shared file system:
// one whose files can change without an event on this machine (inotify
// sees only the changes made through this kernel's mount).
func Remote(typ string) bool {
	switch typ {
	case "nfs", "nfs4", "cifs", "smb3", "smbfs", "ncpfs", "afs", "9p", "ceph", "glusterfs", "lustre",
		"gpfs", "ocfs2", "gfs2", "davfs", "coda", "virtiofs", "vboxsf", "vmhgfs", "prl_fs", "fuse", "fuseblk":
		return true
	}
	return strings.HasPrefix(typ, "fuse.")
}

// RemoteAt returns the type of a remote file system (Remote) that holds
// root or is mounted below it, "" when there is none.
func (t *Table) RemoteAt(root string) string {
	if typ := t.TypeOf(root); Remote(typ) {
		return typ
	}
	for _, p := range t.Within(root) {
		if Remote(p.Type) {
			return p.Type
		}
	}
	return ""
}
