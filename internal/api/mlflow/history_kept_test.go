package mlflow_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// historyOf walks a run's history of key through get-history pages of n,
// each point as "step@ts=value", with "+dataset" when it names one.
func historyOf(t *testing.T, c *client, run, key string, n int) []string {
	t.Helper()
	var out []string
	tok := ""
	for page := 0; ; page++ {
		q := url.Values{"run_id": {run}, "metric_key": {key}, "max_results": {fmt.Sprint(n)}}
		if tok != "" {
			q.Set("page_token", tok)
		}
		a := c.get(t, "metrics/get-history", q).ok(t)
		ms, _ := a["metrics"].([]any)
		for _, m := range ms {
			s := fmt.Sprintf("%v@%v=%v", at(m, "step"), at(m, "timestamp"), at(m, "value"))
			if d := str(m, "dataset_name"); d != "" {
				s += "+" + d
			}
			out = append(out, s)
		}
		tok = str(a, "next_page_token")
		if tok == "" || page > 100 {
			return out
		}
	}
}

// ownRows counts a run's rows of mlflow_metrics, and those marked in_scalars.
func ownRows(t *testing.T, e *testenv.Env, run string) (rows, marked int) {
	t.Helper()
	err := e.App.DB.Read().QueryRowContext(context.Background(),
		`SELECT COUNT(*), COALESCE(SUM(in_scalars), 0) FROM mlflow_metrics WHERE task = ?`, run).Scan(&rows, &marked)
	if err != nil {
		t.Fatal(err)
	}
	return rows, marked
}

// scalarsOf is a run's scalar series of key through the ClearML API, as
// "iter=value".
func scalarsOf(t *testing.T, c *client, run, key string) string {
	t.Helper()
	raw := c.e.Call(t, "events.scalar_metrics_iter_raw", map[string]any{"task": run,
		"metric": map[string]any{"metric": key, "variants": []string{key}}, "batch_size": 1000}).OK(t)
	vs, _ := testenv.Get(raw.Data, "variants").(map[string]any)
	v := vs[key]
	iters, _ := testenv.Get(v, "iter").([]any)
	vals, _ := testenv.Get(v, "y").([]any)
	var parts []string
	for i := range iters {
		parts = append(parts, fmt.Sprintf("%v=%v", iters[i], vals[i]))
	}
	return strings.Join(parts, " ")
}

