package eventstore

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// inBucketOrder gives the rows sorted by bucket whichever way it takes:
// slots for dense rows, a sort for sparse, misaligned or extreme ones.
func TestInBucketOrder(t *testing.T) {
	rows := func(buckets ...int64) []rollupRow {
		out := make([]rollupRow, len(buckets))
		for i, b := range buckets {
			out[i] = rollupRow{bucket: b, total: float64(b) / 3, cnt: int64(i + 1)}
		}
		return out
	}
	dense := func(from, n, width int64, gapsEvery int64) []int64 {
		var out []int64
		for i := int64(0); i < n; i++ {
			if gapsEvery > 0 && i%gapsEvery == 0 {
				continue
			}
			out = append(out, from+i*width)
		}
		return out
	}
	shuffled := func(bs []int64) []int64 {
		bs = slices.Clone(bs)
		rand.New(rand.NewPCG(3, 4)).Shuffle(len(bs), func(i, j int) { bs[i], bs[j] = bs[j], bs[i] })
		return bs
	}
	reversed := func(bs []int64) []int64 {
		bs = slices.Clone(bs)
		slices.Reverse(bs)
		return bs
	}
	swapped := dense(0, 1000, 32, 0)
	swapped[10], swapped[11] = swapped[11], swapped[10]
	for name, c := range map[string]struct {
		buckets []int64
		width   int64
	}{
		"empty":             {nil, 32},
		"one":               {[]int64{64}, 32},
		"sorted":            {dense(0, 500, 32, 0), 32},
		"two swapped":       {swapped, 32},
		"reversed":          {reversed(dense(-3200, 300, 32, 7)), 32},
		"shuffled, gaps":    {shuffled(dense(-8192, 4000, 128, 5)), 128},
		"sparse":            {shuffled(append(dense(0, 50, 32, 0), 1<<40, -(1 << 41))), 32},
		"misaligned":        {[]int64{96, 0, 32, 33, 64}, 32},
		"extremes":          {[]int64{math.MaxInt64 - 7, math.MinInt64, 0}, 8},
		"extremes, reverse": {[]int64{math.MaxInt64, math.MinInt64 + 1}, 1},
	} {
		in := rows(c.buckets...)
		want := slices.Clone(in)
		slices.SortStableFunc(want, compareBuckets)
		got := inBucketOrder(slices.Clone(in), c.width)
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %v\nwant %v", name, got, want)
		}
	}
}
