package export

import (
	"slices"
	"testing"
)

// TestFieldPath: parts under metadata, hyperparams and configuration are
// unescaped (a dot, $, __, % and a leading _); other paths split on dots.
func TestFieldPath(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"hyperparams.Args.lr%2Emax.value", []string{"hyperparams", "Args", "lr.max", "value"}},
		{"metadata.%24key.value", []string{"metadata", "$key", "value"}},
		{"configuration.a%_%_b.value", []string{"configuration", "a__b", "value"}},
		{"hyperparams.Args.100%%.value", []string{"hyperparams", "Args", "100%", "value"}},
		{"hyperparams.Args.%_private.value", []string{"hyperparams", "Args", "_private", "value"}},
		{"last_metrics.a%2Eb.value", []string{"last_metrics", "a%2Eb", "value"}},
		{"hyperparams", []string{"hyperparams"}},
	} {
		if got := fieldPath(c.in); !slices.Equal(got, c.want) {
			t.Errorf("fieldPath(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
