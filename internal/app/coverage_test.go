package app_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestEveryEndpointHasATest fails when a registered operation is named by
// no Go test file: every endpoint table entry must be exercised.
func TestEveryEndpointHasATest(t *testing.T) {
	reg := testenv.New(t, "sqlite").App.Registry
	var corpus strings.Builder
	root := filepath.Join("..", "..")
	err := filepath.Walk(filepath.Join(root, "internal"), func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		corpus.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	text := corpus.String()
	for _, name := range reg.Names() {
		// A name as a string literal, or as a path with a query string.
		if !strings.Contains(text, `"`+name+`"`) && !strings.Contains(text, `"`+name+`?`) {
			t.Errorf("no Go test names %q", name)
		}
	}
}
