package transfer_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/testenv"
)

type obj = map[string]any

// populate makes one of every kind of record through the API and returns
// the task ids that got events.
func populate(t *testing.T, e *testenv.Env) []string {
	t.Helper()
	proj := e.Call(t, "projects.create", obj{"name": "copy-proj", "description": "d", "tags": []string{"a"}}).OK(t).Str("id")
	e.Call(t, "projects.create", obj{"name": "copy-proj/child"}).OK(t)
	queue := e.Call(t, "queues.create", obj{"name": "copy-queue", "tags": []string{"q"}}).OK(t).Str("id")
	var tasks []string
	for i := 0; i < 3; i++ {
		id := e.Call(t, "tasks.create", obj{"name": fmt.Sprintf("task-%d", i), "type": "training", "project": proj,
			"tags": []string{"t"}, "comment": "c", "script": obj{"repository": "https://example.com/r.git", "entry_point": "train.py"}}).OK(t).Str("id")
		e.Call(t, "tasks.edit_hyper_params", obj{"task": id, "hyperparams": []obj{{"section": "Args", "name": "lr", "value": fmt.Sprint(0.1 * float64(i+1))}}}).OK(t)
		tasks = append(tasks, id)
	}
	model := e.Call(t, "models.create", obj{"name": "copy-model", "uri": "file:///m.bin", "project": proj, "task": tasks[0]}).OK(t).Str("id")
	e.Call(t, "tasks.add_or_update_model", obj{"task": tasks[1], "name": "in", "model": model, "type": "input"}).OK(t)
	e.Call(t, "tasks.enqueue", obj{"task": tasks[2], "queue": queue}).OK(t)
	e.Call(t, "workers.register", obj{"worker": "copy-worker", "queues": []string{queue}, "timeout": 3600}).OK(t)
	e.Call(t, "workers.status_report", obj{"worker": "copy-worker", "timestamp": time.Now().UnixMilli(),
		"machine_stats": obj{"cpu_usage": []float64{10, 20}, "memory_used": 100}}).OK(t)
	var lines []string
	add := func(ev obj) {
		b, _ := json.Marshal(ev)
		lines = append(lines, string(b))
	}
	for _, task := range tasks[:2] {
		for it := 0; it < 50; it++ {
			add(obj{"type": "training_stats_scalar", "task": task, "metric": "loss", "variant": "train", "iter": it, "value": 1.0 / float64(it+1), "timestamp": 1700000000000 + it})
			add(obj{"type": "training_stats_scalar", "task": task, "metric": "acc", "variant": "val", "iter": it, "value": float64(it) / 50, "timestamp": 1700000000000 + it})
			add(obj{"type": "log", "task": task, "msg": fmt.Sprintf("line %d", it), "level": "info", "iter": it, "timestamp": 1700000000000 + it})
		}
		add(obj{"type": "plot", "task": task, "metric": "p", "variant": "v", "iter": 3, "plot_str": `{"data": [{"x": [1, 2]}], "layout": {}}`})
		add(obj{"type": "training_debug_image", "task": task, "metric": "img", "variant": "v", "iter": 3, "key": "k", "url": "http://files/a.png"})
	}
	sendBatch(t, e, lines)
	// a training loop's flushes, an iteration each (staged on SQLite)
	for it := 0; it < 20; it++ {
		lines = nil
		add(obj{"type": "training_stats_scalar", "task": tasks[0], "metric": "lr", "variant": "sched", "iter": it, "value": 0.1 / float64(it+1), "timestamp": 1700000100000 + it})
		sendBatch(t, e, lines)
	}
	lines = nil
	add(obj{"type": "training_stats_scalar", "model_event": true, "task": model, "metric": "m", "variant": "v", "iter": 1, "value": 2.5})
	sendBatch(t, e, lines)
	e.Call(t, "events.add", obj{"type": "training_stats_scalar", "task": tasks[0], "metric": "single", "variant": "v", "value": 7}).OK(t)
	return tasks
}

// sendBatch posts events as one JSON-lines events.add_batch.
func sendBatch(t testing.TB, e *testenv.Env, lines []string) {
	t.Helper()
	e.Do(t, "events.add_batch", strings.Join(lines, "\n"), func(h http.Header) {
		h.Set("Authorization", "Bearer "+e.Token)
		h.Set("Content-Type", "application/json-lines")
		h.Set("X-ClearML-Worker", "copy-worker")
	}).OK(t)
}

// reads are the calls whose answers must survive a copy unchanged.
func reads(tasks []string) [][2]any {
	out := [][2]any{
		{"projects.get_all", obj{"order_by": []string{"name"}}},
		{"projects.get_all_ex", obj{"order_by": []string{"name"}, "include_stats": true}},
		{"tasks.get_all", obj{}},
		{"tasks.get_all_ex", obj{"order_by": []string{"name"}}},
		{"models.get_all", obj{}},
		{"queues.get_all", obj{}},
		{"workers.get_all", obj{}},
		{"users.get_current_user", obj{}},
		{"projects.get_hyper_parameters", obj{}},
	}
	for _, task := range tasks {
		out = append(out,
			[2]any{"tasks.get_by_id", obj{"task": task}},
			[2]any{"events.get_task_log", obj{"task": task, "batch_size": 500}},
			[2]any{"events.scalar_metrics_iter_histogram", obj{"task": task}},
			[2]any{"events.scalar_metrics_iter_raw", obj{"task": task, "metric": obj{"metric": "loss", "variants": []string{"train"}}, "count_total": true}},
			[2]any{"events.get_task_plots", obj{"task": task}},
			[2]any{"events.debug_images", obj{"metrics": []obj{{"task": task}}}},
			[2]any{"events.get_task_events", obj{"task": task, "batch_size": 1000}},
			[2]any{"events.get_scalar_metrics_and_variants", obj{"task": task}},
			[2]any{"events.get_task_metrics", obj{"tasks": []string{task}}},
		)
	}
	return out
}

// answers returns the data part of every read, as served.
func answers(t *testing.T, e *testenv.Env, tasks []string) map[string]string {
	t.Helper()
	return e.Answers(t, reads(tasks))
}

// sameAnswers fails on every read whose answer differs.
func sameAnswers(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	for k, w := range want {
		if g := got[k]; g != w {
			t.Errorf("%s: %s differs:\nbefore: %s\nafter:  %s", what, k, w, g)
		}
	}
}
