package mlflow

import (
	"io"
	"log/slog"
	"slices"

	"github.com/trove-ml/trove/internal/domain"
)

// TablePaths lists the endpoint table's paths, for tests.
func TablePaths() []string {
	s := New(&domain.Env{}, nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)), 0, 0)
	return s.Paths()
}

// Sorted is slices.Sorted of a list, for tests.
func Sorted(l []string) []string { return slices.Sorted(slices.Values(l)) }
