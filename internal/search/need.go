package search

import "github.com/fscache/fscache/internal/regex"

// Needs returns the condition a file satisfies whenever Search (or
// HasMatchCancel) finds a match of o's pattern in it, for a content index;
// literals shorter than minLit bytes are left out. See regex.Needs.
func Needs(o Options, minLit int) Need { return regex.Needs(o.regexOptions(), minLit) }

// Need is regex.Need, named here for the content index (internal/index),
// which knows the pattern only through this package's Options.
type Need = regex.Need

// NeedOp is regex.NeedOp.
type NeedOp = regex.NeedOp

// The kinds of Need the index reads (regex.NeedLit and the others).
const (
	NeedLit = regex.NeedLit
	NeedAnd = regex.NeedAnd
	NeedOr  = regex.NeedOr
)
