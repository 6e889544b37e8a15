package eventstore

import (
	"fmt"
	"testing"
)

// TestSeriesCacheBound: past its bound the cache starts over, and never
// keeps part of a (task, metric) set as if it were the whole set.
func TestSeriesCacheBound(t *testing.T) {
	c := newSeriesCache()
	c.limit = 25
	set := func(task string, n int, from int64) []Series {
		out := make([]Series, n)
		for i := range out {
			out[i] = Series{ID: from + int64(i), Task: task, Metric: "m", Variant: fmt.Sprint("v", i)}
		}
		return out
	}
	c.put(0, "a", []string{"m"}, set("a", 10, 1))
	c.put(0, "b", []string{"m"}, set("b", 10, 100))
	if c.count != 20 {
		t.Fatalf("count %d, want 20", c.count)
	}
	// 10 more would pass 25: the cache starts over and holds c's set only
	c.put(0, "c", []string{"m"}, set("c", 10, 200))
	for task, want := range map[string]int{"a": 0, "b": 0, "c": 10} {
		out := map[[2]string]*Series{}
		missing, _ := c.lookup(task, []string{"m"}, out)
		if len(out) != want || (want == 0) != (len(missing) == 1) {
			t.Fatalf("task %s after the bound: %d series, missing %v", task, len(out), missing)
		}
	}
	// series created into a full cache are not added to a set in part
	c.created(0, set("c", 30, 300)[10:])
	out := map[[2]string]*Series{}
	if missing, _ := c.lookup("c", []string{"m"}, out); len(missing) != 1 || len(out) != 0 {
		t.Fatalf("after created past the bound: %d series, missing %v", len(out), missing)
	}
	if c.count != 0 || len(c.where) != 0 {
		t.Fatalf("count %d, where %d after starting over", c.count, len(c.where))
	}
}