// TestHistoryKeptOnce: a run's finite points are kept once, in its scalar
// series, and its own rows hold only what a series cannot: NaN, a step's
// earlier points (of the same batch, or stored ones a later batch
// replaces), points with links (marked while the series holds them too)
// and the points of a published run. The history still answers every
// point in (step, timestamp) order, through pages of any size, and the
// ClearML API sees the last finite point of each step.
func TestHistoryKeptOnce(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "kept-once")
		run := c.run(t, exp, nil)
		const T = 1700000000000
		log := func(ms ...map[string]any) {
			t.Helper()
			c.post(t, "runs/log-batch", map[string]any{"run_id": run, "metrics": ms}).ok(t)
		}
		pt := func(step int, ts int64, v any) map[string]any {
			return map[string]any{"key": "loss", "value": v, "timestamp": T + ts, "step": step}
		}
		log(pt(0, 0, 0), pt(1, 1, 0.1), pt(2, 2, 0.2), pt(3, 3, 0.3), pt(4, 4, 0.4))
		if n, _ := ownRows(t, c.e, run); n != 0 {
			t.Fatalf("a batch of new finite steps wrote %d history rows, want 0 (the series holds them)", n)
		}
		// a replaced step, a NaN, a duplicate step inside the batch
		log(pt(2, 20, 2.5), pt(3, 30, "NaN"), pt(5, 50, 5), pt(5, 51, 5.5))
		// a linked point replaces step 4, then an unlinked one replaces it
		linked := pt(4, 40, 4.4)
		linked["dataset_name"], linked["dataset_digest"] = "eval", "d1"
		log(linked)
		if n, marked := ownRows(t, c.e, run); n != 5 || marked != 1 {
			t.Fatalf("after the linked point: %d rows (%d marked), want 5 (1)", n, marked)
		}
		log(pt(4, 41, 4.8))

		want := []string{"0@1.7e+12=0", "1@1.700000000001e+12=0.1", "2@1.700000000002e+12=0.2", "2@1.70000000002e+12=2.5",
			"3@1.700000000003e+12=0.3", "3@1.70000000003e+12=NaN", "4@1.700000000004e+12=0.4", "4@1.70000000004e+12=4.4+eval",
			"4@1.700000000041e+12=4.8", "5@1.70000000005e+12=5", "5@1.700000000051e+12=5.5"}
		for _, n := range []int{25000, 1, 3, 4} {
			if got := historyOf(t, c, run, "loss", n); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Fatalf("history in pages of %d:\n got %v\nwant %v", n, got, want)
			}
		}
		if n, marked := ownRows(t, c.e, run); n != 5 || marked != 0 {
			t.Fatalf("%d rows (%d marked), want 5 (0): 0.2, NaN, 5, 0.4 and 4.4", n, marked)
		}
		if got := scalarsOf(t, c, run, "loss"); got != "0=0 1=0.1 2=2.5 3=0.3 4=4.8 5=5.5" {
			t.Fatalf("scalars %q", got)
		}
		bulk := c.get(t, "metrics/get-history-bulk-interval", url.Values{"run_ids": {run}, "metric_key": {"loss"}, "max_results": {"100"}}).ok(t)
		if ms, _ := bulk["metrics"].([]any); len(ms) != len(want) {
			t.Fatalf("bulk interval: %d points, want %d", len(ms), len(want))
		}

		// published through the ClearML API: it takes no events, the
		// history keeps the point in its rows
		c.post(t, "runs/update", map[string]any{"run_id": run, "status": "FINISHED"}).ok(t)
		c.e.Call(t, "tasks.publish", map[string]any{"task": run, "force": true}).OK(t)
		log(pt(6, 60, 6))
		got := historyOf(t, c, run, "loss", 5)
		if len(got) != len(want)+1 || got[len(got)-1] != "6@1.70000000006e+12=6" {
			t.Fatalf("history of the published run: %v", got)
		}
		if s := scalarsOf(t, c, run, "loss"); strings.Contains(s, "6=") {
			t.Fatalf("a published run's series took a point: %q", s)
		}

		// events.delete_for_task takes the history with the series
		other := c.run(t, exp, nil)
		c.post(t, "runs/log-batch", map[string]any{"run_id": other, "metrics": []map[string]any{
			{"key": "acc", "value": "NaN", "timestamp": T, "step": 0}, {"key": "acc", "value": 1, "timestamp": T, "step": 1}}}).ok(t)
		c.e.Call(t, "events.delete_for_task", map[string]any{"task": other}).OK(t)
		if h := historyOf(t, c, other, "acc", 10); len(h) != 0 {
			t.Fatalf("history after events.delete_for_task: %v", h)
		}
	})
}

// TestHistoryOfEarlierRuns: a run that logged metrics before its history
// was kept once (its document without scalar_history) keeps every point
// in its own rows, new ones too, and the series a copy.
func TestHistoryOfEarlierRuns(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "earlier-runs")
		run := c.run(t, exp, nil)
		ctx := context.Background()
		e := c.e.App.DB
		err := e.Tx(ctx, func(q store.Querier) error {
			tk, err := e.Tasks().Get(ctx, q, run)
			if err != nil {
				return err
			}
			mr := *tk.MLflow
			mr.Metrics = map[string]*store.LatestMetric{"acc": {Value: "0.5", Step: 1, Timestamp: 11}}
			tk.MLflow = &mr
			if err := e.Tasks().Update(ctx, q, tk); err != nil {
				return err
			}
			return e.AddMetricPoints(ctx, q, run, []store.MetricPoint{{Key: "acc", Step: 1, Timestamp: 10, Value: "0.25"}, {Key: "acc", Step: 1, Timestamp: 11, Value: "0.5"}})
		})
		if err != nil {
			t.Fatal(err)
		}
		c.post(t, "runs/log-batch", map[string]any{"run_id": run, "metrics": []map[string]any{
			{"key": "acc", "value": 0.75, "timestamp": 12, "step": 2}}}).ok(t)
		if got := strings.Join(historyOf(t, c, run, "acc", 2), " "); got != "1@10=0.25 1@11=0.5 2@12=0.75" {
			t.Fatalf("history %q", got)
		}
		if n, _ := ownRows(t, c.e, run); n != 3 {
			t.Fatalf("%d rows, want 3 (every point)", n)
		}
		if got := scalarsOf(t, c, run, "acc"); got != "2=0.75" {
			t.Fatalf("scalars %q", got)
		}
		run2 := c.get(t, "runs/get", url.Values{"run_id": {run}}).ok(t)
		if m := at(run2, "run", "data", "metrics", 0); at(m, "value") != 0.75 {
			t.Fatalf("latest %v", m)
		}
	})
}
