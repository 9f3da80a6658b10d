package walk

import "github.com/charlievieth/fastwalk"

// ErrSkipDir may be returned by Walk's fn for an entry of type Dir: the
// directory is still reported, but the walk does not descend into it. It
// is how a caller limits the depth of a walk (listWorkspace's maxDepth)
// without the walk reading the directories below the limit. Returned for
// any other entry it is an ordinary error that stops the walk.
var ErrSkipDir = fastwalk.SkipDir
