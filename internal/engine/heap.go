package engine

// The bounded "best N" selections of Glob (sortByMtime with maxResults,
// while streaming) and FuzzyFind keep a binary heap whose root is the
// worst element kept; worse(a, b) reports whether a is worse than b.

// siftUp restores the heap after h[j] was appended.
func siftUp[T any](h []T, j int, worse func(a, b *T) bool) {
	for j > 0 {
		p := (j - 1) / 2
		if !worse(&h[j], &h[p]) {
			return
		}
		h[j], h[p] = h[p], h[j]
		j = p
	}
}

// siftDown restores the heap after h[j] was replaced.
func siftDown[T any](h []T, j int, worse func(a, b *T) bool) {
	for {
		w, l, r := j, 2*j+1, 2*j+2
		if l < len(h) && worse(&h[l], &h[w]) {
			w = l
		}
		if r < len(h) && worse(&h[r], &h[w]) {
			w = r
		}
		if w == j {
			return
		}
		h[j], h[w] = h[w], h[j]
		j = w
	}
}
