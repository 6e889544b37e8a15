package reports

import (
	"strings"
	"testing"
)

func TestPreview(t *testing.T) {
	long := strings.Repeat("abc ", 30)
	for _, c := range []struct{ in, want string }{
		{"short  text\n here", "short text here"},
		{"", ""},
		{long, strings.TrimSpace(strings.Repeat("abc ", 23)) + " [...]"},
		{strings.Repeat("x", 200), "[...]"},
	} {
		if got := preview(c.in, 100); got != c.want || len(got) > 100 {
			t.Errorf("preview(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
