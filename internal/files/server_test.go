package files_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/testenv"
)

// The path the SDK uploads an artifact to: leading slash, spaces and
// non-ASCII as they are; its download URL quotes each segment.
const (
	sdkPath = "/e2e proj/train ü.0123abcd/artifacts/e2e_dict/e2e dict.json"
	sdkURL  = "/e2e%20proj/train%20%C3%BC.0123abcd/artifacts/e2e_dict/e2e%20dict.json"
)

func TestRoundTrip(t *testing.T) {
	eachEnv(t, func(t *testing.T, e *filesEnv) {
		content := []byte(`{"a": 1, "text": "hello files"}`)
		r := e.upload(t, sdkPath, e.Token, content)
		var stored []string
		if r.Status != 200 || json.Unmarshal(r.Body, &stored) != nil || !reflect.DeepEqual(stored, []string{strings.TrimPrefix(sdkPath, "/")}) {
			t.Fatalf("upload: %d %s", r.Status, r.Body)
		}
		if !r.Close {
			t.Errorf("upload reply keeps the connection alive")
		}

		cases := []struct {
			name   string
			method string
			path   string
			token  string
			hdr    map[string]string
			status int
			body   string
			header map[string]string
		}{
			{name: "get quoted URL", method: "GET", path: sdkURL, token: e.Token, status: 200, body: string(content),
				header: map[string]string{"Content-Length": "31", "Content-Type": "application/json", "Accept-Ranges": "bytes"}},
			{name: "get with a range", method: "GET", path: sdkURL, token: e.Token, hdr: map[string]string{"Range": "bytes=9-13"},
				status: 206, body: `"text`, header: map[string]string{"Content-Range": "bytes 9-13/31", "Content-Length": "5"}},
			{name: "get a suffix range", method: "GET", path: sdkURL, token: e.Token, hdr: map[string]string{"Range": "bytes=-3"}, status: 206, body: `s"}`},
			{name: "unsatisfiable range", method: "GET", path: sdkURL, token: e.Token, hdr: map[string]string{"Range": "bytes=100-200"}, status: 416},
			{name: "head", method: "HEAD", path: sdkURL, token: e.Token, status: 200, body: "", header: map[string]string{"Content-Length": "31"}},
			{name: "basic auth", method: "GET", path: sdkURL, hdr: map[string]string{"Authorization": basicAuth(testenv.AdminKey, testenv.AdminSecret)}, status: 200, body: string(content)},
			{name: "session cookie", method: "GET", path: sdkURL, hdr: map[string]string{"Cookie": rpc.CookieName + "=" + e.Token}, status: 200, body: string(content)},
			{name: "as attachment", method: "GET", path: sdkURL + "?download", token: e.Token, status: 200,
				header: map[string]string{"Content-Disposition": `attachment; filename="e2e dict.json"`}},
			{name: "ping needs no token", method: "GET", path: "/", status: 200, body: "OK"},
			{name: "cors preflight from the web address", method: "OPTIONS", path: sdkURL, hdr: map[string]string{"Origin": "http://localhost:8080", "Access-Control-Request-Method": "GET"},
				status: 200, header: map[string]string{"Access-Control-Allow-Origin": "http://localhost:8080", "Access-Control-Allow-Credentials": "true"}},
			{name: "cors preflight from a foreign origin", method: "OPTIONS", path: sdkURL, hdr: map[string]string{"Origin": "http://ui.example", "Access-Control-Request-Method": "GET"},
				status: 200, header: map[string]string{"Access-Control-Allow-Origin": "", "Access-Control-Allow-Credentials": ""}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r := e.do(t, c.method, c.path, c.token, nil, c.hdr)
				if r.Status != c.status {
					t.Fatalf("status %d, want %d: %s", r.Status, c.status, r.Body)
				}
				if !r.Close {
					t.Errorf("the reply keeps the connection alive")
				}
				if c.body != "" || c.method == "HEAD" {
					if string(r.Body) != c.body {
						t.Fatalf("body %q, want %q", r.Body, c.body)
					}
				}
				for k, v := range c.header {
					if got := r.Header.Get(k); got != v {
						t.Errorf("header %s = %q, want %q", k, got, v)
					}
				}
			})
		}

		// Overwrite, then delete: the file goes, and so do the directories
		// it leaves empty.
		e.mustUpload(t, sdkPath, []byte("v2"))
		if r := e.do(t, "GET", sdkURL, e.Token, nil, nil); string(r.Body) != "v2" {
			t.Fatalf("after overwrite: %q", r.Body)
		}
		e.mustUpload(t, "/e2e proj/keep.txt", []byte("keep"))
		r = e.do(t, "DELETE", sdkURL, e.Token, nil, nil)
		if r.Status != 200 || string(r.Body) != `"e2e proj/train ü.0123abcd/artifacts/e2e_dict/e2e dict.json"` {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		if r := e.do(t, "GET", sdkURL, e.Token, nil, nil); r.Status != 404 {
			t.Fatalf("get after delete: %d", r.Status)
		}
		if r := e.do(t, "DELETE", sdkURL, e.Token, nil, nil); r.Status != 404 {
			t.Fatalf("second delete: %d", r.Status)
		}
		if e.Dir != "" {
			if got, want := e.storedFiles(t), []string{auth.DefaultCompanyID + "/e2e proj/keep.txt"}; !reflect.DeepEqual(got, want) {
				t.Fatalf("stored after delete: %v, want %v", got, want)
			}
		}
	})
}

