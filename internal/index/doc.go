// Package index is grep's in-memory content index: for each file of a
// watched root, the trigrams (three-byte substrings, ASCII letters folded to
// lower case) it holds, as posting lists of file ids, after Russ Cox's
// "Regular Expression Matching with a Trigram Index" (github.com/google/
// codesearch) but in memory and kept current by the scan cache's change
// notifications instead of on disk.
//
// The index only narrows: Plan says, for each file grep would search,
// whether it can hold a match of a search.Need (the pattern's required
// literals); the files it cannot rule out are searched as without an
// index, so answers are the same.
//
// # Layout
//
// An Index (index.go) is immutable: the files in path order with a flag,
// an xxhash of the content and the inode number each, and one posting list
// per trigram of document ids (a document is a file, or a 64 KiB chunk of
// a larger text file: chunkSize), delta-encoded as varints (postings.go),
// in segments
// of up to 2M (trigram, file) pairs sorted by a radix sort. Binary files
// (a NUL in the first 64 KiB) keep a Bloom filter of their trigrams
// instead (bloom.go). A Live (live.go) is an Index plus what changed since
// it was built: the files whose entries are stale (a watch event named
// them, or a directory above them), and an overlay of files read again
// since (their trigram sets). A Live is current as long as it has
// received every event of its root's watcher since its files were read:
// see live.go for the argument.
//
// Queries (query.go) are search.Need trees compiled to trigrams: a literal
// is the AND of its trigrams, folded like the index.
//
// An Index can also be written to a file (Builder.Spill, WriteFile: the
// format is in disk.go) and used by later processes in place, through a
// read-only memory mapping (Open, open.go); each file's size and mtime
// as read (Meta) let them tell which entries still describe the files. A
// build written to a file can reuse a previous index's entries of the
// files unchanged since (Builder.Base, Keep): their posting lists are
// merged into the new file (merge.go), unread.
package index
