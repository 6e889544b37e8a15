package mlflow_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/testenv"
)

// raw sends one artifact proxy request and returns the status, headers
// and body.
func (c *client) raw(t testing.TB, method, path string, body []byte) (int, http.Header, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, c.e.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if c.auth != "" {
		req.Header.Set("Authorization", c.auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, out
}

const proxy = "/api/2.0/mlflow-artifacts/artifacts/"

// listing decodes a list answer into path -> size (-1 for a folder).
func listing(t testing.TB, body []byte) map[string]int64 {
	t.Helper()
	var ans struct {
		Files []struct {
			Path     string `json:"path"`
			IsDir    bool   `json:"is_dir"`
			FileSize *int64 `json:"file_size"`
		} `json:"files"`
	}
	if err := json.Unmarshal(body, &ans); err != nil {
		t.Fatalf("list answer: %v: %s", err, body)
	}
	out := map[string]int64{}
	for _, f := range ans.Files {
		switch {
		case f.IsDir:
			out[f.Path] = -1
		case f.FileSize != nil:
			out[f.Path] = *f.FileSize
		default:
			t.Fatalf("a file without its size: %s", body)
		}
	}
	return out
}

// TestArtifactProxyRoundTrip: a run's artifact_uri names the proxy;
// uploads are stored and read back byte for byte, listed by folder, sent
// as attachments with the file server's headers, and deleted file by
// file or by folder.
func TestArtifactProxyRoundTrip(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "artifacts-exp")
		run := c.run(t, exp, nil)
		got := c.get(t, "runs/get", map[string][]string{"run_id": {run}}).ok(t)
		uri := str(got, "run", "info", "artifact_uri")
		root := exp + "/" + run + "/artifacts"
		if uri != "mlflow-artifacts:/"+root {
			t.Fatalf("artifact_uri %q", uri)
		}
		bin := make([]byte, 70000)
		for i := range bin {
			bin[i] = byte(i * 7)
		}
		files := map[string][]byte{
			"model.bin":          bin,
			"empty.txt":          {},
			"dir/page.html":      []byte("<script>alert(1)</script>"),
			"dir/sub/deep.json":  []byte(`{"a":1}`),
			"name with space.md": []byte("# title\n"),
		}
		for p, b := range files {
			status, _, body := c.raw(t, "PUT", proxy+root+"/"+p, b)
			if status != 200 || string(body) != "{}" {
				t.Fatalf("upload %s: %d %s", p, status, body)
			}
		}
		for p, want := range files {
			status, h, body := c.raw(t, "GET", proxy+root+"/"+p, nil)
			if status != 200 || !bytes.Equal(body, want) {
				t.Fatalf("download %s: %d, %d bytes, want %d", p, status, len(body), len(want))
			}
			if !strings.HasPrefix(h.Get("Content-Disposition"), "attachment") || h.Get("X-Content-Type-Options") != "nosniff" ||
				h.Get("Content-Security-Policy") != "sandbox" {
				t.Fatalf("download %s headers: %v", p, h)
			}
		}
		cases := []struct {
			dir  string
			want map[string]int64
		}{
			{root, map[string]int64{"model.bin": 70000, "empty.txt": 0, "dir": -1, "name with space.md": 8}},
			{root + "/dir", map[string]int64{"page.html": 25, "sub": -1}},
			{root + "/dir/sub", map[string]int64{"deep.json": 7}},
			{root + "/model.bin", map[string]int64{}},
			{root + "/nothing", map[string]int64{}},
		}
		for _, tc := range cases {
			status, _, body := c.raw(t, "GET", "/api/2.0/mlflow-artifacts/artifacts?path="+strings.ReplaceAll(tc.dir, " ", "%20"), nil)
			if status != 200 {
				t.Fatalf("list %s: %d %s", tc.dir, status, body)
			}
			got := listing(t, body)
			if len(got) != len(tc.want) {
				t.Fatalf("list %s: %v, want %v", tc.dir, got, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Fatalf("list %s: %v, want %v", tc.dir, got, tc.want)
				}
			}
		}
		// overwrite keeps one entry with the new size
		if status, _, body := c.raw(t, "PUT", proxy+root+"/empty.txt", []byte("now")); status != 200 {
			t.Fatalf("overwrite: %d %s", status, body)
		}
		_, _, body := c.raw(t, "GET", "/api/2.0/mlflow-artifacts/artifacts?path="+root, nil)
		if got := listing(t, body); got["empty.txt"] != 3 || len(got) != 4 {
			t.Fatalf("after overwrite: %v", got)
		}
		// delete a folder, then a file
		if status, _, body := c.raw(t, "DELETE", proxy+root+"/dir", nil); status != 200 {
			t.Fatalf("delete folder: %d %s", status, body)
		}
		if status, _, _ := c.raw(t, "GET", proxy+root+"/dir/sub/deep.json", nil); status != 404 {
			t.Fatalf("a deleted file answers %d", status)
		}
		if status, _, body := c.raw(t, "DELETE", proxy+root+"/model.bin", nil); status != 200 {
			t.Fatalf("delete file: %d %s", status, body)
		}
		_, _, body = c.raw(t, "GET", "/api/2.0/mlflow-artifacts/artifacts?path="+root, nil)
		if got := listing(t, body); len(got) != 2 || got["empty.txt"] != 3 {
			t.Fatalf("after deletes: %v", got)
		}
		status, _, body := c.raw(t, "DELETE", proxy+root+"/model.bin", nil)
		if status != 404 || !strings.Contains(string(body), "RESOURCE_DOES_NOT_EXIST") {
			t.Fatalf("deleting again: %d %s", status, body)
		}
	})
}

