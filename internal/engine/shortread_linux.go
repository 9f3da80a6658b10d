package engine

import "golang.org/x/sys/unix"

// shortReadIsEOF reports whether the directory dir is on a local disk or
// memory file system (ext2/3/4, XFS, Btrfs, tmpfs, F2FS, bcachefs, ZFS),
// where reading a regular file returns what was asked for unless the end
// of the file comes first, and is not cut short by signals: there, a read
// that does not fill the buffer ends the file, and grep skips the read
// that would return 0 (a quarter of its system calls on a tree of small
// files). Elsewhere (network and FUSE file systems, overlays, /proc) files
// are read until a read returns 0.
func shortReadIsEOF(dir int) bool {
	var st unix.Statfs_t
	if unix.Fstatfs(dir, &st) != nil {
		return false
	}
	switch uint32(st.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC,
		unix.F2FS_SUPER_MAGIC, 0xca451a4e /* bcachefs */, 0x2fc12fc1 /* zfs */ :
		return true
	}
	return false
}
