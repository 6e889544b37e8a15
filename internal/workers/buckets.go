package workers

import (
	"math"
)

// MinInterval is the narrowest statistics bucket in seconds: agents report
// every 30 s, so narrower buckets would chart as gaps (the reference's
// minimum chart interval).
const MinInterval = 40

// MaxBuckets bounds the buckets of one read; a wider range gets wider
// buckets.
const MaxBuckets = 10000

// Buckets are the time buckets of a statistics read.
type Buckets struct {
	// From and To bound the values read (epoch ms, inclusive).
	From, To int64
	// Width is the bucket width in ms; buckets start at its multiples.
	Width int64
	// Starts lists every bucket start in the range, empty ones included,
	// without a last bucket that covers less than 90% of an interval.
	Starts []int64
}

// NewBuckets lays buckets over [from, to] (epoch seconds) with the given
// interval in seconds (raised to MinInterval, and so that the range holds
// at most MaxBuckets).
func NewBuckets(from, to float64, interval int) Buckets {
	interval = max(interval, MinInterval, int(math.Ceil((to-from)/MaxBuckets)))
	b := Buckets{From: int64(math.Floor(from)) * 1000, To: int64(math.Floor(to)) * 1000, Width: int64(interval) * 1000}
	cutoff := (to - 0.9*float64(interval)) * 1000
	for at := b.From / b.Width * b.Width; at <= b.To; at += b.Width {
		if float64(at) > cutoff {
			break
		}
		b.Starts = append(b.Starts, at)
	}
	if b.Starts == nil {
		b.Starts = []int64{}
	}
	return b
}

// NewActivityBuckets lays the buckets of an activity report: like
// NewBuckets, but every bucket from the one holding from to the one holding
// to, less the last one always (as the reference, whose cut compares a ms
// key with a seconds bound). The count is floor(to/w) - floor(from/w), so a
// range of n intervals always has n buckets wherever it starts.
func NewActivityBuckets(from, to float64, interval int) Buckets {
	b := NewBuckets(from, to, interval)
	b.Starts = b.Starts[:0]
	for at := b.From / b.Width * b.Width; at <= b.To; at += b.Width {
		b.Starts = append(b.Starts, at)
	}
	if len(b.Starts) > 0 {
		b.Starts = b.Starts[:len(b.Starts)-1]
	}
	return b
}