// TestArtifactProxyRefusals: traversal and absolute paths, read-only
// roles writing, another company reading, unknown proxy paths and
// methods, each in MLflow's envelope.
func TestArtifactProxyRefusals(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		if status, _, body := c.raw(t, "PUT", proxy+"1/r/artifacts/a.txt", []byte("secret")); status != 200 {
			t.Fatalf("upload: %d %s", status, body)
		}
		cases := []struct {
			name   string
			who    *client
			method string
			path   string
			status int
			code   string
		}{
			{"dot-dot", c, "GET", proxy + "1/r/../../../etc/passwd", 400, "INVALID_PARAMETER_VALUE"},
			{"encoded dot-dot", c, "PUT", proxy + "1/%2e%2e/%2e%2e/x", 400, "INVALID_PARAMETER_VALUE"},
			{"absolute", c, "GET", proxy + "/etc/passwd", 400, "INVALID_PARAMETER_VALUE"},
			{"list dot-dot", c, "GET", "/api/2.0/mlflow-artifacts/artifacts?path=1/../..", 400, "INVALID_PARAMETER_VALUE"},
			{"NUL", c, "GET", proxy + "1/a%00b", 400, "INVALID_PARAMETER_VALUE"},
			{"guest uploads", c.as(guestUser), "PUT", proxy + "1/r/artifacts/b.txt", 403, "PERMISSION_DENIED"},
			{"guest deletes", c.as(guestUser), "DELETE", proxy + "1/r/artifacts/a.txt", 403, "PERMISSION_DENIED"},
			{"other company reads", c.as(otherUser), "GET", proxy + "1/r/artifacts/a.txt", 404, "RESOURCE_DOES_NOT_EXIST"},
			{"no credentials", &client{e: c.e}, "GET", proxy + "1/r/artifacts/a.txt", 401, "UNAUTHENTICATED"},
			{"multipart upload", c, "POST", "/api/2.0/mlflow-artifacts/mpu/create/1/x", 404, "ENDPOINT_NOT_FOUND"},
			{"post to a file", c, "POST", proxy + "1/r/artifacts/a.txt", 405, "BAD_REQUEST"},
		}
		for _, tc := range cases {
			status, _, body := tc.who.raw(t, tc.method, tc.path, []byte("x"))
			var env map[string]any
			if err := json.Unmarshal(body, &env); err != nil || status != tc.status || env["error_code"] != tc.code {
				t.Fatalf("%s: %d %s, want %d %s", tc.name, status, body, tc.status, tc.code)
			}
		}
		// the guest reads what the company wrote
		status, _, body := c.as(guestUser).raw(t, "GET", proxy+"1/r/artifacts/a.txt", nil)
		if status != 200 || string(body) != "secret" {
			t.Fatalf("guest download: %d %s", status, body)
		}
	})
}

// TestArtifactProxyUploadLimit: an upload over files.max_upload_mb is
// refused with 413 and stores nothing.
func TestArtifactProxyUploadLimit(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		c := &client{e: e, auth: "Bearer " + e.Token}
		status, _, body := c.raw(t, "PUT", proxy+"1/r/artifacts/big.bin", make([]byte, 1<<20+1))
		if status != 413 || !strings.Contains(string(body), "limit of 1 MB") {
			t.Fatalf("too large: %d %s", status, body)
		}
		if status, _, _ := c.raw(t, "GET", proxy+"1/r/artifacts/big.bin", nil); status != 404 {
			t.Fatalf("a refused upload was stored: %d", status)
		}
		_, _, body = c.raw(t, "GET", "/api/2.0/mlflow-artifacts/artifacts?path=1/r/artifacts", nil)
		if len(listing(t, body)) != 0 {
			t.Fatalf("a refused upload is listed: %s", body)
		}
		if status, _, body := c.raw(t, "PUT", proxy+"1/r/artifacts/fits.bin", make([]byte, 1<<20)); status != 200 {
			t.Fatalf("an upload at the limit: %d %s", status, body)
		}
	}, func(c *config.Config) { c.Files.MaxUploadMB = 1 })
}

