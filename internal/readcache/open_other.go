//go:build !unix

package readcache

import "os"

const openFlags = os.O_RDONLY

const noFollow = 0
