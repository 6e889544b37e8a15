package mlflow_test

import (
	"net/url"
	"strings"
	"testing"
)

// TestLoggedModels: MLflow 3's logged models are Trove models: create in
// an experiment (pending), upload their files through the proxy, list
// them, finalize, tags and params, search, and delete; a logged model
// shows through the ClearML API.
func TestLoggedModels(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "logged-models-exp")
		run := c.run(t, exp, nil)
		m := c.post(t, "logged-models", map[string]any{"experiment_id": exp, "name": "sk", "model_type": "sklearn",
			"source_run_id": run, "params": []map[string]string{{"key": "alpha", "value": "0.1"}}}).ok(t)
		id := str(m, "model", "info", "model_id")
		loc := str(m, "model", "info", "artifact_uri")
		if !strings.HasPrefix(id, "m-") || loc != "mlflow-artifacts:/"+exp+"/models/"+id+"/artifacts" ||
			str(m, "model", "info", "status") != "LOGGED_MODEL_PENDING" || kv(at(m, "model", "data", "params"))["alpha"] != "0.1" {
			t.Fatalf("create: %v", m)
		}
		root := strings.TrimPrefix(loc, "mlflow-artifacts:/")
		for _, p := range []string{"MLmodel", "model.pkl", "env/conda.yaml"} {
			if status, _, body := c.raw(t, "PUT", proxy+root+"/"+p, []byte(p)); status != 200 {
				t.Fatalf("upload %s: %d %s", p, status, body)
			}
		}
		ls := c.get(t, "logged-models/"+id+"/artifacts/directories", nil).ok(t)
		if len(at(ls, "files").([]any)) != 3 || str(ls, "root_uri") != loc {
			t.Fatalf("list: %v", ls)
		}
		ls = c.get(t, "logged-models/"+id+"/artifacts/directories", url.Values{"artifact_directory_path": {"env"}}).ok(t)
		if str(ls, "files", 0, "path") != "env/conda.yaml" {
			t.Fatalf("list env: %v", ls)
		}
		c.do(t, "PATCH", "logged-models/"+id, map[string]any{"status": "BOGUS"}, nil).fails(t, 400, "INVALID_PARAMETER_VALUE", "status")
		f := c.do(t, "PATCH", "logged-models/"+id, map[string]any{"status": "LOGGED_MODEL_READY"}, nil).ok(t)
		if str(f, "model", "info", "status") != "LOGGED_MODEL_READY" {
			t.Fatalf("finalize: %v", f)
		}
		c.do(t, "PATCH", "logged-models/"+id+"/tags", map[string]any{"tags": []map[string]string{{"key": "a/b", "value": "1"}}}, nil).ok(t)
		c.post(t, "logged-models/"+id+"/params", map[string]any{"params": []map[string]string{{"key": "beta", "value": "2"}}}).ok(t)
		g := c.get(t, "logged-models/"+id, nil).ok(t)
		if kv(at(g, "model", "info", "tags"))["a/b"] != "1" || kv(at(g, "model", "data", "params"))["beta"] != "2" {
			t.Fatalf("get: %v", g)
		}
		c.do(t, "DELETE", "logged-models/"+id+"/tags/a/b", nil, nil).ok(t)
		c.do(t, "DELETE", "logged-models/"+id+"/tags/a/b", nil, nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "a/b")
		c.post(t, "runs/outputs", map[string]any{"run_id": run, "models": []map[string]any{{"model_id": id, "step": 0}}}).ok(t)
		// a second model, then searches
		m2 := c.post(t, "logged-models", map[string]any{"experiment_id": exp, "name": "other"}).ok(t)
		id2 := str(m2, "model", "info", "model_id")
		for _, tc := range []struct {
			filter string
			want   []string
		}{
			{"", []string{id2, id}},
			{"source_run_id = '" + run + "'", []string{id}},
			{"name = 'other'", []string{id2}},
			{"status = 'LOGGED_MODEL_READY'", []string{id}},
		} {
			res := c.post(t, "logged-models/search", map[string]any{"experiment_ids": []string{exp}, "filter": tc.filter}).ok(t)
			list, _ := at(res, "models").([]any)
			if len(list) != len(tc.want) {
				t.Fatalf("search %q: %v", tc.filter, res)
			}
			for i, w := range tc.want {
				if str(list[i], "info", "model_id") != w {
					t.Fatalf("search %q: %v", tc.filter, res)
				}
			}
		}
		asc := c.post(t, "logged-models/search", map[string]any{"experiment_ids": []string{exp},
			"order_by": []map[string]any{{"field_name": "name", "ascending": false}}}).ok(t)
		if str(asc, "models", 0, "info", "name") != "sk" {
			t.Fatalf("order by name desc: %v", asc)
		}
		// the ClearML API sees the model, in the experiment's project, made by the run
		cm := c.e.Call(t, "models.get_by_id", map[string]any{"model": id}).OK(t)
		if at(cm.Data, "model", "task") != run || at(cm.Data, "model", "ready") != true || at(cm.Data, "model", "uri") != loc {
			t.Fatalf("models.get_by_id: %s", cm.Raw)
		}
		// refusals
		c.as(guestUser).post(t, "logged-models", map[string]any{"experiment_id": exp}).fails(t, 403, "PERMISSION_DENIED", "")
		c.as(otherUser).get(t, "logged-models/"+id, nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", id)
		c.post(t, "logged-models", map[string]any{"experiment_id": "nope"}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "nope")
		// MLflow keeps a source_run_id it does not know; the model has no task then
		unknown := str(c.post(t, "logged-models", map[string]any{"experiment_id": exp, "source_run_id": "nope"}).ok(t), "model", "info", "model_id")
		if got := c.e.Call(t, "models.get_by_id", map[string]any{"model": unknown}).OK(t); at(got.Data, "model", "task") != nil {
			t.Fatalf("a model of an unknown run has a task: %s", got.Raw)
		}
		// a registry version made from the model is listed in its tags
		c.post(t, "registered-models/create", map[string]any{"name": "from-logged"}).ok(t)
		for i := 0; i < 2; i++ {
			c.post(t, "model-versions/create", map[string]any{"name": "from-logged", "source": "models:/" + id, "model_id": id}).ok(t)
		}
		g = c.get(t, "logged-models/"+id, nil).ok(t)
		if tag := kv(at(g, "model", "info", "tags"))["mlflow.modelVersions"]; tag != `[{"name": "from-logged", "version": 1}, {"name": "from-logged", "version": 2}]` {
			t.Fatalf("mlflow.modelVersions: %q", tag)
		}
		// one file of the model, as an attachment
		status, h, body := c.raw(t, "GET", "/ajax-api/2.0/mlflow/logged-models/"+id+"/artifacts/files?artifact_file_path=MLmodel", nil)
		if status != 200 || string(body) != "MLmodel" || !strings.HasPrefix(h.Get("Content-Disposition"), "attachment") {
			t.Fatalf("model file: %d %s %v", status, body, h)
		}
		status, _, body = c.raw(t, "GET", "/ajax-api/2.0/mlflow/logged-models/"+id+"/artifacts/files?artifact_file_path=../../x", nil)
		if status != 400 || !strings.Contains(string(body), "INVALID_PARAMETER_VALUE") {
			t.Fatalf("model file traversal: %d %s", status, body)
		}
		c.post(t, "logged-models/search", map[string]any{"experiment_ids": []string{exp}, "filter": "x = 'y'"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "'x'")
		c.do(t, "DELETE", "logged-models/"+id, nil, nil).ok(t)
		c.get(t, "logged-models/"+id, nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", id)
		c.get(t, "logged-models/"+id+"/nothing", nil).fails(t, 404, "ENDPOINT_NOT_FOUND", "")
	})
}
