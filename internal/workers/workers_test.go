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
