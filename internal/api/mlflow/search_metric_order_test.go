package mlflow_test

import (
	"fmt"
	"slices"
	"testing"
)

// A search ordered first by a metric walks the metric's index: runs with a
// finite value in order (ties by newest start, then id), then the runs
// without one (missing or NaN) by newest start; pages of every size cross
// from the first group into the second with the same order.
func TestRunSearchMetricOrderPages(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "metric-order")
		other := c.experiment(t, "metric-order-other")
		mk := func(exp, name string, start int64, acc any) {
			id := c.run(t, exp, map[string]any{"run_name": name, "start_time": start})
			if acc != nil {
				c.post(t, "runs/log-metric", map[string]any{"run_id": id, "key": "acc", "value": acc, "timestamp": 1, "step": 0}).ok(t)
			} else {
				c.post(t, "runs/log-metric", map[string]any{"run_id": id, "key": "loss", "value": 1, "timestamp": 1, "step": 0}).ok(t)
			}
		}
		mk(exp, "r1", 1000, 0.5)
		mk(exp, "r2", 2000, 0.9)
		mk(exp, "r3", 3000, 0.5)
		mk(exp, "r4", 4000, nil)
		mk(exp, "r5", 5000, "NaN")
		mk(exp, "r6", 6000, 0.7)
		mk(exp, "r7", 500, nil)
		mk(other, "elsewhere", 7000, 0.95)

		search := func(filter, order string, size int) []string {
			var out []string
			tok := ""
			for pages := 0; pages < 20; pages++ {
				body := map[string]any{"experiment_ids": []string{exp}, "filter": filter, "order_by": []string{order}, "max_results": size}
				if tok != "" {
					body["page_token"] = tok
				}
				res := c.post(t, "runs/search", body).ok(t)
				l, _ := res["runs"].([]any)
				if len(l) > size {
					t.Fatalf("page of %d runs for max_results %d", len(l), size)
				}
				for _, r := range l {
					out = append(out, str(r, "info", "run_name"))
				}
				if tok = str(res, "next_page_token"); tok == "" {
					return out
				}
			}
			t.Fatalf("no last page")
			return nil
		}
		cases := []struct {
			filter, order string
			want          []string
		}{
			{"", "metrics.acc DESC", []string{"r2", "r6", "r3", "r1", "r5", "r4", "r7"}},
			{"", "metrics.acc ASC", []string{"r3", "r1", "r6", "r2", "r5", "r4", "r7"}},
			{"attributes.run_name != 'r6'", "metrics.acc DESC", []string{"r2", "r3", "r1", "r5", "r4", "r7"}},
			{"metrics.acc < 0.8", "metrics.acc DESC", []string{"r6", "r3", "r1"}},
			{"metrics.loss > 0", "metrics.acc DESC", []string{"r4", "r7"}},
			{"attributes.run_name = 'none'", "metrics.acc DESC", nil},
		}
		for _, tc := range cases {
			for _, size := range []int{1, 2, 3, 4, 100} {
				t.Run(fmt.Sprintf("%s/%s/%d", tc.filter, tc.order, size), func(t *testing.T) {
					if got := search(tc.filter, tc.order, size); !slices.Equal(got, tc.want) {
						t.Fatalf("got %v, want %v", got, tc.want)
					}
				})
			}
		}
	})
}