// TestRunArtifactHandlers: the UI's upload-artifact and get-artifact
// (ajax and root paths) read and write a run's files; model-versions/
// get-artifact reads a version's; missing parameters, traversal and
// read-only roles are refused.
func TestRunArtifactHandlers(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		run := c.run(t, c.experiment(t, "ui-artifacts"), nil)
		up := "/ajax-api/2.0/mlflow/upload-artifact?run_uuid=" + run
		if status, _, body := c.raw(t, "POST", up+"&path=dir/hello.txt", []byte("hello world")); status != 200 {
			t.Fatalf("upload-artifact: %d %s", status, body)
		}
		for _, p := range []string{"/get-artifact", "/ajax-api/2.0/mlflow/get-artifact"} {
			status, h, body := c.raw(t, "GET", p+"?run_uuid="+run+"&path=dir/hello.txt", nil)
			if status != 200 || string(body) != "hello world" || !strings.HasPrefix(h.Get("Content-Disposition"), "attachment") {
				t.Fatalf("%s: %d %s", p, status, body)
			}
		}
		c.post(t, "registered-models/create", map[string]any{"name": "ui-model"}).ok(t)
		got := c.get(t, "runs/get", map[string][]string{"run_id": {run}}).ok(t)
		c.post(t, "model-versions/create", map[string]any{"name": "ui-model", "source": str(got, "run", "info", "artifact_uri") + "/dir", "run_id": run}).ok(t)
		status, _, body := c.raw(t, "GET", "/model-versions/get-artifact?name=ui-model&version=1&path=hello.txt", nil)
		if status != 200 || string(body) != "hello world" {
			t.Fatalf("model-versions/get-artifact: %d %s", status, body)
		}
		// artifacts/list answers paths from the run's artifact root
		ls := c.get(t, "artifacts/list", map[string][]string{"run_id": {run}}).ok(t)
		if str(ls, "files", 0, "path") != "dir" || at(ls, "files", 0, "is_dir") != true || str(ls, "root_uri") != str(got, "run", "info", "artifact_uri") {
			t.Fatalf("artifacts/list: %v", ls)
		}
		ls = c.get(t, "artifacts/list", map[string][]string{"run_id": {run}, "path": {"dir"}}).ok(t)
		if str(ls, "files", 0, "path") != "dir/hello.txt" || at(ls, "files", 0, "file_size") != 11.0 {
			t.Fatalf("artifacts/list dir: %v", ls)
		}
		c.get(t, "artifacts/list", map[string][]string{"run_id": {run}, "path": {"../path"}}).fails(t, 400, "INVALID_PARAMETER_VALUE", "Invalid path")
		cases := []struct {
			name, method, path string
			who                *client
			body               []byte
			status             int
			part               string
		}{
			{"no run", "POST", "/ajax-api/2.0/mlflow/upload-artifact", c, []byte("x"), 400, "Request must specify run_uuid."},
			{"no path", "POST", up, c, []byte("x"), 400, "Request must specify path."},
			{"traversal", "POST", up + "&path=../test.txt", c, []byte("x"), 400, "Invalid path"},
			{"no data", "POST", up + "&path=a.txt", c, nil, 400, "Request must specify data."},
			{"guest", "POST", up + "&path=a.txt", c.as(guestUser), []byte("x"), 403, "PERMISSION_DENIED"},
			{"unknown run", "GET", "/get-artifact?run_uuid=nope&path=a.txt", c, nil, 404, "nope"},
			{"missing file", "GET", "/get-artifact?run_uuid=" + run + "&path=none.txt", c, nil, 404, "none.txt"},
			{"bad version", "GET", "/model-versions/get-artifact?name=ui-model&version=x&path=a", c, nil, 400, "version"},
			{"get-artifact traversal", "GET", "/get-artifact?run_id=" + run + "&path=../path", c, nil, 400, `"message":"Invalid path"`},
			{"version traversal first", "GET", "//model-versions/get-artifact?name=none&version=1&path=../path", c, nil, 400, `"message":"Invalid path"`},
		}
		for _, tc := range cases {
			status, _, body := tc.who.raw(t, tc.method, tc.path, tc.body)
			if status != tc.status || !strings.Contains(string(body), tc.part) {
				t.Fatalf("%s: %d %s, want %d %q", tc.name, status, body, tc.status, tc.part)
			}
		}
	})
}
