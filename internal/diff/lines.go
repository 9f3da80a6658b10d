package diff

import (
	"fmt"
	"hash/maphash"
	"strings"
	"sync"
)

// pollEvery is how many units of work (lines indexed, compared or
// extended) the diff does between two calls of Options.Cancel.
const pollEvery = 1 << 14

// side is one input split into lines.
type side struct {
	text string
	// off[i] is where line i starts; off[n] is len(text). Line i is
	// text[off[i]:off[i+1]], its "\n" included (the last line may lack it).
	off []int32
	// changed[i+1] tells whether line i is deleted (old side) or inserted
	// (new side); changed[0] and changed[n+1] are false sentinels.
	changed []bool
}

// splitLines splits s into lines, reusing off's and changed's memory.
func splitLines(s string, off []int32, changed []bool) side {
	n := strings.Count(s, "\n")
	if len(s) > 0 && s[len(s)-1] != '\n' {
		n++
	}
	off = growInt32(off, n+1)[:0]
	off = append(off, 0)
	for p := 0; p < len(s); {
		i := strings.IndexByte(s[p:], '\n')
		if i < 0 {
			p = len(s)
		} else {
			p += i + 1
		}
		off = append(off, int32(p))
	}
	changed = growBool(changed, n+2)
	clear(changed)
	return side{text: s, off: off, changed: changed}
}

// growInt32 is buf[:n], or a new slice when buf is too short.
func growInt32(buf []int32, n int) []int32 {
	if cap(buf) >= n {
		return buf[:n]
	}
	return make([]int32, n, n+n/8)
}

func growBool(buf []bool, n int) []bool {
	if cap(buf) >= n {
		return buf[:n]
	}
	return make([]bool, n, n+n/8)
}

// n is the number of lines.
func (s *side) n() int { return len(s.off) - 1 }

// line is line i with its "\n" (if any).
func (s *side) line(i int) string { return s.text[s.off[i]:s.off[i+1]] }

// differ holds one diff's state.
type differ struct {
	old, new side
	// pre is the number of common lines trimmed at the start; the lines
	// diffed are old[pre:pre+len(a)] and new[pre:pre+len(b)].
	pre int
	// a and b are the ids of the lines diffed (equal lines, equal ids).
	a, b []int32
	// cnt, head (per id) and next (per line of a) index the old side's
	// region being split by the histogram diff: how often the id occurs
	// there, where first, and where the same id occurs next (-1: nowhere).
	// cnt is zero for every id between two regions.
	cnt, head, next []int32
	// v is Myers' work space.
	v []int32
	// slots and where are the interning table (see intern).
	slots []uint64
	where []int32

	// exact lifts Myers' cost bound (tests: the edit distance).
	exact bool

	cancel func() bool
	work   int
	// spent is the work counted so far (tick's units); past budget (when
	// > 0) the diff gives up with ErrTooCostly.
	spent, budget int
	// marked is the patch's least size in bytes so far: each line marked
	// changed with its "+" or "-"; past maxBytes (when > 0) the diff gives
	// up with ErrTooLarge, as the patch would be refused anyway.
	marked, maxBytes int
}

// pool keeps differs (their buffers) between calls: a cache, so that
// repeated diffs do not allocate and clear their work space again.
var pool = sync.Pool{New: func() any { return new(differ) }}

// maxPooled is the most lines (both sides) of a differ kept in the pool:
// the buffers of larger diffs are left to the collector.
const maxPooled = 1 << 20

func newDiffer(a, b string, cancel func() bool) *differ {
	d := pool.Get().(*differ)
	d.old = splitLines(a, d.old.off, d.old.changed)
	d.new = splitLines(b, d.new.off, d.new.changed)
	d.cancel, d.work, d.exact, d.pre = cancel, 0, false, 0
	d.spent, d.budget, d.marked, d.maxBytes = 0, 0, 0, 0
	return d
}

// release returns d to the pool, without references to the inputs.
func (d *differ) release() {
	if d.old.n()+d.new.n() > maxPooled {
		return
	}
	d.old.text, d.new.text, d.cancel = "", "", nil
	pool.Put(d)
}

// tick counts w units of work and polls the cancel function every
// pollEvery units: ErrCancelled when it fired, ErrTooCostly (wrapped)
// past the budget.
func (d *differ) tick(w int) error {
	d.spent += w
	if d.budget > 0 && d.spent > d.budget {
		return fmt.Errorf("%w: %d units of work for %d lines", ErrTooCostly, d.spent, d.old.n()+d.new.n())
	}
	d.work += w
	if d.work < pollEvery {
		return nil
	}
	d.work = 0
	if d.cancel != nil && d.cancel() {
		return ErrCancelled
	}
	return nil
}

// overBytes is ErrTooLarge (wrapped) once the lines marked changed make
// a patch longer than maxBytes whatever the rest.
func (d *differ) overBytes() error {
	if d.maxBytes > 0 && d.marked > d.maxBytes {
		return fmt.Errorf("%w: more than %d bytes of changed lines", ErrTooLarge, d.maxBytes)
	}
	return nil
}

