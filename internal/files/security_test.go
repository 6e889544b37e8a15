package files_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

// Read-only users of the admin's company.
var (
	guestUser     = auth.FixedUser{ID: "files-guest", Name: "guest", AccessKey: "FILESGUESTKEY00000000000000", SecretKey: "files-guest-secret-000000000000000000000", Role: auth.RoleGuest}
	annotatorUser = auth.FixedUser{ID: "files-annotator", Name: "annotator", AccessKey: "FILESANNOTATORKEY0000000000", SecretKey: "files-annotator-secret-00000000000000000", Role: auth.RoleAnnotator}
	plainUser     = auth.FixedUser{ID: "files-user", Name: "user", AccessKey: "FILESUSERKEY000000000000000", SecretKey: "files-user-secret-0000000000000000000000", Role: auth.RoleUser}
)

func realPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const scriptPage = `<!doctype html><html><body><script>fetch("/api/v2.30/auth.create_credentials",{method:"POST"})</script></body></html>`

// A stored file never renders as a page of the origin that serves it:
// HTML, SVG, XML, XHTML, PDF, JavaScript and unknown types go as
// attachments, the type comes from the name (a .png holding HTML is an
// image), and every answer says nosniff and sandbox, on the files port
// and on the web address's /files/ alike. Images, audio, video, text and
// JSON stay inline so the UI keeps showing debug samples.
func TestServedFilesNeverRenderAsPages(t *testing.T) {
	eachEnv(t, func(t *testing.T, e *filesEnv) {
		web := httptest.NewServer(e.App.WebHandler)
		t.Cleanup(web.Close)
		pngBytes := realPNG(t)
		dir := "Proj/task.0123/metrics/"
		cases := []struct {
			name    string
			content []byte
			ctype   string // the Content-Type answered
			inline  bool
		}{
			{"page.html", []byte(scriptPage), "text/html; charset=utf-8", false},
			{"PAGE.HTM", []byte(scriptPage), "text/html; charset=utf-8", false},
			{"drawing.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), "image/svg+xml", false},
			{"data.xml", []byte(`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>`), "", false},
			{"page.xhtml", []byte(`<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>`), "application/xhtml+xml", false},
			{"doc.pdf", []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"), "application/pdf", false},
			{"code.js", []byte(`alert(1)`), "", false},
			{"weights.unknownext", []byte(scriptPage), "application/octet-stream", false},
			{"no extension", []byte(scriptPage), "application/octet-stream", false},
			{"trap.png", []byte(scriptPage), "image/png", true},
			{"trap.PNG", []byte(scriptPage), "image/png", true},
			{"real.png", pngBytes, "image/png", true},
			{"photo.jpeg", []byte("\xff\xd8\xff\xe0"), "image/jpeg", true},
			{"clip.mp4", []byte("\x00\x00\x00\x18ftypmp42"), "video/mp4", true},
			{"sound.wav", []byte("RIFF\x00\x00\x00\x00WAVE"), "audio/wav", true},
			{"notes.txt", []byte(scriptPage), "text/plain; charset=utf-8", true},
			{"metrics.json", []byte(`{"html":"<script>alert(1)</script>"}`), "application/json", true},
		}
		for _, c := range cases {
			e.mustUpload(t, dir+c.name, c.content)
		}
		get := func(t *testing.T, base, p string) *http.Response {
			t.Helper()
			req, _ := http.NewRequest(http.MethodGet, base+p, nil)
			req.Header.Set("Authorization", "Bearer "+e.Token)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp
		}
		for _, origin := range []struct{ name, base string }{{"files port", e.Files}, {"web address", web.URL + "/files"}} {
			for _, c := range cases {
				t.Run(origin.name+"/"+c.name, func(t *testing.T) {
					resp := get(t, origin.base, "/"+dir+strings.ReplaceAll(c.name, " ", "%20"))
					if resp.StatusCode != 200 {
						t.Fatalf("status %d", resp.StatusCode)
					}
					h := resp.Header
					if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Content-Security-Policy") != "sandbox" {
						t.Errorf("nosniff %q, csp %q", h.Get("X-Content-Type-Options"), h.Get("Content-Security-Policy"))
					}
					ct := h.Get("Content-Type")
					if c.ctype != "" && ct != c.ctype {
						t.Errorf("content type %q, want %q", ct, c.ctype)
					}
					if ct == "" {
						t.Errorf("no content type")
					}
					cd := h.Get("Content-Disposition")
					if c.inline {
						if cd != "" {
							t.Errorf("inline file sent as %q", cd)
						}
						return
					}
					disp, params, err := mime.ParseMediaType(cd)
					if err != nil || disp != "attachment" || params["filename"] != c.name {
						t.Errorf("disposition %q (%v), want an attachment named %q", cd, err, c.name)
					}
				})
			}
		}
		// Inline types still download as attachments on request; errors
		// are not sniffed either.
		resp := get(t, e.Files, "/"+dir+"real.png?download")
		if _, params, _ := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); params["filename"] != "real.png" || resp.Header.Get("Content-Type") != "image/png" {
			t.Errorf("?download: %q %q", resp.Header.Get("Content-Disposition"), resp.Header.Get("Content-Type"))
		}
		for _, base := range []string{e.Files, web.URL + "/files"} {
			resp = get(t, base, "/"+dir+"missing.html")
			if resp.StatusCode != 404 || resp.Header.Get("X-Content-Type-Options") != "nosniff" || strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
				t.Errorf("%s missing file: %d %q %q", base, resp.StatusCode, resp.Header.Get("X-Content-Type-Options"), resp.Header.Get("Content-Type"))
			}
		}
		// The real PNG's bytes come back whole.
		r := e.do(t, "GET", "/"+dir+"real.png", e.Token, nil, nil)
		if !bytes.Equal(r.Body, pngBytes) {
			t.Errorf("png body changed")
		}
	})
}

