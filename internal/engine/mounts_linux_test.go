package engine

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

func TestParseMountinfo(t *testing.T) {
	info := `22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
30 22 0:26 / /mnt/nfs rw,relatime shared:2 - nfs4 server:/export rw
31 30 8:2 / /mnt/nfs/local rw - xfs /dev/sdb rw
32 22 0:27 / /tmp rw shared:3 - tmpfs tmpfs rw
33 22 0:28 / /with\040space rw - fuse.sshfs host: rw
34 22 8:1 /src /tmp/bind rw - ext4 /dev/sda1 rw
35 32 0:29 / /tmp/over rw - overlay overlay rw
36 35 0:30 / /tmp/over rw - ext4 /dev/sdc rw
`
	m := parseMountinfo([]byte(info))
	if m == nil {
		t.Fatal("not parsed")
	}
	for dir, want := range map[string]bool{
		"/":                 true,
		"/home/u/repo":      true,
		"/mnt/nfs":          false,
		"/mnt/nfs/a/b":      false,
		"/mnt/nfsx":         true, // not under /mnt/nfs
		"/mnt/nfs/local/x":  true,
		"/tmp/x":            true,
		"/with space/a":     false,
		"/with":             true,
		"/tmp/bind/y":       true,
		"/tmp/over/z":       true, // the last mount over the point wins
		"/tmp/overlay/then": true,
	} {
		if got := m.shortEOF(dir); got != want {
			t.Errorf("shortEOF(%q) = %v, want %v", dir, got, want)
		}
	}
	for _, bad := range []string{"garbage\n", "1 2 3 4 /x no separator\n", `1 2 3 4 /a\04 rw - ext4 x rw` + "\n"} {
		if parseMountinfo([]byte(bad)) != nil {
			t.Errorf("parsed %q", bad)
		}
	}
}

// TestMountTableAgreesWithFstatfs: for real directories, the mount table's
// answer is the one fstatfs gives.
func TestMountTableAgreesWithFstatfs(t *testing.T) {
	m := readMounts()
	if m == nil {
		t.Fatal("/proc/self/mountinfo not read")
	}
	dirs := []string{"/", "/proc", "/dev", os.TempDir(), t.TempDir()}
	if wd, err := os.Getwd(); err == nil {
		dirs = append(dirs, wd)
	}
	for _, d := range dirs {
		real, err := filepath.EvalSymlinks(d)
		if err != nil {
			continue
		}
		fd, err := unix.Open(real, unix.O_RDONLY|unix.O_DIRECTORY, 0)
		if err != nil {
			continue
		}
		want := shortReadIsEOF(fd)
		unix.Close(fd)
		if got := m.shortEOF(real); got != want {
			t.Errorf("%s: mount table says %v, fstatfs %v", real, got, want)
		}
	}
}
