package webapp_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// Trove's own UI downloads artifacts through /files/ of its origin with
// nothing but the session cookie, and learns which URLs are the file
// server's from configuration.json.
func TestFilesThroughTheWebAddressWithTheSessionCookie(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		web := httptest.NewServer(e.App.WebHandler)
		t.Cleanup(web.Close)
		basic := http.Header{"Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte(testenv.AdminKey+":"+testenv.AdminSecret))}}

		// The SDK's upload: a multipart part named by the storage path.
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		part, _ := mw.CreateFormFile("Demo/train.abc/artifacts/notes/notes.txt", "notes.txt")
		_, _ = part.Write([]byte("flows notes\n"))
		_ = mw.Close()
		req, _ := http.NewRequest(http.MethodPost, web.URL+"/files/", &body)
		req.Header = basic.Clone()
		req.Header.Set("Content-Type", mw.FormDataContentType())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("upload: %d", resp.StatusCode)
		}

		get := func(c *http.Client) (int, string) {
			resp, err := c.Get(web.URL + "/files/Demo/train.abc/artifacts/notes/notes.txt")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}
		if status, _ := get(&http.Client{}); status != http.StatusUnauthorized {
			t.Fatalf("without a session: %d, want 401", status)
		}
		jar, _ := cookiejar.New(nil)
		browser := &http.Client{Jar: jar}
		if status, _, _ := post(t, browser, web.URL+"/api/auth.login", basic); status != 200 {
			t.Fatalf("login: %d", status)
		}
		if status, got := get(browser); status != 200 || got != "flows notes\n" {
			t.Fatalf("with the session cookie: %d %q", status, got)
		}

		resp, err = browser.Get(web.URL + "/configuration.json")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var conf struct {
			FileBaseURL string `json:"fileBaseUrl"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&conf); err != nil || conf.FileBaseURL == "" {
			t.Fatalf("configuration.json: %v %+v", err, conf)
		}
	})
}
