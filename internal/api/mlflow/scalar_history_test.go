package mlflow_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestScalarHistory: a task reported with the ClearML SDK answers
// get-history, get-history-bulk and get-history-bulk-interval from its
// scalar series: key = metric when variant = metric, else metric/variant;
// step = iteration, timestamp = the event's time, the same values.
func TestScalarHistory(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		e := c.e
		pid, _ := e.Call(t, "projects.create", map[string]any{"name": "scalar-history", "description": "d"}).OK(t).Data["id"].(string)
		mk := func(name string) string {
			id, _ := e.Call(t, "tasks.create", map[string]any{"name": name, "type": "training", "project": pid}).OK(t).Data["id"].(string)
			e.Call(t, "tasks.started", map[string]any{"task": id}).OK(t)
			return id
		}
		tid, other := mk("reported"), mk("other")
		var lines []string
		for i := range 10 {
			lines = append(lines,
				fmt.Sprintf(`{"type":"training_stats_scalar","task":%q,"metric":"loss","variant":"loss","iter":%d,"value":%g,"timestamp":%d}`, tid, i, 1/float64(i+1), 1700000000000+int64(i)),
				fmt.Sprintf(`{"type":"training_stats_scalar","task":%q,"metric":"acc","variant":"val","iter":%d,"value":%g,"timestamp":%d}`, tid, i*10, float64(i)/10, 1700000001000+int64(i)))
		}
		lines = append(lines, fmt.Sprintf(`{"type":"training_stats_scalar","task":%q,"metric":"loss","variant":"loss","iter":4,"value":2.5,"timestamp":1700000005000}`, other))
		e.Do(t, "events.add_batch", strings.Join(lines, "\n"), func(h http.Header) {
			h.Set("Authorization", "Bearer "+e.Token)
			h.Set("Content-Type", "application/json-lines")
		}).OK(t)

		hist := func(q url.Values) []any {
			l, _ := c.get(t, "metrics/get-history", q).ok(t)["metrics"].([]any)
			return l
		}
		loss := hist(url.Values{"run_id": {tid}, "metric_key": {"loss"}})
		if len(loss) != 10 || at(loss[0], "value") != 1.0 || at(loss[3], "value") != 0.25 || at(loss[9], "step") != 9.0 ||
			at(loss[9], "timestamp") != 1700000000009.0 || str(loss[0], "key") != "loss" {
			t.Fatalf("loss history: %v", loss)
		}
		acc := hist(url.Values{"run_id": {tid}, "metric_key": {"acc/val"}})
		if len(acc) != 10 || at(acc[5], "step") != 50.0 || at(acc[5], "value") != 0.5 || str(acc[5], "key") != "acc/val" {
			t.Fatalf("acc/val history: %v", acc)
		}
		// the last points are the values runs/get answers
		latest := map[string]any{}
		for _, m := range at(c.get(t, "runs/get", url.Values{"run_id": {tid}}).ok(t), "run", "data", "metrics").([]any) {
			latest[str(m, "key")] = at(m, "value")
		}
		if latest["loss"] != at(loss[9], "value") || latest["acc/val"] != at(acc[9], "value") {
			t.Fatalf("runs/get %v against the histories' last points", latest)
		}
		for _, missing := range []string{"acc", "val", "nope", "acc/val/x"} {
			if l := hist(url.Values{"run_id": {tid}, "metric_key": {missing}}); len(l) != 0 {
				t.Fatalf("%q answers %v", missing, l)
			}
		}
		// pages
		first := c.get(t, "metrics/get-history", url.Values{"run_id": {tid}, "metric_key": {"loss"}, "max_results": {"4"}}).ok(t)
		tok := str(first, "next_page_token")
		if len(first["metrics"].([]any)) != 4 || tok == "" {
			t.Fatalf("first page: %v", first)
		}
		rest := hist(url.Values{"run_id": {tid}, "metric_key": {"loss"}, "page_token": {tok}})
		if len(rest) != 6 || at(rest[0], "step") != 4.0 {
			t.Fatalf("second page: %v", rest)
		}
		// bulk: several tasks by id
		bulk, _ := c.get(t, "metrics/get-history-bulk", url.Values{"run_id": {tid, other}, "metric_key": {"loss"}}).ok(t)["metrics"].([]any)
		if len(bulk) != 11 {
			t.Fatalf("bulk: %d points", len(bulk))
		}
		seen := map[string]int{}
		for _, p := range bulk {
			seen[str(p, "run_id")]++
		}
		if seen[tid] != 10 || seen[other] != 1 {
			t.Fatalf("bulk by run: %v", seen)
		}
		iv, _ := c.get(t, "metrics/get-history-bulk-interval", url.Values{"run_ids": {tid}, "metric_key": {"acc/val"}, "max_results": {"5"}}).ok(t)["metrics"].([]any)
		if len(iv) < 5 || len(iv) > 6 || at(iv[len(iv)-1], "step") != 90.0 {
			t.Fatalf("bulk-interval: %v", iv)
		}
		ranged, _ := c.get(t, "metrics/get-history-bulk-interval", url.Values{"run_ids": {tid}, "metric_key": {"acc/val"},
			"start_step": {"20"}, "end_step": {"40"}}).ok(t)["metrics"].([]any)
		if len(ranged) != 3 || at(ranged[0], "step") != 20.0 {
			t.Fatalf("bulk-interval range: %v", ranged)
		}
		// another company sees none of it
		c.as(otherUser).get(t, "metrics/get-history", url.Values{"run_id": {tid}, "metric_key": {"loss"}}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", tid)
	})
}
