package events

import (
	"testing"

	"github.com/trove-ml/trove/internal/store/eventstore"
)

// rollupRead decides which series a histogram reads from the rollups (one
// statement for all of them) and how: by iteration only, more than
// exactHistogramPoints points, widths beyond 16.
func TestRollupReadChoice(t *testing.T) {
	plan := func(count, min, interval int64) *seriesPlan {
		return &seriesPlan{series: eventstore.Series{ID: 9}, count: count, min: min, max: min + count, interval: interval}
	}
	cases := []struct {
		name string
		p    *seriesPlan
		key  HistKey
		ok   bool
		want eventstore.RollupRead
	}{
		{"exact-size series", plan(exactHistogramPoints, 0, 64), KeyIter, false, eventstore.RollupRead{}},
		{"one point more", plan(exactHistogramPoints+1, 0, 64), KeyIter, true, eventstore.RollupRead{Series: 9, Level: 5, Interval: 64, NonNegative: true}},
		{"width 16", plan(1_000_000, 0, 16), KeyIter, false, eventstore.RollupRead{}},
		{"width 17", plan(1_000_000, 0, 17), KeyIter, true, eventstore.RollupRead{Series: 9, Level: 5, Interval: 32, NonNegative: true}},
		{"negative iterations", plan(1_000_000, -5, 42), KeyIter, true, eventstore.RollupRead{Series: 9, Level: 5, Interval: 64}},
		{"between levels", plan(1_000_000, 0, 200), KeyIter, true, eventstore.RollupRead{Series: 9, Level: 7, Interval: 256, NonNegative: true}},
		{"beyond the widest", plan(100_000_000, 0, 20000), KeyIter, true, eventstore.RollupRead{Series: 9, Level: 13, Interval: 24576, NonNegative: true}},
		{"by time", plan(1_000_000, 0, 64), KeyTimestamp, false, eventstore.RollupRead{}},
		{"by ISO time", plan(1_000_000, 0, 64), KeyISOTime, false, eventstore.RollupRead{}},
	}
	for _, c := range cases {
		got, ok := c.p.rollupRead(c.key)
		if ok != c.ok || got != c.want {
			t.Errorf("%s: got %+v %v, want %+v %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
