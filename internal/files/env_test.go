package files_test

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/testenv"
)

// A user of a second company, to check that companies never see each
// other's files.
const (
	otherKey     = "OTHERCOMPANYKEY0000000000000"
	otherSecret  = "other-company-secret-000000000000000000000000"
	otherCompany = "other-co"
)

// filesEnv is a Trove test environment with its files port served.
type filesEnv struct {
	*testenv.Env
	// Files is the base URL of the files port.
	Files string
	// Dir is the local storage directory ("" on S3).
	Dir string
	// Other is a token of a user of another company.
	Other string
}

// storageOption is a storage backend to run handler scenarios on.
type storageOption struct {
	name string
	opt  testenv.Option
}

// storageOptions are the local disk always and S3 when TROVE_TEST_S3
// names a server (scripts/s3-start).
func storageOptions() []storageOption {
	out := []storageOption{{"local", func(*config.Config) {}}}
	if ep := os.Getenv("TROVE_TEST_S3"); ep != "" {
		out = append(out, storageOption{"s3", func(c *config.Config) {
			b := make([]byte, 6)
			_, _ = rand.Read(b)
			c.Files.Storage = "s3"
			c.Files.S3 = config.FilesS3{Endpoint: ep, Bucket: "trove-files-" + hex.EncodeToString(b),
				Region: "us-east-1", AccessKey: "testing", SecretKey: "testing"}
		}})
	}
	return out
}

// eachEnv runs fn on every database backend and storage backend.
func eachEnv(t *testing.T, fn func(t *testing.T, e *filesEnv), opts ...testenv.Option) {
	for _, so := range storageOptions() {
		t.Run(so.name, func(t *testing.T) {
			all := append([]testenv.Option{so.opt}, opts...)
			all = append(all, testenv.WithUsers(auth.FixedUser{Name: "other", AccessKey: otherKey, SecretKey: otherSecret, Company: otherCompany}))
			testenv.Each(t, func(t *testing.T, e *testenv.Env) {
				srv := httptest.NewServer(e.App.FilesHandler)
				t.Cleanup(srv.Close)
				fe := &filesEnv{Env: e, Files: srv.URL, Other: e.Login(t, otherKey, otherSecret)}
				if e.App.Cfg.Files.Storage != "s3" {
					fe.Dir = filepath.Join(e.App.Cfg.DataDir, "files")
				}
				fn(t, fe)
			}, all...)
		})
	}
}

// reply is a finished files-port response.
type reply struct {
	Status int
	Header http.Header
	Body   []byte
	Close  bool
}

// do sends a request to the files port; token "" sends no credentials.
func (e *filesEnv) do(t testing.TB, method, path, token string, body []byte, hdr map[string]string) *reply {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, e.Files+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return &reply{Status: resp.StatusCode, Header: resp.Header, Body: b, Close: resp.Close}
}

// upload posts one part named path, as the SDK does.
func (e *filesEnv) upload(t testing.TB, path, token string, content []byte) *reply {
	t.Helper()
	body, ct := multipartBody(path, content)
	return e.do(t, http.MethodPost, "/", token, body, map[string]string{"Content-Type": ct})
}

// mustUpload uploads and fails the test unless it was stored.
func (e *filesEnv) mustUpload(t testing.TB, path string, content []byte) {
	t.Helper()
	if r := e.upload(t, path, e.Token, content); r.Status != http.StatusOK {
		t.Fatalf("upload %s: %d %s", path, r.Status, r.Body)
	}
}

const boundary = "trove-test-boundary-1234"

// multipartBody is the SDK's upload: one part whose field name and file
// name are the raw storage path (quotes escaped as urllib3 does).
func multipartBody(path string, content []byte) ([]byte, string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.SetBoundary(boundary)
	name := strings.ReplaceAll(path, `"`, "%22")
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="%s"; filename="%s"`, name, name))
	h.Set("Content-Type", "application/octet-stream")
	w, _ := mw.CreatePart(h)
	_, _ = w.Write(content)
	_ = mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

// storedFiles lists the files under the local storage (spool included),
// relative to it.
func (e *filesEnv) storedFiles(t testing.TB) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(e.Dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(e.Dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func basicAuth(key, secret string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(key+":"+secret))
}
