package regex

import (
	"bytes"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/cancel"
)

// BenchmarkTokenNFA is internal/search's BenchmarkToken for the NFA
// simulation, which looks at the cancel token at every byte: 4 MiB of
// source-like lines searched with the NFA alone, with no token and with a
// live one (what grep passes).
func BenchmarkTokenNFA(b *testing.B) {
	line := []byte("func (d *Decoder) Token() (Token, error) { return nil, ErrSyntax42 }\n")
	data := bytes.Repeat(line, 4<<20/len(line))
	for _, live := range []bool{false, true} {
		name := "nil"
		var tok *cancel.Token
		if live {
			name, tok = "live", cancel.New(time.Time{}, nil)
		}
		b.Run(name, func(b *testing.B) {
			m, err := Compile(Options{Pattern: `[A-Z][a-z]+[0-9]{2}`})
			if err != nil {
				b.Fatal(err)
			}
			m.forceNFA = true
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := scanLines(m, data, tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
