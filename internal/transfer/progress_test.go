package transfer

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestProgressLine checks the bar's rows, rate and time left on a fixed
// clock, and that it redraws at most every redrawEvery.
func TestProgressLine(t *testing.T) {
	var out bytes.Buffer
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := NewProgress(&out, 1000)
	p.now = func() time.Time { return now }
	p.start = now
	p.Label("tasks")
	now = now.Add(2 * time.Second)
	p.Add(250)
	last := out.String()[strings.LastIndex(out.String(), "\r")+1:]
	for _, want := range []string{"[######..................]", " 25%", "250/1000 rows", "125 rows/s", "6s left", "tasks"} {
		if !strings.Contains(last, want) {
			t.Fatalf("line %q lacks %q", last, want)
		}
	}
	draws := strings.Count(out.String(), "\r")
	p.Add(1)
	if strings.Count(out.String(), "\r") != draws {
		t.Fatal("redrew within redrawEvery")
	}
	p.Finish()
	if !strings.HasSuffix(out.String(), "\n") || !strings.Contains(out.String(), "done") {
		t.Fatalf("finish: %q", out.String())
	}
}
