package events

import (
	"errors"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

func TestSummaryMerge(t *testing.T) {
	task := &store.Task{Status: "in_progress"}
	started := time.Now().Add(-90 * time.Second)
	task.Started = &jsonx.Time{Time: started}
	s := newSummary()
	for _, e := range []*Event{
		{Type: Scalar, Metric: "loss", Variant: "v", Iter: 2, Value: 3, Timestamp: 10},
		{Type: Scalar, Metric: "loss", Variant: "v", Iter: 1, Value: 1, Timestamp: 20},
		{Type: Scalar, Metric: "loss", Variant: "v", Iter: 2, Value: 5, Timestamp: 30},
		{Type: Log, Iter: NoIter, Timestamp: 40},
		{Type: Scalar, Metric: ":monitor:machine", Variant: "cpu", Iter: 1000, Value: 1, Timestamp: 5},
	} {
		s.add(e)
	}
	now := jsonx.Now()
	s.ApplyTask(task, now, "u")
	lm := task.LastMetrics[Hash("loss")][Hash("v")]
	if lm.Value != 5 || lm.MinValue != 1 || lm.MinValueIteration != 1 || lm.MaxValue != 5 || *lm.FirstValue != 1 || *lm.FirstValueIteration != 1 || lm.Count != 3 || *lm.MeanValue != 3 {
		t.Fatalf("bad first merge %+v", lm)
	}
	if task.LastIteration != 2 || task.LastChangedBy != "u" || task.ActiveDuration == nil || *task.ActiveDuration < 89 {
		t.Fatalf("bad task fields %+v", task)
	}
	s = newSummary()
	s.add(&Event{Type: Scalar, Metric: "loss", Variant: "v", Iter: 3, Value: 0, Timestamp: 50})
	s.ApplyTask(task, now, "u")
	if lm.Value != 0 || lm.MinValue != 0 || lm.MinValueIteration != 3 || *lm.FirstValue != 1 || lm.Count != 4 || *lm.MeanValue != 2.25 {
		t.Fatalf("bad second merge %+v", lm)
	}
	st := task.MetricStats[Hash("loss")].(map[string]any)["event_stats_by_type"].(map[string]any)
	if st[string(Scalar)].(map[string]any)["last_update"] != int64(50) {
		t.Fatalf("bad metric stats %v", task.MetricStats)
	}
}

func TestLineFormat(t *testing.T) {
	lvl, msg := "info", "hello"
	row := &eventstore.LogRow{TS: 5, Level: &lvl, Msg: &msg}
	cases := []struct{ format, want, err string }{
		{DefaultLineFormat, "5 None info hello\n", ""},
		{"{msg:>7}|{level:*^8}|{{literal}}\n\n", "  hello|**info**|{literal}\n", ""},
		{"{msg!r}", "hello\n", ""},
		{"{nope} {other}", "", "undefined placeholders in line format: nope, other"},
		{"{msg", "", "invalid line format"},
		{"msg}", "", "invalid line format"},
		{"{msg:d}", "", "invalid line format"},
	}
	for _, c := range cases {
		f, err := ParseLineFormat(c.format)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: err %v want %s", c.format, err, c.err)
			}
			continue
		}
		if err != nil || f.Line(row) != c.want {
			t.Errorf("%q: got %q (%v) want %q", c.format, f.Line(row), err, c.want)
		}
	}
}

func TestRollupLevels(t *testing.T) {
	cases := map[int64][2]int64{ // interval: level, width read
		1: {-1, 0}, 16: {-1, 0}, 17: {5, 32}, 32: {5, 32}, 42: {5, 64}, 64: {5, 64}, 65: {7, 128}, 200: {7, 256},
		1000: {9, 1024}, 8192: {13, 8192}, 16384: {13, 16384}, 20000: {13, 24576},
	}
	for interval, want := range cases {
		l := rollupLevelFor(interval)
		if int64(l) != want[0] || (l >= 0 && rollupWidth(interval, l) != want[1]) {
			t.Errorf("interval %d: level %d width %d, want %v", interval, l, rollupWidth(interval, max(l, 5)), want)
		}
	}
	if bucketStart(-5, 4) != -16 || bucketStart(17, 4) != 16 || bucketStart(0, 4) != 0 {
		t.Fatal("bad bucket start")
	}
	plans := []seriesPlan{{interval: 100, points: 10}, {interval: 105, points: 10}, {interval: 120, points: 10}, {interval: 1, points: 10}}
	groupIntervals(plans)
	if plans[0].interval != 105 || plans[1].interval != 105 || plans[2].interval != 120 || plans[3].interval != 1 {
		t.Fatalf("bad grouping %+v", plans)
	}
}

func TestScrollTokens(t *testing.T) {
	now := time.Now()
	s := &Scrolls{Now: func() time.Time { return now }, key: []byte("0123456789abcdef0123456789abcdef")}
	tok, err := s.Sign("c1", "k", map[string]int{"a": 1})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]int
	if err := s.Open(tok, "c1", "k", &got); err != nil || got["a"] != 1 {
		t.Fatalf("open: %v %v", err, got)
	}
	for name, open := range map[string]func() error{
		"foreign company": func() error { return s.Open(tok, "c2", "k", &got) },
		"other kind":      func() error { return s.Open(tok, "c1", "x", &got) },
		"tampered":        func() error { return s.Open(tamper(tok), "c1", "k", &got) },
		"garbage":         func() error { return s.Open("abc", "c1", "k", &got) },
		"expired": func() error {
			later := &Scrolls{Now: func() time.Time { return now.Add(ScrollTTL + time.Second) }, key: s.key}
			return later.Open(tok, "c1", "k", &got)
		},
	} {
		err := open()
		var ae *apierr.Error
		if !errors.As(err, &ae) || ae.Code != 400 || ae.Subcode != 1104 {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

// tamper changes one character of a token's payload.
func tamper(tok string) string {
	b := []byte(tok)
	if b[5] == 'A' {
		b[5] = 'B'
	} else {
		b[5] = 'A'
	}
	return string(b)
}
