package mlflow_test

import (
	"fmt"
	"net/url"
	"sync"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestLogBatchConcurrent: batches sent at once to several runs share
// group-commit transactions; each keeps MLflow's rules: every point in the
// history (duplicates and NaN too), the latest value per key, params never
// changed, the finite points as scalars. A batch refused in a group (a
// changed param, a deleted run, an unknown run) fails alone.
func TestLogBatchConcurrent(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "group-commit-exp")
		const runs, senders, batches, per = 3, 4, 5, 40
		ids := make([]string, runs)
		for i := range ids {
			ids[i] = c.run(t, exp, nil)
			c.post(t, "runs/log-parameter", map[string]any{"run_id": ids[i], "key": "lr", "value": "0.1"}).ok(t)
		}
		deleted := c.run(t, exp, nil)
		c.post(t, "runs/delete", map[string]any{"run_id": deleted}).ok(t)

		var wg sync.WaitGroup
		errs := make(chan string, runs*senders*batches+16)
		for r := range ids {
			for s := 0; s < senders; s++ {
				wg.Add(1)
				go func(r, s int) {
					defer wg.Done()
					for b := 0; b < batches; b++ {
						ms := make([]map[string]any, per)
						for i := range ms {
							// each sender its own steps; step 0 twice (a duplicate)
							step := s*1000 + b*per + i
							var v any = float64(step)
							if i == per-1 {
								v = "NaN"
							}
							if b == 0 && i == 1 {
								step = s * 1000
							}
							ms[i] = map[string]any{"key": "loss", "value": v, "timestamp": 1700000000000 + step, "step": step}
						}
						a := c.post(t, "runs/log-batch", map[string]any{"run_id": ids[r], "metrics": ms,
							"params": []map[string]string{{"key": "lr", "value": "0.1"}, {"key": fmt.Sprintf("s%d", s), "value": "x"}},
							"tags":   []map[string]string{{"key": fmt.Sprintf("tag%d", s), "value": fmt.Sprint(b)}}})
						if a.Status != 200 {
							errs <- string(a.Raw)
						}
					}
				}(r, s)
			}
		}
		// refused batches beside them
		for i := 0; i < 3; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				pt := []map[string]any{{"key": "loss", "value": 1, "timestamp": 1, "step": 0}}
				c.post(t, "runs/log-batch", map[string]any{"run_id": ids[i], "metrics": pt,
					"params": []map[string]string{{"key": "lr", "value": "0.2"}}}).fails(t, 400, "INVALID_PARAMETER_VALUE", "Changing param values is not allowed")
				c.post(t, "runs/log-batch", map[string]any{"run_id": deleted, "metrics": pt}).fails(t, 400, "INVALID_PARAMETER_VALUE", "must be in the 'active' state")
				c.post(t, "runs/log-batch", map[string]any{"run_id": "no-such-run", "metrics": pt}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "no-such-run")
			}(i)
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Fatalf("a batch failed: %s", e)
		}

		for _, id := range ids {
			hist := c.get(t, "metrics/get-history", url.Values{"run_id": {id}, "metric_key": {"loss"}}).ok(t)
			ms, _ := hist["metrics"].([]any)
			if len(ms) != senders*batches*per {
				t.Fatalf("run %s: %d points in the history, want %d (none lost, duplicates kept)", id, len(ms), senders*batches*per)
			}
			nan := 0
			for _, m := range ms {
				if at(m, "value") == "NaN" {
					nan++
				}
			}
			if nan != senders*batches {
				t.Fatalf("run %s: %d NaN points, want %d", id, nan, senders*batches)
			}
			run := c.get(t, "runs/get", url.Values{"run_id": {id}}).ok(t)
			latest := at(run, "run", "data", "metrics", 0)
			// the highest step of all: sender 3's last batch's last point, a NaN
			if str(latest, "key") != "loss" || at(latest, "step") != float64(3*1000+(batches-1)*per+per-1) || at(latest, "value") != "NaN" {
				t.Fatalf("run %s: latest value %v", id, latest)
			}
			params := kv(at(run, "run", "data", "params"))
			tags := kv(at(run, "run", "data", "tags"))
			for s := 0; s < senders; s++ {
				if params[fmt.Sprintf("s%d", s)] != "x" || tags[fmt.Sprintf("tag%d", s)] != fmt.Sprint(batches-1) {
					t.Fatalf("run %s: params %v tags %v", id, params, tags)
				}
			}
			if params["lr"] != "0.1" {
				t.Fatalf("run %s: lr changed to %q", id, params["lr"])
			}
			// the scalar copy: the finite points, one per step (the
			// duplicate step is one iteration)
			raw := c.e.Call(t, "events.scalar_metrics_iter_raw", map[string]any{"task": id,
				"metric": map[string]any{"metric": "loss", "variants": []string{"loss"}}, "count_total": true, "batch_size": 10000}).OK(t)
			if n := testenv.Get(raw.Data, "total"); n != float64(senders*(batches*per-batches-1)) {
				t.Fatalf("run %s: %v scalar points, want %d: %.300s", id, n, senders*(batches*per-batches-1), raw.Raw)
			}
		}
		if h := c.get(t, "metrics/get-history", url.Values{"run_id": {deleted}, "metric_key": {"loss"}}).ok(t); len(h) != 0 {
			t.Fatalf("a refused batch left history: %v", h)
		}
	})
}
