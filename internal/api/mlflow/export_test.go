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

// Row is one endpoint of the tables as a test sees it: its name (the
// path with "{name}" segments, and "#METHOD" for rows that share a
// path), the methods and the roles that may call it.
type Row struct {
	Path    string
	Methods []string
	Roles   []string
}

// TableRows lists every row of every MLflow endpoint table, for tests.
func TableRows() []Row {
	s := New(&domain.Env{}, nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)), 0, 0)
	var out []Row
	rows := s.routes.rowNames()
	for _, p := range s.Paths() {
		e := rows[p]
		out = append(out, Row{Path: p, Methods: e.Methods, Roles: e.Access.Roles})
	}
	return out
}
