// Command diffbench times internal/diff's Unified for
// bindings/node/bench/diff-jsdiff.mjs, which runs it beside jsdiff in one
// run: it reads requests, one JSON object a line on stdin,
//
//	{"old": "/path/a", "new": "/path/b", "reps": 5, "context": 3}
//
// diffs the two files (read once, then kept) reps times after one untimed
// run, and answers one JSON line on stdout:
//
//	{"ms": 1.23, "bytes": 4567, "hunks": 8, "inserted": 10, "deleted": 9, "changed": 12}
//
// ms is the mean time of one Unified call (files already in memory, as
// jsdiff is timed); bytes is the patch's length. A bad request or a
// failed diff is answered {"error": "..."}; end of input ends it.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/fscache/fscache/internal/diff"
)

type request struct {
	Old, New string
	Reps     int
	Context  *int
}

type response struct {
	Ms       float64 `json:"ms,omitempty"`
	Bytes    int     `json:"bytes,omitempty"`
	Hunks    int     `json:"hunks,omitempty"`
	Inserted int     `json:"inserted,omitempty"`
	Deleted  int     `json:"deleted,omitempty"`
	Changed  int     `json:"changed,omitempty"`
	Error    string  `json:"error,omitempty"`
}

func main() {
	files := map[string]string{}
	read := func(p string) (string, error) {
		if s, ok := files[p]; ok {
			return s, nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		files[p] = string(b)
		return files[p], nil
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), 1<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		if err := out.Encode(serve(in.Bytes(), read)); err != nil {
			fmt.Fprintln(os.Stderr, "diffbench:", err)
			os.Exit(1)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "diffbench: reading requests:", err)
		os.Exit(1)
	}
}

func serve(line []byte, read func(string) (string, error)) response {
	var r request
	if err := json.Unmarshal(line, &r); err != nil {
		return response{Error: fmt.Sprintf("bad request %q: %v", line, err)}
	}
	if r.Reps < 1 {
		r.Reps = 1
	}
	a, err := read(r.Old)
	if err != nil {
		return response{Error: err.Error()}
	}
	b, err := read(r.New)
	if err != nil {
		return response{Error: err.Error()}
	}
	o := diff.Options{Context: 3, ContextSet: true}
	if r.Context != nil {
		o.Context = *r.Context
	}
	p, st, err := diff.Unified(r.Old, r.New, a, b, o)
	if err != nil {
		return response{Error: err.Error()}
	}
	start := time.Now()
	for i := 0; i < r.Reps; i++ {
		if _, _, err := diff.Unified(r.Old, r.New, a, b, o); err != nil {
			return response{Error: err.Error()}
		}
	}
	ms := float64(time.Since(start).Nanoseconds()) / 1e6 / float64(r.Reps)
	return response{Ms: ms, Bytes: len(p), Hunks: st.Hunks, Inserted: st.Inserted, Deleted: st.Deleted, Changed: st.Changed}
}
