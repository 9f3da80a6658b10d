package diff

// shiftBoundaries slides each run of changed lines to GNU diff's canonical
// place (diffutils' analyze.c shift_boundaries, which git's
// xdl_change_compact follows): runs that can move are merged with their
// neighbours when sliding brings them together, then moved as far down as
// they go, unless a place facing a run of changes of the other side was
// passed, where they are put back. The result is the same patch as GNU
// diff's whenever the two diffs pair the same lines up to such slides.
func (d *differ) shiftBoundaries() {
	for f := 0; f < 2; f++ {
		s, o := &d.old, &d.new
		ids, lo := d.a, d.pre
		if f == 1 {
			s, o = o, s
			ids = d.b
		}
		hi := lo + len(ids)
		// eq tells whether lines i and j of s are equal.
		eq := func(i, j int) bool {
			if i >= lo && i < hi && j >= lo && j < hi {
				return ids[i-lo] == ids[j-lo]
			}
			return s.line(i) == s.line(j)
		}
		// ch(i) and och(j) of GNU's code are changed[i+1] and
		// other[j+1]: index 0 is the sentinel before line 0.
		changed, other := s.changed, o.changed
		iEnd := s.n()
		i, j := 0, 0
		for {
			for i < iEnd && !changed[i+1] {
				for other[j+1] {
					j++
				}
				j++
				i++
			}
			if i == iEnd {
				break
			}
			start := i
			for i++; changed[i+1]; i++ {
			}
			for other[j+1] {
				j++
			}
			var corresponding int
			for {
				runLength := i - start
				// Move back while the previous unchanged line equals the
				// run's last one, merging with runs before.
				for start > 0 && eq(start-1, i-1) {
					start--
					changed[start+1] = true
					i--
					changed[i+1] = false
					for changed[start] { // line start-1
						start--
					}
					for j--; other[j+1]; j-- {
					}
				}
				// corresponding is the run's end at the last place it
				// faced a run of changes of the other side; iEnd: none.
				corresponding = iEnd
				if other[j] { // line j-1
					corresponding = i
				}
				// Move forward while the run's first line equals the next
				// unchanged one, merging with runs after.
				for i != iEnd && eq(start, i) {
					changed[start+1] = false
					start++
					changed[i+1] = true
					i++
					for changed[i+1] {
						i++
					}
					for j++; other[j+1]; j++ {
						corresponding = i
					}
				}
				if runLength == i-start {
					break
				}
			}
			// Move the merged run back to face a run of the other side.
			for corresponding < i {
				start--
				changed[start+1] = true
				i--
				changed[i+1] = false
				for j--; other[j+1]; j-- {
				}
			}
		}
	}
}
