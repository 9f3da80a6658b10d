package diff

// minCost is the least number of edit steps Myers' search explores before
// settling for an approximate split (xdiff's XDL_MAX_COST_MIN); above it
// the bound is the square root of the region's size, as in xdiff.
const minCost = 256

// myers marks the changes of region r with Myers' O(ND) algorithm in
// linear space (the middle snake found from both ends, then each half),
// on an explicit stack. A search that passes its cost bound splits at the
// point that got furthest instead: the diff stays correct, maybe not
// minimal, and the time near-linear.
func (d *differ) myers(r region) error {
	stack := []region{r}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if err := d.overBytes(); err != nil {
			return err
		}
		// Trim the common prefix and suffix.
		for r.lo1 < r.hi1 && r.lo2 < r.hi2 && d.a[r.lo1] == d.b[r.lo2] {
			r.lo1++
			r.lo2++
		}
		for r.lo1 < r.hi1 && r.lo2 < r.hi2 && d.a[r.hi1-1] == d.b[r.hi2-1] {
			r.hi1--
			r.hi2--
		}
		if r.lo1 == r.hi1 || r.lo2 == r.hi2 {
			d.markA(r.lo1, r.hi1)
			d.markB(r.lo2, r.hi2)
			continue
		}
		x, y, ok, err := d.bisect(r)
		if err != nil {
			return err
		}
		if !ok {
			d.markA(r.lo1, r.hi1)
			d.markB(r.lo2, r.hi2)
			continue
		}
		stack = append(stack, region{r.lo1, x, r.lo2, y}, region{x, r.hi1, y, r.hi2})
	}
	return nil
}

// isqrt is the integer square root of n >= 0.
func isqrt(n int) int {
	x := 1
	for x*x <= n {
		x <<= 1
	}
	for x*x > n {
		x--
	}
	return x
}

// bisect finds where to split r (with no common prefix or suffix, both
// sides non-empty): the middle snake's start, or when the cost bound is
// passed the furthest point reached. ok is false when there is no usable
// split (no line in common).
func (d *differ) bisect(r region) (x, y int32, ok bool, err error) {
	a, b := d.a[r.lo1:r.hi1], d.b[r.lo2:r.hi2]
	n, m := int32(len(a)), int32(len(b))
	maxD := (n + m + 1) / 2
	limit := int32(max(minCost, isqrt(int(n+m))))
	dmax := min(maxD, limit)
	if d.exact {
		dmax = maxD
	}
	off := dmax + 1
	vlen := 2*dmax + 3
	if cap(d.v) < int(2*vlen) {
		d.v = make([]int32, 2*vlen)
	}
	v1, v2 := d.v[:vlen], d.v[vlen:2*vlen]
	for i := range v1 {
		v1[i] = -1
		v2[i] = -1
	}
	v1[off+1], v2[off+1] = 0, 0
	delta := n - m
	front := delta&1 != 0
	var k1start, k1end, k2start, k2end int32
	work := 0
	for dd := int32(0); dd < dmax; dd++ {
		for k1 := -dd + k1start; k1 <= dd-k1end; k1 += 2 {
			i := off + k1
			var x1 int32
			if k1 == -dd || (k1 != dd && v1[i-1] < v1[i+1]) {
				x1 = v1[i+1]
			} else {
				x1 = v1[i-1] + 1
			}
			y1 := x1 - k1
			x0 := x1
			for x1 < n && y1 < m && a[x1] == b[y1] {
				x1++
				y1++
			}
			work += int(x1-x0) + 1
			v1[i] = x1
			switch {
			case x1 > n:
				k1end += 2
			case y1 > m:
				k1start += 2
			case front:
				j := off + delta - k1
				if j >= 0 && j < vlen && v2[j] != -1 {
					if x2 := n - v2[j]; x1 >= x2 {
						return r.lo1 + x1, r.lo2 + y1, true, nil
					}
				}
			}
		}
		for k2 := -dd + k2start; k2 <= dd-k2end; k2 += 2 {
			i := off + k2
			var x2 int32
			if k2 == -dd || (k2 != dd && v2[i-1] < v2[i+1]) {
				x2 = v2[i+1]
			} else {
				x2 = v2[i-1] + 1
			}
			y2 := x2 - k2
			x0 := x2
			for x2 < n && y2 < m && a[n-x2-1] == b[m-y2-1] {
				x2++
				y2++
			}
			work += int(x2-x0) + 1
			v2[i] = x2
			switch {
			case x2 > n:
				k2end += 2
			case y2 > m:
				k2start += 2
			case !front:
				j := off + delta - k2
				if j >= 0 && j < vlen && v1[j] != -1 {
					x1 := v1[j]
					y1 := off + x1 - j
					if x1 >= n-x2 {
						return r.lo1 + x1, r.lo2 + y1, true, nil
					}
				}
			}
		}
		if work >= 1024 {
			if err := d.tick(work); err != nil {
				return 0, 0, false, err
			}
			work = 0
		}
	}
	if err := d.tick(work); err != nil {
		return 0, 0, false, err
	}
	if dmax == maxD {
		return 0, 0, false, nil
	}
	// Over the cost bound: split at the furthest point reached from
	// either end (its diagonal's x+y, or for the reverse path the lines
	// left from the end).
	bestF, bestB := int32(-1), int32(-1)
	var fx, fy, bx, by int32
	for k := -dmax; k <= dmax; k++ {
		if x1 := v1[off+k]; x1 >= 0 {
			y1 := x1 - k
			if x1 <= n && y1 >= 0 && y1 <= m && x1+y1 > bestF {
				bestF, fx, fy = x1+y1, x1, y1
			}
		}
		if x2 := v2[off+k]; x2 >= 0 {
			y2 := x2 - k
			if x2 <= n && y2 >= 0 && y2 <= m && x2+y2 > bestB {
				bestB, bx, by = x2+y2, n-x2, m-y2
			}
		}
	}
	if bestB > bestF {
		fx, fy = bx, by
	}
	if (fx == 0 && fy == 0) || (fx == n && fy == m) {
		return 0, 0, false, nil
	}
	return r.lo1 + fx, r.lo2 + fy, true, nil
}
