package webapp_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/testenv"
)

// seeded maps the fixture's placeholders ("{{task:resnet}}") to the ids
// this environment's seed made.
type seeded map[string]string

// seedLikeTheDrive makes, through the API, the data e2e/webapp/drive.mjs
// makes with the SDK: nested projects, trained tasks with scalars, plots,
// console, debug images, hyper-parameters, a configuration, artifacts and
// output models; queues, a worker, draft/queued/running tasks, a pipeline
// and a dataset.
func seedLikeTheDrive(t *testing.T, e *testenv.Env) seeded {
	t.Helper()
	s := seeded{}
	project := func(key, name string, systemTags ...string) string {
		body := map[string]any{"name": name, "description": "seeded"}
		if len(systemTags) > 0 {
			body["system_tags"] = systemTags
		}
		id := e.Call(t, "projects.create", body).OK(t).Str("id")
		s["{{project:"+key+"}}"] = id
		return id
	}
	project("demo", "Trove Demo")
	vision := project("vision", "Trove Demo/Vision")
	detection := project("detection", "Trove Demo/Vision/Detection")
	nlp := project("nlp", "Trove Demo/NLP")

	trained := []struct{ key, name, project string }{
		{"resnet", "train resnet", vision}, {"vgg", "train vgg", vision},
		{"yolo", "train yolo", detection}, {"bert", "train bert", nlp},
	}
	for i, tr := range trained {
		id := trainedTask(t, e, tr.name, tr.project, 0.1/float64(i+1))
		s["{{task:"+tr.key+"}}"] = id
		if tr.key == "resnet" || tr.key == "vgg" {
			s["{{model:"+tr.key+"}}"] = outputModel(t, e, id, tr.project)
		}
	}

	s["{{queue:default}}"] = e.Call(t, "queues.get_default", nil).OK(t).Str("id")
	s["{{queue:gpu}}"] = e.Call(t, "queues.create", map[string]any{"name": "gpu-queue", "tags": []string{"gpu"}}).OK(t).Str("id")
	script := map[string]any{"repository": "https://example.com/repo.git", "entry_point": "train.py"}
	draft := func(key, name, project string) string {
		id := e.Call(t, "tasks.create", map[string]any{"name": name, "project": project, "type": "training", "script": script}).OK(t).Str("id")
		s["{{task:"+key+"}}"] = id
		return id
	}
	for _, id := range []string{draft("draft", "draft to enqueue", vision), draft("edit", "draft to edit", vision)} {
		e.Call(t, "tasks.edit_hyper_params", map[string]any{"task": id,
			"hyperparams": []map[string]any{{"section": "General", "name": "lr", "value": "0.3", "type": "float"}}}).OK(t)
		e.Call(t, "tasks.edit_configuration", map[string]any{"task": id,
			"configuration": []map[string]any{{"name": "model_cfg", "value": `{"layers": [8]}`, "type": "dictionary"}}}).OK(t)
	}
	queued := draft("queued", "queued to dequeue", vision)
	e.Call(t, "tasks.enqueue", map[string]any{"task": queued, "queue": s["{{queue:default}}"]}).OK(t)
	running := draft("running", "running to abort", nlp)
	e.Call(t, "tasks.enqueue", map[string]any{"task": running, "queue": s["{{queue:gpu}}"]}).OK(t)
	e.Call(t, "queues.get_next_task", map[string]any{"queue": s["{{queue:gpu}}"], "task": running}).OK(t)
	e.Call(t, "tasks.started", map[string]any{"task": running}).OK(t)

	s["{{worker:1}}"] = "trove-worker-1"
	e.Call(t, "workers.register", map[string]any{"worker": "trove-worker-1", "timeout": 3600,
		"queues": []string{s["{{queue:default}}"], s["{{queue:gpu}}"]}}).OK(t)
	for i := 0; i < 3; i++ {
		e.Call(t, "workers.status_report", map[string]any{"worker": "trove-worker-1", "timestamp": time.Now().UnixMilli(), "task": running,
			"machine_stats": map[string]any{"cpu_usage": []float64{float64(20 + i), 30}, "memory_used": 2048 + i, "memory_free": 4096}}).OK(t)
	}

	// Pipelines and datasets: a completed task with its system tag in a
	// hidden project under a hidden .pipelines or .datasets folder, as the
	// SDK makes them.
	system := func(projectKey, taskKey, projectName, name, kind, tag string) {
		folder := projectName[:strings.LastIndex(projectName, "/")]
		e.Call(t, "projects.create", map[string]any{"name": folder, "description": "seeded", "system_tags": []string{"hidden"}}).OK(t)
		pid := project(projectKey, projectName, "hidden", tag)
		id := e.Call(t, "tasks.create", map[string]any{"name": name, "project": pid, "type": kind,
			"system_tags": []string{tag}}).OK(t).Str("id")
		e.Call(t, "tasks.started", map[string]any{"task": id}).OK(t)
		e.Call(t, "tasks.completed", map[string]any{"task": id}).OK(t)
		s["{{task:"+taskKey+"}}"] = id
	}
	system("pipeline", "controller", "Trove Pipelines/.pipelines/demo pipeline", "demo pipeline", "controller", "pipeline")
	system("dataset", "dataset", "Trove Datasets/.datasets/digits", "digits", "data_processing", "dataset")
	return s
}

