package core

import "github.com/fscache/fscache/internal/engine"

// IndexStats describes grep's content indexes: the roots indexed, their
// files, text bytes and memory, the builds, the greps they served and the
// files those searched and skipped, and the fallbacks by reason (see the
// README's "Indexed grep").
type IndexStats = engine.GrepIndexStats

// GrepIndexStats returns the statistics of grep's content indexes now.
func GrepIndexStats() IndexStats { return engine.IndexStats() }
