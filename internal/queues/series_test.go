package queues

import (
	"testing"

	"github.com/trove-ml/trove/internal/store"
)

func TestCombine(t *testing.T) {
	s := combine([]store.QueueSample{
		{Queue: "a", At: 0, Length: 2, AvgWaiting: 10},
		{Queue: "a", At: 60, Length: 1, AvgWaiting: 30},
		{Queue: "b", At: 60, Length: 3, AvgWaiting: 10},
		{Queue: "b", At: 120, Length: 0, AvgWaiting: 0},
	}, 0)
	if s.Queue != AllQueues || len(s.Dates) != 3 {
		t.Fatalf("series %+v", s)
	}
	// 60: (1*30 + 3*10) / 4; 120: a carried (1, 30), b empty.
	wantLen, wantWait := []int{2, 4, 1}, []float64{10, 15, 30}
	for i := range s.Dates {
		if s.QueueLengths[i] != wantLen[i] || s.AvgWaitingTimes[i] != wantWait[i] {
			t.Fatalf("bucket %d: %d/%v, want %d/%v", i, s.QueueLengths[i], s.AvgWaitingTimes[i], wantLen[i], wantWait[i])
		}
	}
	if empty := combine(nil, 0); empty.Dates == nil || len(empty.Dates) != 0 {
		t.Fatalf("no samples: %+v", empty)
	}
}

func TestPerQueue(t *testing.T) {
	out := perQueue([]string{"b", "a", "b"}, []store.QueueSample{{Queue: "a", At: 0, Length: 1}, {Queue: "c", At: 0, Length: 9}}, 0)
	if len(out) != 2 || out[0].Queue != "b" || len(out[0].Dates) != 0 || out[1].Queue != "a" || out[1].QueueLengths[0] != 1 {
		t.Fatalf("per queue %+v %+v", out[0], out[1])
	}
}

// TestChartStart: points before the chart start are cut, per queue and
// combined; the combined series still carries their values forward.
func TestChartStart(t *testing.T) {
	samples := []store.QueueSample{
		{Queue: "a", At: 0, Length: 2, AvgWaiting: 10},
		{Queue: "b", At: 60, Length: 1, AvgWaiting: 40},
		{Queue: "a", At: 120, Length: 3, AvgWaiting: 20},
	}
	s := combine(samples, 60)
	if len(s.Dates) != 2 || s.Dates[0] != 60 || s.QueueLengths[0] != 3 || s.QueueLengths[1] != 4 || s.AvgWaitingTimes[1] != 25 {
		t.Fatalf("combined %+v", s)
	}
	out := perQueue([]string{"a", "b"}, samples, 61)
	if len(out[0].Dates) != 1 || out[0].Dates[0] != 120 || len(out[1].Dates) != 0 {
		t.Fatalf("per queue %+v %+v", out[0], out[1])
	}
}
