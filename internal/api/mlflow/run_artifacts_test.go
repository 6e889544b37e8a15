package mlflow_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestRunArtifactsOnTask: files uploaded through the artifact proxy
// under a run's artifact folder are the task's ClearML artifacts (key =
// name in the folder, mode output, a file server URL that downloads the
// same bytes with the company's credentials); re-uploads replace, deletes
// remove, files outside a run's folder and another company's calls touch
// no task.
func TestRunArtifactsOnTask(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		e := c.e
		fsrv := httptest.NewServer(e.App.FilesHandler)
		defer fsrv.Close()
		exp := c.experiment(t, "artifacts-on-task")
		run := c.run(t, exp, nil)
		root := exp + "/" + run + "/artifacts"
		put := func(cl *client, p, body string) int {
			status, _, _ := cl.raw(t, "PUT", proxy+p, []byte(body))
			return status
		}
		for p, body := range map[string]string{"model.pkl": "v1", "plots/loss curve.png": "png", "plots/roc.png": "roc"} {
			if s := put(c, root+"/"+p, body); s != 200 {
				t.Fatalf("upload %s: %d", p, s)
			}
		}
		put(c, root+"/model.pkl", "v2") // replaces
		put(c, exp+"/models/m-x/artifacts/MLmodel", "not a run's")
		arts := func() map[string]map[string]any {
			task := e.Call(t, "tasks.get_by_id", map[string]any{"task": run}).OK(t)
			out := map[string]map[string]any{}
			l, _ := testenv.Get(task.Data, "task.execution.artifacts").([]any)
			for _, a := range l {
				m := a.(map[string]any)
				out[m["key"].(string)] = m
			}
			return out
		}
		got := arts()
		if len(got) != 3 {
			t.Fatalf("task artifacts: %v", got)
		}
		for name, want := range map[string]string{"model.pkl": "v2", "plots/loss curve.png": "png", "plots/roc.png": "roc"} {
			a := got[name]
			if a == nil || a["type"] != "custom" || a["mode"] != "output" || a["content_size"] != float64(len(want)) {
				t.Fatalf("artifact %s: %v", name, a)
			}
			u, err := url.Parse(a["uri"].(string))
			if err != nil || u.Path != "/mlflow/"+root+"/"+name {
				t.Fatalf("artifact %s uri %v", name, a["uri"])
			}
			req, _ := http.NewRequest("GET", fsrv.URL+u.EscapedPath(), nil)
			req.Header.Set("Authorization", "Bearer "+e.Token)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || string(body) != want {
				t.Fatalf("download %s through the file server: %d %q", name, resp.StatusCode, body)
			}
		}
		if ct := got["plots/roc.png"]["type_data"].(map[string]any)["content_type"]; ct != "image/png" {
			t.Fatalf("content type %v", ct)
		}
		// another company cannot write into the run's folder or its task
		o := c.as(otherUser)
		put(o, root+"/intruder.txt", "x")
		if _, has := arts()["intruder.txt"]; has {
			t.Fatalf("another company's upload became an artifact of the task")
		}
		// deleting a folder drops its artifacts, the rest stay
		if s, _, _ := c.raw(t, "DELETE", proxy+root+"/plots", nil); s != 200 {
			t.Fatalf("delete folder: %d", s)
		}
		got = arts()
		if len(got) != 1 || got["model.pkl"] == nil {
			t.Fatalf("after the delete: %v", got)
		}
		// the artifact shows after the run finished, too
		c.post(t, "runs/update", map[string]any{"run_id": run, "status": "FINISHED"}).ok(t)
		put(c, root+"/late.txt", "late")
		if arts()["late.txt"] == nil {
			t.Fatalf("an upload after the run finished is not on the task")
		}
	})
}
