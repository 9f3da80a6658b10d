package walk

import (
	"errors"
	"sync"

	"github.com/charlievieth/fastwalk"

	"github.com/fscache/fscache/internal/fence"
)

// ScanOrdered walks like Scan and calls emit with every entry in Scan's
// order (sorted by path, bytewise) as the walk reaches it, from the calling
// goroutine: the entries of a directory are emitted once it is listed,
// while the walk goes on listing the directories that come next in path
// order. emit's error stops the walk (listings under way end first) and is
// returned; so does ErrUnordered, before any entry out of order is
// emitted. A caller that needs only the first entries in path order (a
// grep that stops at a complete answer) reads no more of the tree than
// those entries and a few directories ahead.
//
// The listing is Scan's (lister), with one difference: the directories
// waiting to be listed are taken in path order, and no more than
// orderedAhead of them are listed ahead of the one emitTree needs next.
// Options.Observe is not called.
func ScanOrdered(o Options, emit func(e Entry) error) error {
	if err := o.Cancel.Err(); err != nil {
		return err
	}
	o.Observe = nil
	s := newScanner(o)
	if o.OnDir != nil {
		if err := o.OnDir(s.root); err != nil {
			return err
		}
	}
	q := &orderedQueue{}
	q.cond.L = &q.mu
	q.push(s.rootNode)
	// A panic in a worker outside its listing (work recovers one in a
	// listing) stops the walk as a listing error does.
	g := fence.Group{Stop: func(err *fence.Error) {
		q.mu.Lock()
		if q.err == nil {
			q.err = err
		}
		q.cond.Broadcast()
		q.mu.Unlock()
	}}
	for range listWorkers() {
		g.Go(fence.WalkList, func() { q.work(&lister{s: s}) })
	}
	err := s.emitTree(s.rootNode, q.await, emit)
	q.mu.Lock()
	q.stop = true
	q.cond.Broadcast()
	q.mu.Unlock()
	if perr := g.Wait(); err == nil && perr != nil {
		err = perr
	}
	if err == nil && q.err != nil && !errors.Is(q.err, fastwalk.SkipDir) {
		err = q.err
	}
	if err == nil {
		err = o.Cancel.Err()
	}
	return err
}

// orderedAhead is the number of directories ScanOrdered lists ahead of the
// one it emits.
const orderedAhead = 32

// The states of a node in an orderedQueue (dirNode.listState).
const (
	stateQueued uint8 = iota
	stateListing
	stateListed
)

// orderedQueue holds ScanOrdered's directories waiting to be listed, a
// heap by path (the order they are emitted in, but for names that are not
// UTF-8).
type orderedQueue struct {
	mu      sync.Mutex
	cond    sync.Cond
	heap    []*dirNode
	listing int      // nodes being listed
	ahead   int      // nodes listed and not yet emitted
	want    *dirNode // the node emitTree waits for
	stop    bool     // emitTree is done: list nothing more
	err     error    // the first listing error, which stops the walk
}

// push queues n (q.mu held, or before the workers start).
func (q *orderedQueue) push(n *dirNode) {
	n.listState = stateQueued
	h := append(q.heap, n)
	siftUp(h, len(h)-1)
	q.heap = h
}

// pop removes the smallest path from the heap (q.mu held).
func (q *orderedQueue) pop() *dirNode {
	h := q.heap
	n := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h[last] = nil
	h = h[:last]
	if len(h) > 0 {
		siftDown(h, 0)
	}
	q.heap = h
	return n
}

func nodeLess(a, b *dirNode) bool { return a.path < b.path }

func siftUp(h []*dirNode, j int) {
	for j > 0 {
		i := (j - 1) / 2
		if !nodeLess(h[j], h[i]) {
			break
		}
		h[i], h[j] = h[j], h[i]
		j = i
	}
}

func siftDown(h []*dirNode, i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		j := l
		if r := l + 1; r < len(h) && nodeLess(h[r], h[l]) {
			j = r
		}
		if !nodeLess(h[j], h[i]) {
			return
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}

// next returns the node a worker lists next, or nil when the walk is over
// for it: the node emitTree waits for first, else the smallest path while
// fewer than orderedAhead nodes are listed ahead. q.mu held.
func (q *orderedQueue) next() *dirNode {
	for {
		if q.stop || q.err != nil {
			return nil
		}
		if w := q.want; w != nil && w.listState == stateQueued {
			return w // still in the heap: skipped when popped
		}
		for len(q.heap) > 0 && q.heap[0].listState != stateQueued {
			q.pop() // taken out of turn (want)
		}
		if len(q.heap) > 0 && q.ahead+q.listing < orderedAhead {
			return q.pop()
		}
		if len(q.heap) == 0 && q.listing == 0 {
			return nil // everything is listed
		}
		q.cond.Wait()
	}
}

// work is a listing worker's loop.
func (q *orderedQueue) work(l *lister) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		n := q.next()
		if n == nil {
			q.cond.Broadcast() // the others may be done too
			return
		}
		n.listState = stateListing
		q.listing++
		q.mu.Unlock()
		var subs []*dirNode
		var err error
		// Recovered here, not above: the deferred Unlock needs q.mu
		// held, and the node must be done for await.
		if perr := fence.Run(fence.WalkList, func() { subs, err = l.list(n) }); perr != nil {
			subs, err = nil, perr
		}
		q.mu.Lock()
		for _, c := range subs {
			q.push(c)
		}
		n.listState = stateListed
		q.listing--
		q.ahead++
		if err != nil && q.err == nil {
			q.err = err
		}
		q.cond.Broadcast()
	}
}

// await waits until n is listed (at once for a node not to be listed) and
// returns the walk's error, if any.
func (q *orderedQueue) await(n *dirNode) error {
	if n.unread {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	for n.listState != stateListed && q.err == nil {
		if q.want != n {
			q.want = n
			q.cond.Broadcast()
		}
		q.cond.Wait()
	}
	if q.want == n {
		q.want = nil
	}
	if q.err != nil {
		return q.err
	}
	q.ahead--
	return nil
}