// Annotators and guests read files but never upload or delete them, on
// the files port or through the web address; a user does both.
func TestReadOnlyRolesCannotWriteFiles(t *testing.T) {
	eachEnv(t, func(t *testing.T, e *filesEnv) {
		web := httptest.NewServer(e.App.WebHandler)
		t.Cleanup(web.Close)
		webEnv := &filesEnv{Env: e.Env, Files: web.URL + "/files"}
		const kept = "Proj/task.1/artifacts/kept.txt"
		e.mustUpload(t, kept, []byte("kept"))
		for _, u := range []auth.FixedUser{guestUser, annotatorUser} {
			tok := e.Login(t, u.AccessKey, u.SecretKey)
			for _, port := range []struct {
				name string
				env  *filesEnv
			}{{"files port", e}, {"web address", webEnv}} {
				t.Run(u.Role+"/"+port.name, func(t *testing.T) {
					p := "Proj/task.1/artifacts/by-" + u.Role + ".txt"
					r := port.env.upload(t, p, tok, []byte("x"))
					if r.Status != http.StatusForbidden || !strings.Contains(string(r.Body), `"`+u.Role+`" role is read-only and may not upload`) {
						t.Errorf("upload: %d %s", r.Status, r.Body)
					}
					if r := e.do(t, "GET", "/"+p, e.Token, nil, nil); r.Status != http.StatusNotFound {
						t.Errorf("the refused upload was stored: %d", r.Status)
					}
					r = port.env.do(t, "DELETE", "/"+kept, tok, nil, nil)
					if r.Status != http.StatusForbidden || !strings.Contains(string(r.Body), "delete") {
						t.Errorf("delete: %d %s", r.Status, r.Body)
					}
					if r := port.env.do(t, "GET", "/"+kept, tok, nil, nil); r.Status != 200 || string(r.Body) != "kept" {
						t.Errorf("read as %s: %d %s", u.Role, r.Status, r.Body)
					}
				})
			}
		}
		tok := e.Login(t, plainUser.AccessKey, plainUser.SecretKey)
		if r := e.upload(t, "Proj/task.1/artifacts/by-user.txt", tok, []byte("u")); r.Status != 200 {
			t.Fatalf("user upload: %d %s", r.Status, r.Body)
		}
		if r := e.do(t, "DELETE", "/"+kept, tok, nil, nil); r.Status != 200 {
			t.Fatalf("user delete: %d %s", r.Status, r.Body)
		}
		if r := e.do(t, "GET", "/"+kept, e.Token, nil, nil); r.Status != http.StatusNotFound {
			t.Fatalf("deleted file still there: %d", r.Status)
		}
	}, testenv.WithUsers(guestUser, annotatorUser, plainUser))
}
