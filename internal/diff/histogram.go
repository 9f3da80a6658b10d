package diff

// maxChain is the most occurrences in the old region a line may have to
// anchor a split (git's max_chain_length).
const maxChain = 64

// region is a[lo1:hi1] against b[lo2:hi2].
type region struct{ lo1, hi1, lo2, hi2 int32 }

// histogram marks the changes of region r with git's histogram diff. The
// left part of each split is pushed on a stack and the right one looped
// on, so that no input deepens the goroutine's stack.
func (d *differ) histogram(r region) error {
	stack := []region{r}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for {
			if err := d.overBytes(); err != nil {
				return err
			}
			if r.lo1 == r.hi1 {
				d.markB(r.lo2, r.hi2)
				break
			}
			if r.lo2 == r.hi2 {
				d.markA(r.lo1, r.hi1)
				break
			}
			s, res, err := d.findLCS(r)
			if err != nil {
				return err
			}
			if res == lcsNone {
				d.markA(r.lo1, r.hi1)
				d.markB(r.lo2, r.hi2)
				break
			}
			if res == lcsFallback {
				if err := d.myers(r); err != nil {
					return err
				}
				break
			}
			stack = append(stack, region{r.lo1, s.lo1, r.lo2, s.lo2})
			r = region{s.hi1, r.hi1, s.hi2, r.hi2}
		}
	}
	return nil
}

// Results of findLCS.
const (
	lcsFound    = iota // an anchor was found
	lcsNone            // no line is common to both sides
	lcsFallback        // common lines exist, all too frequent: use Myers
)

// findLCS finds the split of r: the longest run of lines common to both
// sides among the runs whose rarest line occurs least often in the old
// region (git's find_lcs and try_lcs, with exclusive ends).
func (d *differ) findLCS(r region) (best region, res int, err error) {
	a, b, cnt, head, next := d.a, d.b, d.cnt, d.head, d.next
	for i := r.hi1 - 1; i >= r.lo1; i-- {
		id := a[i]
		if cnt[id] == 0 {
			next[i] = -1
		} else {
			next[i] = head[id]
		}
		head[id] = i
		cnt[id]++
	}
	defer func() {
		for i := r.lo1; i < r.hi1; i++ {
			cnt[a[i]] = 0
		}
	}()
	if err := d.tick(int(r.hi1 - r.lo1)); err != nil {
		return best, 0, err
	}
	// bestCnt is the lowest occurrence count seen; bestLen the best run's
	// length, 1 before any (git compares inclusive lengths starting at 0).
	bestCnt := int32(maxChain + 1)
	bestLen := int32(1)
	found, hasCommon := false, false
	work := 0
	for bp := r.lo2; bp < r.hi2; {
		if work++; work >= 1024 {
			if err := d.tick(work); err != nil {
				return best, 0, err
			}
			work = 0
		}
		bnext := bp + 1
		id := b[bp]
		c := cnt[id]
		if c == 0 {
			bp = bnext
			continue
		}
		hasCommon = true
		if c > bestCnt {
			bp = bnext
			continue
		}
		for as := head[id]; ; {
			np := next[as]
			bs, ae, be := bp, as+1, bp+1
			rc := c
			for as > r.lo1 && bs > r.lo2 && a[as-1] == b[bs-1] {
				as--
				bs--
				if rc > 1 {
					rc = min(rc, cnt[a[as]])
				}
			}
			for ae < r.hi1 && be < r.hi2 && a[ae] == b[be] {
				if rc > 1 {
					rc = min(rc, cnt[a[ae]])
				}
				ae++
				be++
			}
			work += int(ae - as)
			if bnext < be {
				bnext = be
			}
			if bestLen < ae-as || rc < bestCnt {
				best = region{as, ae, bs, be}
				bestLen, bestCnt, found = ae-as, rc, true
			}
			for np != -1 && np < ae {
				np = next[np]
			}
			if np == -1 {
				break
			}
			as = np
		}
		bp = bnext
	}
	if err := d.tick(work); err != nil {
		return best, 0, err
	}
	switch {
	case hasCommon && bestCnt > maxChain:
		return best, lcsFallback, nil
	case !found:
		return best, lcsNone, nil
	}
	return best, lcsFound, nil
}
