package ignore

// NewRootLoose is NewRoot for pi-natives 18.2's listWorkspace, whose walker
// does not require a git repository for .gitignore files (the ignore crate's
// require_git(false)), as observed with 18.2.3:
//   - the root's own .gitignore, and those of the directories below it,
//     apply even when no repository contains the root;
//   - a nested repository (a directory with .git) brings its own
//     info/exclude but does not reset the .gitignore files above it;
//   - the ancestors above the root are read as NewRoot reads them: only
//     within a repository, up to its top.
func NewRootLoose(root string) *Dir {
	d := NewRoot(root)
	sh := *d.shared
	sh.loose = true
	c := *d
	c.shared = &sh
	if !c.anyGit {
		if gi := readRuleFile(c.path, c.path+"/.gitignore"); gi != nil {
			c.git = prepend(gi, c.git)
		}
		c.anyGit = true
	}
	return &c
}
