package workers

import (
	"testing"
	"time"
)

func TestNewBuckets(t *testing.T) {
	cases := []struct {
		name     string
		from, to float64
		interval int
		width    int64
		starts   []int64
	}{
		{"aligned, last bucket incomplete", 1000, 1200, 40, 40_000, []int64{1_000_000, 1_040_000, 1_080_000, 1_120_000, 1_160_000}},
		{"interval raised to 40 s, aligned on the epoch", 990, 1100, 2, 40_000, []int64{960_000, 1_000_000, 1_040_000}},
		{"last bucket kept when 90% covered", 0, 116, 40, 40_000, []int64{0, 40_000, 80_000}},
		{"last bucket dropped below 90%", 0, 115, 40, 40_000, []int64{0, 40_000}},
		{"wide range widens buckets", 0, 1e6, 40, 100_000, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBuckets(tc.from, tc.to, tc.interval)
			if b.Width != tc.width {
				t.Fatalf("width %d, want %d", b.Width, tc.width)
			}
			if tc.starts != nil && !equal(b.Starts, tc.starts) {
				t.Fatalf("starts %v, want %v", b.Starts, tc.starts)
			}
			if len(b.Starts) > MaxBuckets {
				t.Fatalf("%d buckets", len(b.Starts))
			}
		})
	}
}

// TestActivityBuckets: an activity range of n intervals has n buckets
// wherever it starts against the epoch-aligned grid (the reference suite's
// test_get_activity_report asks 400 s at interval 2, raised to 40, and
// wants 10 points from any start second), the last one always left out.
func TestActivityBuckets(t *testing.T) {
	for off := 0; off < 40; off++ {
		from := float64(1_735_689_600 + off)
		b := NewActivityBuckets(from, from+400, 2)
		if len(b.Starts) != 10 {
			t.Fatalf("start +%d s: %d buckets %v", off, len(b.Starts), b.Starts)
		}
		if b.Starts[0] > int64(from)*1000 || b.Starts[0]%40_000 != 0 {
			t.Fatalf("start +%d s: first bucket %d", off, b.Starts[0])
		}
	}
	cases := []struct {
		name     string
		from, to float64
		starts   []int64
	}{
		{"aligned", 1000, 1200, []int64{1_000_000, 1_040_000, 1_080_000, 1_120_000, 1_160_000}},
		{"unaligned end: the bucket holding to is left out", 1000, 1239, []int64{1_000_000, 1_040_000, 1_080_000, 1_120_000, 1_160_000}},
		{"within one bucket", 1000, 1010, []int64{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if b := NewActivityBuckets(tc.from, tc.to, 40); !equal(b.Starts, tc.starts) {
				t.Fatalf("starts %v, want %v", b.Starts, tc.starts)
			}
		})
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestReportTime(t *testing.T) {
	want := time.Date(2025, 1, 1, 0, 0, 1, 500_000_000, time.UTC)
	for _, ts := range []float64{1735689601.5, 1735689601500} {
		if got := ReportTime(ts); !got.Equal(want) {
			t.Fatalf("%v: got %v", ts, got)
		}
	}
}

func TestMachineStats(t *testing.T) {
	used, free := 100.0, 0.0
	m := MachineStats{CPUUsage: []float64{5, 0, 7}, MemoryUsed: &used, MemoryFree: &free, GPUTemperature: []float64{60}}
	got := map[string]float64{}
	for _, s := range m.Stats("c", "w", "t", 1) {
		got[s.Category+"/"+s.Metric+"/"+s.Variant] = s.Value
		if s.Company != "c" || s.Worker != "w" || s.Task != "t" || s.At != 1 {
			t.Fatalf("bad stat %+v", s)
		}
	}
	want := map[string]float64{"cpu/cpu_usage/0": 5, "cpu/cpu_usage/2": 7, "memory/memory_used/total": 100, "gpu/gpu_temperature/0": 60}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}