// TestOverwriteIsAtomic: readers racing an overwrite see one whole
// version, never a mix or a short file.
func TestOverwriteIsAtomic(t *testing.T) {
	eachEnv(t, func(t *testing.T, e *filesEnv) {
		const size = 256 << 10
		versions := [][]byte{bytes.Repeat([]byte("a"), size), bytes.Repeat([]byte("b"), size)}
		e.mustUpload(t, "/race/file.bin", versions[0])
		var wg sync.WaitGroup
		stop := make(chan struct{})
		errs := make(chan string, 100)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				r := e.do(t, "GET", "/race/file.bin", e.Token, nil, nil)
				if r.Status != 200 || len(r.Body) != size || (!bytes.Equal(r.Body, versions[0]) && !bytes.Equal(r.Body, versions[1])) {
					errs <- fmt.Sprintf("a reader saw a partial or mixed file: %d, %d bytes, %.40q", r.Status, len(r.Body), r.Body)
					return
				}
			}
		}()
		for i := range 20 {
			e.mustUpload(t, "/race/file.bin", versions[i%2])
		}
		close(stop)
		wg.Wait()
		close(errs)
		for msg := range errs {
			t.Fatal(msg)
		}
	})
}

// TestBadInput: every bad request gets a clear 4xx, stores nothing under
// a final name, leaves no spool file, and the server keeps working.
func TestBadInput(t *testing.T) {
	limit := func(c *config.Config) { c.Files.MaxUploadMB = 1 }
	eachEnv(t, func(t *testing.T, e *filesEnv) {
		e.mustUpload(t, "/mine/data.bin", []byte("company data"))
		e.mustUpload(t, "/mine/dir/inner.txt", []byte("inner"))
		if e.Dir != "" {
			outside := t.TempDir()
			if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(e.Dir, auth.DefaultCompanyID, "mine", "escape")); err != nil {
				t.Fatal(err)
			}
		}
		okBody, okType := multipartBody("/bad/ok-name.txt", []byte("x"))
		noName, _ := multipartBody("", []byte("x"))
		overLimit, _ := multipartBody("/bad/big.bin", make([]byte, 1<<20+1))
		wayOver, _ := multipartBody("/bad/huge.bin", make([]byte, 2<<20+10))
		truncated := okBody[:len(okBody)-len("--"+boundary+"--\r\n")-3]
		cutInHeaders := okBody[:40]
		multipartHdr := map[string]string{"Content-Type": okType}

		cases := []struct {
			name      string
			method    string
			path      string
			token     string // "admin", "other", "bad" or "" for none
			body      []byte
			hdr       map[string]string
			localOnly bool
			status    int
			msg       string
		}{
			{name: "upload without a token", method: "POST", path: "/", body: okBody, hdr: multipartHdr, status: 401, msg: "missing credentials"},
			{name: "upload with a bad token", method: "POST", path: "/", token: "bad", body: okBody, hdr: multipartHdr, status: 401, msg: "token"},
			{name: "upload with a wrong secret", method: "POST", path: "/", body: okBody,
				hdr: map[string]string{"Content-Type": okType, "Authorization": basicAuth(testenv.AdminKey, "wrong")}, status: 401},
			{name: "upload without a path", method: "POST", path: "/", token: "admin", body: noName, hdr: multipartHdr, status: 400, msg: "field name is the storage path"},
			{name: "upload of the root path", method: "POST", path: "/", token: "admin", body: part("/"), hdr: multipartHdr, status: 400, msg: "empty"},
			{name: "upload with ..", method: "POST", path: "/", token: "admin", body: part("/mine/../../etc/passwd"), hdr: multipartHdr, status: 400, msg: `".." is not allowed`},
			{name: "upload with an absolute path", method: "POST", path: "/", token: "admin", body: part("//etc/passwd"), hdr: multipartHdr, status: 400, msg: "absolute"},
			{name: "upload with a drive path", method: "POST", path: "/", token: "admin", body: part(`/C:\Windows\x`), hdr: multipartHdr, status: 400, msg: "absolute"},
			{name: "upload with no part", method: "POST", path: "/", token: "admin", body: []byte("--" + boundary + "--\r\n"), hdr: multipartHdr, status: 400, msg: "no file"},
			{name: "upload of an empty body", method: "POST", path: "/", token: "admin", body: nil, hdr: multipartHdr, status: 400},
			{name: "upload that is not multipart", method: "POST", path: "/", token: "admin", body: []byte(`{"a": 1}`),
				hdr: map[string]string{"Content-Type": "application/json"}, status: 400, msg: "multipart/form-data"},
			{name: "upload without a boundary", method: "POST", path: "/", token: "admin", body: okBody,
				hdr: map[string]string{"Content-Type": "multipart/form-data"}, status: 400, msg: "multipart"},
			{name: "truncated upload", method: "POST", path: "/", token: "admin", body: truncated, hdr: multipartHdr, status: 400, msg: "truncated"},
			{name: "upload cut in the part headers", method: "POST", path: "/", token: "admin", body: cutInHeaders, hdr: multipartHdr, status: 400},
			{name: "upload over the limit", method: "POST", path: "/", token: "admin", body: overLimit, hdr: multipartHdr, status: 413, msg: "limit of 1 MB"},
			{name: "upload declared far over the limit", method: "POST", path: "/", token: "admin", body: wayOver, hdr: multipartHdr, status: 413, msg: "limit of 1 MB"},
			{name: "compressed upload", method: "POST", path: "/", token: "admin", body: okBody,
				hdr: map[string]string{"Content-Type": okType, "Content-Encoding": "gzip"}, status: 415},
			{name: "upload under a file", method: "POST", path: "/", token: "admin", body: part("/mine/data.bin/x"), hdr: multipartHdr, localOnly: true, status: 409, msg: "is a file"},
			{name: "upload over a directory", method: "POST", path: "/", token: "admin", body: part("/mine/dir"), hdr: multipartHdr, localOnly: true, status: 409, msg: "directory"},
			{name: "upload through a symlink out", method: "POST", path: "/", token: "admin", body: part("/mine/escape/planted.txt"), hdr: multipartHdr, localOnly: true, status: 400, msg: "symlink"},
			{name: "put is not allowed", method: "PUT", path: "/mine/data.bin", token: "admin", body: []byte("x"), status: 405},
			{name: "download without a token", method: "GET", path: "/mine/data.bin", status: 401},
			{name: "download of another company's file", method: "GET", path: "/mine/data.bin", token: "other", status: 404},
			{name: "head of another company's file", method: "HEAD", path: "/mine/data.bin", token: "other", status: 404},
			{name: "delete of another company's file", method: "DELETE", path: "/mine/data.bin", token: "other", status: 404},
			{name: "delete without a token", method: "DELETE", path: "/mine/data.bin", status: 401},
			{name: "download of a missing file", method: "GET", path: "/mine/none.bin", token: "admin", status: 404},
			{name: "download of a directory", method: "GET", path: "/mine/dir", token: "admin", localOnly: true, status: 404},
			{name: "download with ..", method: "GET", path: "/mine/../mine/data.bin", token: "admin", status: 400, msg: `".."`},
			{name: "download with encoded ..", method: "GET", path: "/mine/%2E%2E/%2E%2E/etc/passwd", token: "admin", status: 400, msg: `".."`},
			{name: "download with an absolute path", method: "GET", path: "//etc/passwd", token: "admin", status: 400, msg: "absolute"},
			{name: "download through a symlink out", method: "GET", path: "/mine/escape/secret.txt", token: "admin", localOnly: true, status: 400, msg: "symlink"},
			{name: "delete through a symlink out", method: "DELETE", path: "/mine/escape/secret.txt", token: "admin", localOnly: true, status: 400, msg: "symlink"},
			{name: "delete with ..", method: "DELETE", path: "/mine/%2E%2E/x", token: "admin", status: 400},
		}
		for _, c := range cases {
			if c.localOnly && e.Dir == "" {
				continue
			}
			t.Run(c.name, func(t *testing.T) {
				token := map[string]string{"admin": e.Token, "other": e.Other, "bad": "not.a.token"}[c.token]
				r := e.do(t, c.method, c.path, token, c.body, c.hdr)
				if r.Status != c.status {
					t.Fatalf("status %d, want %d: %s", r.Status, c.status, r.Body)
				}
				if !strings.Contains(string(r.Body), c.msg) {
					t.Fatalf("message %q does not say %q", r.Body, c.msg)
				}
			})
		}

		// Nothing of the above was stored; the server still works.
		if e.Dir != "" {
			want := []string{auth.DefaultCompanyID + "/mine/data.bin", auth.DefaultCompanyID + "/mine/dir/inner.txt",
				auth.DefaultCompanyID + "/mine/escape"} // the test's symlink
			if got := e.storedFiles(t); !reflect.DeepEqual(got, want) {
				t.Fatalf("stored after bad input: %v, want %v", got, want)
			}
		}
		for _, p := range []string{"/bad/ok-name.txt", "/bad/big.bin", "/bad/huge.bin", "/etc/passwd"} {
			if r := e.do(t, "GET", p, e.Token, nil, nil); r.Status != 404 {
				t.Errorf("%s was stored: %d", p, r.Status)
			}
		}
		if r := e.do(t, "GET", "/mine/data.bin", e.Token, nil, nil); r.Status != 200 || string(r.Body) != "company data" {
			t.Fatalf("owner lost the file: %d %q", r.Status, r.Body)
		}
		e.mustUpload(t, "/after/ok.txt", []byte("fine"))
		if r := e.do(t, "GET", "/after/ok.txt", e.Token, nil, nil); string(r.Body) != "fine" {
			t.Fatalf("server unwell after bad input: %d %q", r.Status, r.Body)
		}
	}, limit)
}

