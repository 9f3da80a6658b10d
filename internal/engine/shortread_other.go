//go:build unix && !linux

package engine

// shortReadIsEOF is false: files are read until a read returns 0.
func shortReadIsEOF(int) bool { return false }
