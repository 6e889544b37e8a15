package app_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// upload stores body at path on the file server and returns the URL the
// API would record (under the server's public files URL).
func upload(t *testing.T, e *testenv.Env, files *httptest.Server, path string, body []byte) string {
	t.Helper()
	if status, _, msg := uploadStatus(t, e, files, path, body); status != 200 {
		t.Fatalf("upload %s: %d %s", path, status, msg)
	}
	return e.App.Deps.FilesURL + path
}

func stored(t *testing.T, e *testenv.Env, files *httptest.Server, path string) bool {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, files.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+e.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode == 200
}

// TestDeletingRecordsFreesFiles checks that deleting tasks and models
// removes the files the file server stores for them, unless the caller
// says delete_external_artifacts: false.
func TestDeletingRecordsFreesFiles(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		files := httptest.NewServer(e.App.FilesHandler)
		defer files.Close()
		newTask := func(name, artifactPath string) string {
			url := upload(t, e, files, artifactPath, []byte("artifact bytes"))
			id := e.Call(t, "tasks.create", map[string]any{"name": name, "type": "training"}).OK(t).Str("id")
			e.Call(t, "tasks.add_or_update_artifacts", map[string]any{"task": id, "artifacts": []map[string]any{
				{"key": "data", "type": "custom", "mode": "output", "uri": url}}}).OK(t)
			return id
		}
		cases := []struct {
			name, call string
			body       func(id string) map[string]any
			kept       bool
		}{
			{"tasks.delete", "tasks.delete", func(id string) map[string]any { return map[string]any{"task": id, "force": true} }, false},
			{"tasks.delete keeping files", "tasks.delete", func(id string) map[string]any {
				return map[string]any{"task": id, "force": true, "delete_external_artifacts": false}
			}, true},
			{"tasks.reset", "tasks.reset", func(id string) map[string]any { return map[string]any{"task": id, "force": true} }, false},
			{"tasks.delete_many", "tasks.delete_many", func(id string) map[string]any {
				return map[string]any{"ids": []string{id}, "force": true}
			}, false},
		}
		for i, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				path := "/proj/task" + string(rune('a'+i)) + "/artifacts/data.txt"
				id := newTask("file task "+tc.name, path)
				if !stored(t, e, files, path) {
					t.Fatal("uploaded file not served")
				}
				e.Call(t, tc.call, tc.body(id)).OK(t)
				if got := stored(t, e, files, path); got != tc.kept {
					t.Fatalf("file kept = %v, want %v", got, tc.kept)
				}
			})
		}
		t.Run("models.delete", func(t *testing.T) {
			url := upload(t, e, files, "/proj/models/weights.bin", []byte("weights"))
			id := e.Call(t, "models.create", map[string]any{"name": "model with file", "uri": url}).OK(t).Str("id")
			r := e.Call(t, "models.delete", map[string]any{"model": id}).OK(t)
			if r.Str("url") != url {
				t.Fatalf("delete answers the url: %s", r.Raw)
			}
			if stored(t, e, files, "/proj/models/weights.bin") {
				t.Fatal("model file not deleted")
			}
		})
	})
}