// part is a one-part upload body for path.
func part(path string) []byte {
	b, _ := multipartBody(path, []byte("x"))
	return b
}

// TestDeleteURLs: the URLs tasks and models deletes report, as the SDK
// wrote them, delete the caller's files and nothing else.
func TestDeleteURLs(t *testing.T) {
	eachEnv(t, func(t *testing.T, e *filesEnv) {
		base := e.App.Deps.FilesURL // what the SDK was configured with
		e.mustUpload(t, sdkPath, []byte("artifact"))
		e.mustUpload(t, "/e2e proj/train ü.0123abcd/models/model file.pt", []byte("weights"))
		e.mustUpload(t, "/e2e proj/train ü.0123abcd/metrics/loss/train/loss_train_00000001.jpeg", []byte("img"))
		e.mustUpload(t, "/e2e proj/train ü.0123abcd/artifacts/other/keep.txt", []byte("keep"))
		// the other company has a file under the same path
		body, ct := multipartBody(sdkPath, []byte("other's"))
		if r := e.do(t, "POST", "/", e.Other, body, map[string]string{"Content-Type": ct}); r.Status != 200 {
			t.Fatalf("other upload: %d %s", r.Status, r.Body)
		}

		urls := []string{
			base + sdkURL, // artifact: quoted
			base + "/e2e proj/train ü.0123abcd/models/model file.pt",                                            // model: unquoted
			"http://localhost:1/e2e%20proj/train%20%C3%BC.0123abcd/metrics/loss/train/loss_train_00000001.jpeg", // same server, loopback name
			base + "/e2e%20proj/never-uploaded.bin",
			base + sdkURL, // duplicate
			"https://s3.example.com/bucket/model.pt",
			"s3://bucket/x.pt",
			"file:///home/me/model.pt",
			"http://other-host:8081/e2e%20proj/x.bin",
			base + "/e2e%20proj/%2E%2E/%2E%2E/etc/passwd",
			"",
		}
		res, err := e.App.Deps.FileServer.DeleteURLs(context.Background(), auth.DefaultCompanyID, urls)
		if err != nil {
			t.Fatal(err)
		}
		if want := urls[:3]; !reflect.DeepEqual(res.Deleted, want) {
			t.Errorf("deleted %v, want %v", res.Deleted, want)
		}
		if want := urls[3:4]; !reflect.DeepEqual(res.Missing, want) {
			t.Errorf("missing %v, want %v", res.Missing, want)
		}
		if want := urls[5:9]; !reflect.DeepEqual(res.Skipped, want) {
			t.Errorf("skipped %v, want %v", res.Skipped, want)
		}
		if len(res.Failed) != 1 || !strings.Contains(res.Failed[urls[9]], `".."`) {
			t.Errorf("failed %v", res.Failed)
		}
		if r := e.do(t, "GET", "/e2e proj/train ü.0123abcd/artifacts/other/keep.txt", e.Token, nil, nil); r.Status != 200 {
			t.Errorf("unlisted file deleted: %d", r.Status)
		}
		if r := e.do(t, "GET", sdkURL, e.Other, nil, nil); r.Status != 200 || string(r.Body) != "other's" {
			t.Errorf("other company's file touched: %d %q", r.Status, r.Body)
		}
		if r := e.do(t, "GET", sdkURL, e.Token, nil, nil); r.Status != 404 {
			t.Errorf("deleted file still served: %d", r.Status)
		}
		if e.Dir != "" {
			if _, err := os.Stat(filepath.Join(e.Dir, auth.DefaultCompanyID, "e2e proj/train ü.0123abcd/models")); !os.IsNotExist(err) {
				t.Errorf("emptied directory left behind: %v", err)
			}
		}
	})
}
