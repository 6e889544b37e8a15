package events_test

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/api/events"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/testenv"
)

// TestEveryOperationTested fails when a registered events.* operation is
// not called by any scenario of this package, and checks there are 28.
func TestEveryOperationTested(t *testing.T) {
	e := testenv.New(t, "sqlite")
	var src strings.Builder
	files, _ := filepath.Glob("*_test.go")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	n := 0
	r := rpc.NewRegistry()
	events.Register(r, &api.Deps{Env: domain.Env{DB: e.App.DB, Now: time.Now}, Log: slog.Default()})
	for _, name := range r.Names() {
		if !strings.HasPrefix(name, "events.") {
			continue
		}
		n++
		if !strings.Contains(src.String(), `"`+name+`"`) && !strings.Contains(src.String(), `"`+name+`?`) {
			t.Errorf("%s has no scenario", name)
		}
	}
	if n != 28 {
		t.Errorf("%d events operations registered, want 28", n)
	}
}
