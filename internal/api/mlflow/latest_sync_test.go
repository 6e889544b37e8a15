package mlflow_test

import (
	"context"
	"testing"

	"github.com/trove-ml/trove/internal/mlflow"
)

// TestLatestRowsFollowDocuments: log-batch marks the run instead of
// rewriting its latest-value rows; a search by metrics brings the rows up
// to date first (so it sees every value written before it), and the
// background job does the same for runs nobody searched.
func TestLatestRowsFollowDocuments(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		ctx := context.Background()
		db := c.e.App.DB
		count := func(table, run string) int {
			t.Helper()
			var n int
			if err := db.Read().QueryRowContext(ctx, `SELECT COUNT(*) FROM `+table+` WHERE task = ?`, run).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		exp := c.experiment(t, "latest-sync")
		a, b := c.run(t, exp, nil), c.run(t, exp, nil)
		for i, run := range []string{a, b} {
			c.post(t, "runs/log-batch", map[string]any{"run_id": run, "metrics": []map[string]any{
				{"key": "loss", "value": float64(i + 1), "timestamp": 1, "step": 0},
				{"key": "acc", "value": "NaN", "timestamp": 1, "step": 0}}}).ok(t)
		}
		if count("mlflow_latest_pending", a) != 1 || count("mlflow_latest_metrics", a) != 0 {
			t.Fatalf("after log-batch: %d marks, %d rows; want the mark alone", count("mlflow_latest_pending", a), count("mlflow_latest_metrics", a))
		}
		res := c.post(t, "runs/search", map[string]any{"experiment_ids": []string{exp}, "filter": "metrics.loss > 1.5", "order_by": []string{"metrics.loss DESC"}}).ok(t)
		if runs, _ := res["runs"].([]any); len(runs) != 1 || str(at(runs[0], "info"), "run_id") != b {
			t.Fatalf("search by the latest values: %v", res)
		}
		if count("mlflow_latest_pending", a) != 0 || count("mlflow_latest_metrics", a) != 2 {
			t.Fatalf("after the search: %d marks, %d rows; want 0 and 2", count("mlflow_latest_pending", a), count("mlflow_latest_metrics", a))
		}
		// a newer value, then the background job
		c.post(t, "runs/log-batch", map[string]any{"run_id": a, "metrics": []map[string]any{
			{"key": "loss", "value": 3, "timestamp": 2, "step": 1}}}).ok(t)
		for _, j := range mlflow.Jobs(&c.e.App.Deps.Env) {
			if err := j.Run(ctx, nil); err != nil {
				t.Fatal(err)
			}
		}
		if count("mlflow_latest_pending", a) != 0 {
			t.Fatal("the job left the mark")
		}
		var num float64
		if err := db.Read().QueryRowContext(ctx, `SELECT num FROM mlflow_latest_metrics WHERE task = ? AND metric_key = 'loss'`, a).Scan(&num); err != nil || num != 3 {
			t.Fatalf("loss row after the job: %v %v", num, err)
		}
		// deleting a run takes its mark too
		c.post(t, "runs/log-batch", map[string]any{"run_id": b, "metrics": []map[string]any{{"key": "loss", "value": 5, "timestamp": 3, "step": 2}}}).ok(t)
		c.e.Call(t, "tasks.delete", map[string]any{"task": b, "force": true}).OK(t)
		if count("mlflow_latest_pending", b) != 0 || count("mlflow_latest_metrics", b) != 0 {
			t.Fatal("a deleted run kept its mark or rows")
		}
	})
}
