package mounts

import "os"

// Read reads the process's mount table; nil when it cannot be read or
// parsed.
func Read() *Table {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	return Parse(data)
}