// run marks the changed lines of both sides.
func (d *differ) run() error {
	n, m := d.old.n(), d.new.n()
	pre := 0
	for pre < n && pre < m && d.old.line(pre) == d.new.line(pre) {
		pre++
	}
	suf := 0
	for suf < n-pre && suf < m-pre && d.old.line(n-1-suf) == d.new.line(m-1-suf) {
		suf++
	}
	d.pre = pre
	if err := d.tick(pre + suf); err != nil {
		return err
	}
	d.intern(pre, n-suf, m-suf)
	if err := d.histogram(region{0, int32(len(d.a)), 0, int32(len(d.b))}); err != nil {
		return err
	}
	d.shiftBoundaries()
	return nil
}

// intern gives the lines old[pre:endA] and new[pre:endB] ids: equal lines,
// equal ids, numbered from 0 in order of first appearance. Lines only in
// the new side get ids too (the shifting of changes compares them). The
// table is open addressing over one hash of each line (the runtime's
// string hash), holding no pointers, at most half full (it doubles).
func (d *differ) intern(pre, endA, endB int) {
	d.a = growInt32(d.a, endA-pre)
	d.b = growInt32(d.b, endB-pre)
	size := 16
	for size < 2*len(d.a) {
		size <<= 1
	}
	// A slot holds the hash's high half and id+1 (0: empty). where[id]
	// is the first line with that id: k < len(d.a) is old line pre+k,
	// else new line pre+k-len(d.a).
	if cap(d.slots) >= size {
		d.slots = d.slots[:size]
		clear(d.slots)
	} else {
		d.slots = make([]uint64, size)
	}
	slots, mask := d.slots, uint64(size-1)
	where := d.where[:0]
	seed := maphash.MakeSeed()
	text := func(k int32) string {
		if int(k) < len(d.a) {
			return d.old.line(pre + int(k))
		}
		return d.new.line(pre + int(k) - len(d.a))
	}
	lookup := func(l string, k int32) int32 {
		h := maphash.String(seed, l)
		tag := h &^ 0xffffffff
		for i := h & mask; ; i = (i + 1) & mask {
			s := slots[i]
			if s == 0 {
				id := int32(len(where))
				slots[i] = tag | uint64(id+1)
				where = append(where, k)
				if 2*len(where) > len(slots) {
					slots, mask = rehash(slots, where, text, seed)
				}
				return id
			}
			if s&^0xffffffff == tag {
				if id := int32(s&0xffffffff) - 1; text(where[id]) == l {
					return id
				}
			}
		}
	}
	for i := range d.a {
		d.a[i] = lookup(d.old.line(pre+i), int32(i))
	}
	// Most new lines equal the old line on the diagonal of the last
	// match (the file is mostly unchanged): try it first, a comparison of
	// lines read in order, before hashing.
	diag := 0
	for j := range d.b {
		l := d.new.line(pre + j)
		if i := j + diag; i >= 0 && i < len(d.a) && d.old.line(pre+i) == l {
			d.b[j] = d.a[i]
			continue
		}
		id := lookup(l, int32(len(d.a)+j))
		if w := int(where[id]); w < len(d.a) {
			diag = w - j
		}
		d.b[j] = id
	}
	d.slots, d.where = slots, where
	d.cnt = growInt32(d.cnt, len(where))
	clear(d.cnt)
	d.head = growInt32(d.head, len(where))
	d.next = growInt32(d.next, len(d.a))
}

// rehash doubles the table and inserts every id again.
func rehash(old []uint64, where []int32, text func(int32) string, seed maphash.Seed) ([]uint64, uint64) {
	slots := make([]uint64, 2*len(old))
	mask := uint64(len(slots) - 1)
	for id, k := range where {
		h := maphash.String(seed, text(k))
		i := h & mask
		for slots[i] != 0 {
			i = (i + 1) & mask
		}
		slots[i] = h&^0xffffffff | uint64(id+1)
	}
	return slots, mask
}

// markA and markB mark a[lo:hi] deleted and b[lo:hi] inserted.
// Each adds the lines' bytes, each with its "+" or "-", to marked.
func (d *differ) markA(lo, hi int32) {
	c := d.old.changed[d.pre+1:]
	for i := lo; i < hi; i++ {
		c[i] = true
	}
	if hi > lo {
		d.marked += int(d.old.off[d.pre+int(hi)]-d.old.off[d.pre+int(lo)]) + int(hi-lo)
	}
}

func (d *differ) markB(lo, hi int32) {
	c := d.new.changed[d.pre+1:]
	for i := lo; i < hi; i++ {
		c[i] = true
	}
	if hi > lo {
		d.marked += int(d.new.off[d.pre+int(hi)]-d.new.off[d.pre+int(lo)]) + int(hi-lo)
	}
}
