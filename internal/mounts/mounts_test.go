package mounts

import "testing"

const info = `22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
30 22 0:26 / /mnt/nfs rw,relatime shared:2 - nfs4 server:/export rw
31 30 8:2 / /mnt/nfs/local rw - xfs /dev/sdb rw
32 22 0:27 / /tmp rw shared:3 - tmpfs tmpfs rw
33 22 0:28 / /home/u/repo/with\040space rw - fuse.sshfs host: rw
35 32 0:29 / /tmp/over rw - overlay overlay rw
36 35 0:30 / /tmp/over rw - ext4 /dev/sdc rw
`

func TestTypeOf(t *testing.T) {
	m := Parse([]byte(info))
	if m == nil {
		t.Fatal("not parsed")
	}
	for dir, want := range map[string]string{
		"/": "ext4", "/home/u": "ext4", "/mnt/nfs": "nfs4", "/mnt/nfs/a": "nfs4", "/mnt/nfsx": "ext4",
		"/mnt/nfs/local/x": "xfs", "/tmp/over/z": "ext4", "/tmp/overlay": "tmpfs",
		"/home/u/repo/with space/a": "fuse.sshfs",
	} {
		if got := m.TypeOf(dir); got != want {
			t.Errorf("TypeOf(%q) = %q, want %q", dir, got, want)
		}
	}
	for _, bad := range []string{"garbage\n", "1 2 3 4 /x no separator\n", `1 2 3 4 /a\04 rw - ext4 x rw` + "\n", ""} {
		if Parse([]byte(bad)) != nil {
			t.Errorf("parsed %q", bad)
		}
	}
}

// TestRemoteAt: a root on a network or FUSE mount, or holding one, is
// remote; a local mount inside a network one is not (its own changes are
// seen), nor is a sibling whose name shares a prefix.
func TestRemoteAt(t *testing.T) {
	m := Parse([]byte(info))
	for root, want := range map[string]string{
		"/mnt/nfs/a":       "nfs4",
		"/mnt":             "nfs4", // holds /mnt/nfs
		"/mnt/nfs/local/x": "",
		"/home/u/repo":     "fuse.sshfs",
		"/home/u/rep":      "",
		"/tmp":             "",
		"/":                "nfs4",
	} {
		if got := m.RemoteAt(root); got != want {
			t.Errorf("RemoteAt(%q) = %q, want %q", root, got, want)
		}
	}
	for typ, want := range map[string]bool{"fuse": true, "fuse.sshfs": true, "fuseblk": true, "9p": true,
		"cifs": true, "ext4": false, "overlay": false, "tmpfs": false, "btrfs": false} {
		if Remote(typ) != want {
			t.Errorf("Remote(%q) = %v", typ, !want)
		}
	}
}
