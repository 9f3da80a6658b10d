package walk

import (
	"math"
	"testing"
	"time"
)

// TestMtimeMs: the milliseconds of an ns mtime are the float64 that
// pi-natives 18.2.3 and 18.2.11 report (glob's and listWorkspace's mtime,
// read back from files set with touch -d), bit for bit. The near misses
// are what other ways of computing it give (ns/1e6, µs/1000,
// seconds-as-float*1000).
func TestMtimeMs(t *testing.T) {
	for _, c := range []struct {
		sec, nsec int64
		want      float64
	}{
		{1767225600, 5_100_000, 1767225600005.1},
		{1767225600, 5_100_001, 1767225600005.1}, // one float64 step is 244 ns here: a tie
		{1767225600, 5_099_999, 1767225600005.1},
		{1767225600, 1, 1767225600000},
		{1767225600, 1_000, 1767225600000.001},
		{1767225600, 2_000, 1767225600000.002},
		{1767225600, 999_999_999, 1767225601000},
		{1767225600, 123_456_789, 1767225600123.4568},
		{1767225600, 333_333_333, 1767225600333.3333},
		{1700000001, 234_567_800, 1700000001234.5679}, // ns/1e6 gives 1700000001234.5676
		{1700000001, 234_900_000, 1700000001234.9},
		{1234567890, 987_654_321, 1234567890987.6543},
		{4102444800, 7, 4102444800000},
		{9999999999, 999_999_999, 10000000000000}, // past int64's ns: MsOf only
		{1, 0, 1000},
		{0, 1, 0.000001}, // seconds-as-float*1000 gives 1.0000000000000002e-06
		{0, 0, 0},
	} {
		if got := MsOf(c.sec, c.nsec); math.Float64bits(got) != math.Float64bits(c.want) {
			t.Errorf("MsOf(%d, %d) = %v, want %v", c.sec, c.nsec, got, c.want)
		}
		if c.sec >= 9223372036 {
			continue // past int64's ns: see TestNanos
		}
		ns := c.sec*1e9 + c.nsec
		if got := MtimeMs(ns); math.Float64bits(got) != math.Float64bits(c.want) {
			t.Errorf("MtimeMs(%d) = %v, want %v", ns, got, c.want)
		}
	}
	// Before the epoch (no result reports these: 18.2 leaves such an
	// mtime out) it is the timespec's floored seconds and positive ns, as
	// time.Time gives them.
	for _, ns := range []int64{-1, -1_000_000_000, -1_500_000_001, -86_400_000_000_000} {
		tm := time.Unix(0, ns)
		want := float64(tm.Unix())*1000 + float64(tm.Nanosecond())/1e6
		if got := MtimeMs(ns); got != want {
			t.Errorf("MtimeMs(%d) = %v, want %v", ns, got, want)
		}
	}
}

// TestNanos: the ns of a timespec, saturated past int64's range (as the
// largest time it holds, which MtimeMs reports as 18.2 reports it), and
// -1 (unknown) never produced by a real time.
func TestNanos(t *testing.T) {
	for _, c := range []struct{ sec, nsec, want int64 }{
		{1767225600, 5_100_001, 1767225600_005_100_001},
		{0, 0, 0},
		{-1, 999_999_999, -2}, // 1 ns before the epoch: -1 would read as unknown
		{-1, 999_999_998, -2},
		{-2, 500_000_000, -1_500_000_000},
		{9223372036, 854_775_807, math.MaxInt64},
		{9223372036, 854_775_808, math.MaxInt64},
		{9999999999, 999_999_999, math.MaxInt64},
		{math.MaxInt64 / 2, 0, math.MaxInt64},
		{-9223372036, 0, -9223372036_000_000_000},
		{-9223372037, 0, math.MinInt64},
		{math.MinInt64 / 2, 0, math.MinInt64},
	} {
		if got := Nanos(c.sec, c.nsec); got != c.want {
			t.Errorf("Nanos(%d, %d) = %d, want %d", c.sec, c.nsec, got, c.want)
		}
	}
	// The largest time held is reported as 18.2.3 reports it.
	if got, want := MtimeMs(math.MaxInt64), 9223372036854.775; got != want {
		t.Errorf("MtimeMs(MaxInt64) = %v, want %v", got, want)
	}
}
