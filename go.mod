module github.com/fscache/fscache

go 1.26.0

require (
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/charlievieth/fastwalk v1.0.14
	github.com/dlclark/regexp2 v1.12.0
	github.com/tidwall/gjson v1.20.0
	golang.org/x/sys v0.49.0
	golang.org/x/text v0.44.0
)

require (
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.0 // indirect
)
