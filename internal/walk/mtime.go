package walk

import "math"

// Mtimes: a walk records them in ns since the epoch (Entry.Mtime), which
// results report as milliseconds with their fraction (MtimeMs), as
// pi-natives 18.2 does.

// MtimeMs converts an mtime in ns since the epoch (Entry.Mtime) to the
// milliseconds, with their fraction, that results report, computed as
// pi-natives 18.2 computes them (Rust's Duration as seconds and
// nanoseconds: secs as f64 * 1000.0 + nanos as f64 / 1e6, which is also
// Node's fs.Stats.mtimeMs): bit for bit the same float64, so that the
// values and the newest-first order agree with 18.2's. Two mtimes whose
// ns differ can give the same float64 (its step is 244 ns in 2026): they
// then tie, as in 18.2. Before the epoch the seconds are floored and the
// nanoseconds positive, as in a timespec.
func MtimeMs(ns int64) float64 {
	sec, nsec := ns/1e9, ns%1e9
	if nsec < 0 {
		sec, nsec = sec-1, nsec+1e9
	}
	return MsOf(sec, nsec)
}

// MsOf is MtimeMs of a time given as seconds since the epoch and
// nanoseconds (0 to 999,999,999) past them.
func MsOf(sec, nsec int64) float64 {
	// float64() around the product keeps it from being fused with the sum
	// (the Go spec allows an FMA otherwise); the product is exact anyway.
	return float64(float64(sec)*1000) + float64(nsec)/1e6
}

// Nanos returns the ns since the epoch of a time given as seconds and
// nanoseconds (0 to 999,999,999) past them, as Entry.Mtime records it:
// saturated at the ends of int64 (after 2262-04-11T23:47:16.854775807Z,
// and from about 1677-09-21T00:12:44Z back), and 1 ns before the epoch
// read as 2 ns before, since -1 means unknown.
func Nanos(sec, nsec int64) int64 {
	const perSec int64 = 1e9
	switch {
	case sec > (math.MaxInt64-nsec)/perSec:
		return math.MaxInt64
	case sec < math.MinInt64/perSec:
		return math.MinInt64
	}
	ns := sec*perSec + nsec
	if ns == -1 {
		ns = -2
	}
	return ns
}
