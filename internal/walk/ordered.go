package walk

import "errors"

// ErrUnordered is returned by ScanOrdered when two siblings have the same
// displayed name (names that are not valid UTF-8): their subtrees may
// interleave in Scan's order, which only a global sort gives. The caller
// walks with Scan instead.
var ErrUnordered = errors.New("walk: siblings with the same displayed name: no streaming order")

// emitTree calls emit with the entries of the subtree of n (n excluded) in
// Scan's order, once await has said that n is listed: n's kept children
// are finished (finishNode) and, as place lays them out, each child's
// entry is followed, before the first sibling that sorts after "name/",
// by the subtree of a child directory.
func (s *scanner) emitTree(n *dirNode, await func(*dirNode) error, emit func(Entry) error) error {
	if err := await(n); err != nil {
		return err
	}
	if err := s.o.Cancel.Err(); err != nil {
		return err
	}
	n.order = make([]sortKey, 0, len(n.files)+len(n.subdirs))
	if s.o.Full {
		n.detail = make([]detail, len(n.files))
	}
	s.finishNode(n)
	if s.collide.Load() {
		return ErrUnordered
	}
	var buf [16]*dirNode
	stack := buf[:0] // pending subtrees; the top has the smallest "name/"
	for _, k := range n.order {
		for len(stack) > 0 && s.subtreeBefore(stack[len(stack)-1], n, k) {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if err := s.emitTree(c, await, emit); err != nil {
				return err
			}
		}
		var sub *dirNode
		if int(k.i) >= len(n.files) {
			sub = n.subdirs[int(k.i)-len(n.files)]
		}
		if err := emit(s.entry(n, k.i, sub)); err != nil {
			return err
		}
		if sub != nil && !sub.unread {
			stack = append(stack, sub)
		}
	}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if err := s.emitTree(c, await, emit); err != nil {
			return err
		}
	}
	n.files, n.subdirs, n.order, n.detail, n.keys = nil, nil, nil, nil, nil // emitted
	return nil
}
