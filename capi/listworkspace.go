package main

/*
#include <stdint.h>
*/
import "C"

import (
	"strconv"

	"github.com/fscache/fscache/internal/engine"
)

// decodeListWorkspace reads ListWorkspaceOptions; maxDepth is required.
func decodeListWorkspace(js string, flag func() bool) (engine.ListWorkspaceOptions, error) {
	d := newDecoder("ListWorkspaceOptions", js)
	o := engine.ListWorkspaceOptions{
		Path:            d.str("path", true),
		Hidden:          d.flag("hidden", false),
		Gitignore:       d.boolean("gitignore"),
		CollectAgentsMd: d.flag("collectAgentsMd", false),
		Cancel:          d.cancel(flag),
	}
	if n := d.uint("maxDepth", maxU32); n != nil {
		o.MaxDepth = uint32(*n)
	} else {
		d.fail("maxDepth", "missing required number field")
	}
	return o, d.err
}

// encodeWorkspaceResult is r's JSON, for engine.ListWorkspaceEncoded
// (which keeps it while the result is served again).
func encodeWorkspaceResult(r engine.ListWorkspaceResult) []byte {
	return appendWorkspaceResult(make([]byte, 0, 64+96*len(r.Entries)), r)
}

// appendWorkspaceResult encodes a ListWorkspaceResult; mtimes keep their
// fractional part (shortest round-trip form).
func appendWorkspaceResult(b []byte, r engine.ListWorkspaceResult) []byte {
	b = append(b, `{"entries":[`...)
	for i, e := range r.Entries {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"path":`...)
		b = appendString(b, e.Path)
		b = append(b, `,"fileType":`...)
		b = strconv.AppendInt(b, int64(e.Type), 10)
		if e.Mtime >= 0 { // none before the epoch, as in 18.2
			b = append(b, `,"mtime":`...)
			b = strconv.AppendFloat(b, e.Mtime, 'f', -1, 64)
		}
		if e.Size >= 0 {
			b = append(b, `,"size":`...)
			b = strconv.AppendInt(b, e.Size, 10)
		}
		b = append(b, '}')
	}
	b = append(b, `],"agentsMdFiles":[`...)
	for i, p := range r.AgentsMdFiles {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, p)
	}
	b = append(b, `],"truncated":`...)
	b = strconv.AppendBool(b, r.Truncated)
	return append(b, '}')
}

//export fscache_go_list_workspace
func fscache_go_list_workspace(options *C.char, cancel *C.int32_t) (out *C.char) {
	defer fence(&out)
	js, err := goOptions(options)
	if err != nil {
		return result(nil, err)
	}
	o, err := decodeListWorkspace(js, cancelFlag(cancel))
	if err != nil {
		return result(nil, optionsError{err})
	}
	// Off the calling thread for the same reason as offThread.
	return result(spawn(func() ([]byte, error) {
		return engine.ListWorkspaceEncoded(o, encodeWorkspaceResult)
	})())
}
