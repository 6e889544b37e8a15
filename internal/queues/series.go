package queues

import (
	"context"
	"maps"
	"math"
	"slices"

	"github.com/trove-ml/trove/internal/store"
)

// AllQueues names the series averaged over every queue of the company.
const AllQueues = "all"

// Series is the metrics of one queue (or of all) over time buckets.
type Series struct {
	Queue string
	// Dates are bucket starts in epoch milliseconds.
	Dates           []int64
	AvgWaitingTimes []float64
	QueueLengths    []int
}

func newSeries(queue string) *Series {
	return &Series{Queue: queue, Dates: []int64{}, AvgWaitingTimes: []float64{}, QueueLengths: []int{}}
}

func (s *Series) add(at int64, waiting float64, length int) {
	s.Dates = append(s.Dates, at)
	s.AvgWaitingTimes = append(s.AvgWaitingTimes, waiting)
	s.QueueLengths = append(s.QueueLengths, length)
}

// SeriesRequest is a metrics read.
type SeriesRequest struct {
	Company string
	// From and To are epoch seconds; Interval is the bucket width in seconds.
	From, To float64
	Interval int
	// Queues selects one series per queue; empty means one series named
	// "all" over every queue of the company.
	Queues []string
}

// Read returns the metrics in buckets of Interval seconds aligned on the
// epoch. Each bucket of a queue takes its sample with the longest waiting
// time (and that sample's length); buckets without samples are left out.
func (m *Metrics) Read(ctx context.Context, r SeriesRequest) ([]*Series, error) {
	return m.read(ctx, r, r.Queues, len(r.Queues) > 0)
}

// read reads the samples of ids (all of the company's when empty), one
// series per queue or the combined one. Samples are read from LookBehind
// before From, so that the combined series starts with the state every
// queue was in, but points whose bucket starts before the chart start
// (From less one interval) are not returned (as the reference from 2.2).
func (m *Metrics) read(ctx context.Context, r SeriesRequest, ids []string, perQueueSeries bool) ([]*Series, error) {
	bucket := int64(r.Interval) * 1000
	samples, err := m.DB.TopQueueSamples(ctx, m.DB.Read(), store.QueueSampleRange{
		Company: r.Company, Queues: ids, Bucket: bucket,
		From: int64(math.Floor(r.From*1000)) - LookBehind.Milliseconds(), To: int64(math.Floor(r.To * 1000)),
	})
	if err != nil {
		return nil, err
	}
	chartStart := int64(math.Floor((r.From - float64(r.Interval)) * 1000))
	if !perQueueSeries {
		return []*Series{combine(samples, chartStart)}, nil
	}
	return perQueue(ids, samples, chartStart), nil
}

// perQueue splits bucketed samples into one series per requested queue.
func perQueue(queues []string, samples []store.QueueSample, chartStart int64) []*Series {
	byQueue := map[string]*Series{}
	out := make([]*Series, 0, len(queues))
	for _, id := range queues {
		if byQueue[id] == nil {
			byQueue[id] = newSeries(id)
			out = append(out, byQueue[id])
		}
	}
	for _, s := range samples {
		if s.At < chartStart {
			continue
		}
		if se := byQueue[s.Queue]; se != nil {
			se.add(s.At, s.AvgWaiting, s.Length)
		}
	}
	return out
}

// combine merges bucketed samples (ordered by bucket) into the "all"
// series: a queue without a sample in a bucket keeps its last values; the
// length is the sum and the waiting time the length-weighted mean. Buckets
// before chartStart only carry their values forward.
func combine(samples []store.QueueSample, chartStart int64) *Series {
	out := newSeries(AllQueues)
	last := map[string]store.QueueSample{}
	for i := 0; i < len(samples); {
		at := samples[i].At
		for ; i < len(samples) && samples[i].At == at; i++ {
			last[samples[i].Queue] = samples[i]
		}
		if at < chartStart {
			continue
		}
		total, weighted := 0, 0.0
		for _, id := range slices.Sorted(maps.Keys(last)) {
			s := last[id]
			total += s.Length
			weighted += s.AvgWaiting * float64(s.Length)
		}
		waiting := 0.0
		if total > 0 {
			waiting = weighted / float64(total)
		}
		out.add(at, waiting, total)
	}
	return out
}
