package importer_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

type obj = map[string]any

// source is a Trove to import from, with its file server served.
type source struct {
	*testenv.Env
	// Files is the base URL of its file server.
	Files string
}

func newSource(t *testing.T) *source {
	t.Helper()
	e := testenv.New(t, "sqlite")
	srv := httptest.NewServer(e.App.FilesHandler)
	t.Cleanup(srv.Close)
	return &source{Env: e, Files: srv.URL}
}

// upload stores a file on the source's file server as the SDK does (one
// multipart part whose field name is the path) and returns its URL.
func (s *source) upload(t *testing.T, path string, content []byte) string {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	w, _ := mw.CreateFormFile(path, path)
	_, _ = w.Write(content)
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, s.Files+"/", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+s.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if b, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK {
		t.Fatalf("upload %s: %d %s", path, resp.StatusCode, b)
	}
	return s.Files + "/" + path
}

// fixture is what populate made.
type fixture struct {
	tasks, models []string
	// files maps the source URLs of stored files to their content.
	files map[string][]byte
}

// populate reports data the way the SDK does: projects, a queue, tasks
// with hyperparameters, configuration, artifacts, output models, events
// of every type (debug images and artifacts on the file server), tasks in
// several states and one waiting in the queue.
func (s *source) populate(t *testing.T) *fixture {
	t.Helper()
	fx := &fixture{files: map[string][]byte{}}
	proj := s.Call(t, "projects.create", obj{"name": "imp", "description": "imported project", "tags": []string{"a"},
		"default_output_destination": s.Files + "/imp"}).OK(t).Str("id")
	sub := s.Call(t, "projects.create", obj{"name": "imp/sub", "system_tags": []string{"hidden"}}).OK(t).Str("id")
	queue := s.Call(t, "queues.create", obj{"name": "imp-queue", "tags": []string{"q"}}).OK(t).Str("id")
	for i := 0; i < 3; i++ {
		p := proj
		if i == 2 {
			p = sub
		}
		id := s.Call(t, "tasks.create", obj{"name": fmt.Sprintf("train-%d", i), "type": "training", "project": p,
			"tags": []string{"t"}, "comment": "c", "script": obj{"repository": "https://example.com/r.git", "entry_point": "train.py",
				"requirements": obj{"pip": "numpy==1.26"}}}).OK(t).Str("id")
		fx.tasks = append(fx.tasks, id)
		s.Call(t, "tasks.edit", obj{"task": id, "output_dest": s.Files}).OK(t)
		s.Call(t, "tasks.edit_hyper_params", obj{"task": id, "hyperparams": []obj{
			{"section": "Args", "name": "lr", "value": fmt.Sprint(0.1 * float64(i+1)), "type": "float"},
			{"section": "General", "name": "epochs", "value": "10"}}}).OK(t)
		s.Call(t, "tasks.edit_configuration", obj{"task": id, "configuration": []obj{
			{"name": "General", "value": "{\"batch\": 32}", "type": "dictionary", "description": "conf"}}}).OK(t)
		path := fmt.Sprintf("imp/train-%d.%s/artifacts/data/data.csv", i, id)
		content := []byte(fmt.Sprintf("a,b\n%d,2\n", i))
		u := s.upload(t, path, content)
		fx.files[u] = content
		s.Call(t, "tasks.add_or_update_artifacts", obj{"task": id, "artifacts": []obj{
			{"key": "data", "type": "custom", "mode": "output", "uri": u, "content_size": len(content), "hash": "h", "timestamp": 1700000000},
			{"key": "elsewhere", "type": "custom", "mode": "output", "uri": "s3://bucket/x.bin"}}}).OK(t)
		s.events(t, fx, id, i)
	}

	weights := []byte("model weights")
	mu := s.upload(t, "imp/train-0."+fx.tasks[0]+"/models/model.pt", weights)
	fx.files[mu] = weights
	model := s.Call(t, "models.create", obj{"name": "imp-model", "uri": mu, "project": proj, "task": fx.tasks[0],
		"framework": "PyTorch", "labels": obj{"cat": 1}, "design": obj{"design": "net"}}).OK(t).Str("id")
	s.Call(t, "models.add_or_update_metadata", obj{"model": model, "metadata": []obj{{"key": "k", "type": "str", "value": "v"}}}).OK(t)
	s.Call(t, "tasks.add_or_update_model", obj{"task": fx.tasks[1], "name": "in", "model": model, "type": "input"}).OK(t)
	s.batch(t, []obj{{"type": "training_stats_scalar", "model_event": true, "task": model, "metric": "m", "variant": "v", "iter": 1, "value": 2.5, "timestamp": 1700000000000}})
	fx.models = append(fx.models, model)
	s.Call(t, "tasks.started", obj{"task": fx.tasks[0]}).OK(t)
	s.Call(t, "tasks.completed", obj{"task": fx.tasks[0]}).OK(t)
	s.Call(t, "tasks.publish", obj{"task": fx.tasks[0]}).OK(t)
	s.Call(t, "tasks.started", obj{"task": fx.tasks[1]}).OK(t)
	s.Call(t, "tasks.failed", obj{"task": fx.tasks[1], "status_reason": "boom"}).OK(t)
	s.Call(t, "tasks.enqueue", obj{"task": fx.tasks[2], "queue": queue}).OK(t)
	return fx
}

// events reports scalars, logs, a plot and a debug image for a task.
func (s *source) events(t *testing.T, fx *fixture, task string, n int) {
	t.Helper()
	var evs []obj
	for it := 0; it < 30; it++ {
		ts := 1700000000000 + int64(it)*1000
		evs = append(evs,
			obj{"type": "training_stats_scalar", "task": task, "metric": "loss", "variant": "train", "iter": it, "value": 1.0 / float64(it+1), "timestamp": ts},
			obj{"type": "training_stats_scalar", "task": task, "metric": "acc", "variant": "val", "iter": it, "value": float64(it) / 30, "timestamp": ts},
			obj{"type": "log", "task": task, "msg": fmt.Sprintf("epoch %d", it), "level": "info", "iter": it, "timestamp": ts})
	}
	img := []byte(fmt.Sprintf("png bytes %d", n))
	u := s.upload(t, fmt.Sprintf("imp/train-%d.%s/metrics/img/v/img_v_00000003.png", n, task), img)
	fx.files[u] = img
	evs = append(evs,
		obj{"type": "plot", "task": task, "metric": "p", "variant": "v", "iter": 3, "plot_str": `{"data": [{"x": [1, 2], "y": [3, 4]}], "layout": {"title": "p"}}`, "timestamp": 1700000100000},
		obj{"type": "training_debug_image", "task": task, "metric": "img", "variant": "v", "iter": 3, "key": "k", "url": u, "timestamp": 1700000100000},
		obj{"type": "training_stats_vector", "task": task, "metric": "vec", "variant": "v", "iter": 1, "values": []float64{1, 2, 3}, "timestamp": 1700000100000})
	s.batch(t, evs)
}

// batch posts events as one JSON-lines events.add_batch from a worker.
func (s *source) batch(t *testing.T, evs []obj) {
	t.Helper()
	lines := make([]string, len(evs))
	for i, ev := range evs {
		b, _ := json.Marshal(ev)
		lines[i] = string(b)
	}
	s.Do(t, "events.add_batch", strings.Join(lines, "\n"), func(h http.Header) {
		h.Set("Authorization", "Bearer "+s.Token)
		h.Set("Content-Type", "application/json-lines")
		h.Set("X-ClearML-Worker", "imp-worker")
	}).OK(t)
}