// trainedTask is a completed task shaped like e2e/flows/train.py's.
func trainedTask(t *testing.T, e *testenv.Env, name, project string, lr float64) string {
	t.Helper()
	id := e.Call(t, "tasks.create", map[string]any{"name": name, "project": project, "type": "training",
		"script": map[string]any{"entry_point": "train.py", "diff": "print('hi')"}}).OK(t).Str("id")
	params := map[string]any{}
	for k, v := range map[string]string{"lr": fmt.Sprint(lr), "iterations": "30", "sleep_per_iter": "0.0", "label": "baseline"} {
		params[k] = map[string]any{"section": "General", "name": k, "value": v}
	}
	e.Call(t, "tasks.edit", map[string]any{"task": id, "hyperparams": map[string]any{"General": params},
		"configuration": map[string]any{"model_cfg": map[string]any{"name": "model_cfg", "type": "dictionary",
			"value": `{"layers": [32, 16], "dropout": 0.25}`}}}).OK(t)
	e.Call(t, "tasks.started", map[string]any{"task": id}).OK(t)
	var lines []string
	add := func(ev map[string]any) {
		ev["task"] = id
		ev["timestamp"] = time.Now().UnixMilli()
		b, _ := json.Marshal(ev)
		lines = append(lines, string(b))
	}
	for it := 0; it < 30; it++ {
		for _, m := range []string{"loss", "accuracy"} {
			for _, v := range []string{"train", "val"} {
				add(map[string]any{"type": "training_stats_scalar", "metric": m, "variant": v, "iter": it, "value": lr * 100 / float64(it+1)})
			}
		}
	}
	add(map[string]any{"type": "training_stats_scalar", "metric": "Summary", "variant": "final_accuracy", "iter": -(1 << 31), "value": 0.9375})
	add(map[string]any{"type": "plot", "metric": "curve", "variant": "quadratic", "iter": 0,
		"plot_str": `{"data":[{"type":"scatter","x":[0,1,2],"y":[0,1,4]}],"layout":{"title":"quadratic"}}`})
	for it := 0; it < 2; it++ {
		add(map[string]any{"type": "training_debug_image", "metric": "samples", "variant": "gradient", "iter": it,
			"url": fmt.Sprintf("http://127.0.0.1:1/seed/%s/samples_gradient_%d.png", id, it)})
	}
	for n := 1; n <= 3; n++ {
		add(map[string]any{"type": "log", "level": "info", "worker": "seed", "msg": fmt.Sprintf("flows console line %d of 3", n)})
	}
	r := e.Do(t, "events.add_batch", strings.Join(lines, "\n"), func(h http.Header) {
		h.Set("Authorization", "Bearer "+e.Token)
		h.Set("Content-Type", "application/json-lines")
	})
	r.OK(t)
	e.Call(t, "tasks.add_or_update_artifacts", map[string]any{"task": id, "force": true, "artifacts": []map[string]any{
		{"key": "summary", "type": "JSON", "mode": "output", "uri": "http://127.0.0.1:1/seed/summary.json"},
		{"key": "notes", "type": "custom", "mode": "output", "uri": "http://127.0.0.1:1/seed/notes.txt"},
	}}).OK(t)
	return id
}

// outputModel attaches a ready output model to a task.
func outputModel(t *testing.T, e *testenv.Env, task, project string) string {
	t.Helper()
	id := e.Call(t, "models.create", map[string]any{"name": "flows model", "uri": "http://127.0.0.1:1/seed/weights.bin",
		"task": task, "project": project, "framework": "custom", "labels": map[string]int{"background": 0, "cat": 1}, "ready": true}).OK(t).Str("id")
	e.Call(t, "tasks.add_or_update_model", map[string]any{"task": task, "name": "flows model", "model": id, "type": "output"}).OK(t)
	e.Call(t, "tasks.completed", map[string]any{"task": task}).OK(t)
	return id
}
