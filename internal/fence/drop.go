package fence

import (
	"fmt"
	"sync"
)

// DropStat is what Dropped reports of one kind of background goroutine:
// how many times a panic dropped its work, and why the latest did.
type DropStat struct {
	// Count is the number of drops since the process started.
	Count int64
	// Reason is the latest drop's panic value, as text.
	Reason string
}

// drops is the record of dropped background work: process-wide, as the
// caches it belongs beside (the goroutines it counts serve them).
var drops struct {
	mu sync.Mutex
	m  map[Kind]DropStat
}

// Drop records that err, a panic, dropped the work of a goroutine of kind
// k that no call waits for (Background does; a goroutine that recovers with
// Run and goes on, the index builder, calls it itself). err's own kind may
// differ: a walker's panic that ended a background fill is the fill's drop.
func Drop(k Kind, err *Error) {
	drops.mu.Lock()
	defer drops.mu.Unlock()
	if drops.m == nil {
		drops.m = make(map[Kind]DropStat)
	}
	d := drops.m[k]
	d.Count++
	d.Reason = fmt.Sprintf("panic in %s: %v", err.Kind, err.Value)
	drops.m[k] = d
}

// Dropped returns the drops recorded so far, by kind name (Kind.String);
// empty when there were none.
func Dropped() map[string]DropStat {
	drops.mu.Lock()
	defer drops.mu.Unlock()
	out := make(map[string]DropStat, len(drops.m))
	for k, d := range drops.m {
		out[k.String()] = d
	}
	return out
}
