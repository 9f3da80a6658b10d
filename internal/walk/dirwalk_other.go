//go:build !linux

package walk

import "github.com/charlievieth/fastwalk"

// listsWithFastwalk is true: Scan lists with fastwalk, whose callback
// (visit) finds an entry's parent node by path.
const listsWithFastwalk = true

// walkTree lists the tree under s.root into s's nodes with fastwalk. Links
// are followed by returning ErrTraverseLink (see Walk).
func (s *scanner) walkTree() error {
	conf := fastwalk.Config{ToSlash: true}               // '/'-separated paths on Windows too
	return fastwalk.Walk(&conf, s.root, fenced(s.visit)) // s.root: as the paths it reports begin
}
