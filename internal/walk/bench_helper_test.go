package walk

import (
	"io/fs"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/charlievieth/fastwalk"
)

func goroot(b testing.TB) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return runtime.GOROOT()
	}
	return strings.TrimSpace(string(out))
}

// fastwalkAlone is the floor: fastwalk collecting paths, nothing else.
func fastwalkAlone(b *testing.B, root string) {
	var mu sync.Mutex
	var out []string
	err := fastwalk.Walk(&fastwalk.Config{}, root, func(p string, de fs.DirEntry, err error) error {
		mu.Lock()
		out = append(out, p)
		mu.Unlock()
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}
