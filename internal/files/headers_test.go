package files

import (
	"mime"
	"path"
	"strings"
	"testing"
)

func TestHeadersFor(t *testing.T) {
	cases := []struct {
		path     string
		download bool
		ctype    string
		disp     string
	}{
		{"a/b/img.png", false, "image/png", ""},
		{"a/b/IMG.JPG", false, "image/jpeg", ""},
		{"a/b/img.png", true, "image/png", `attachment; filename=img.png`},
		{"a/b/clip.webm", false, "video/webm", ""},
		{"a/b/log.txt", false, "text/plain; charset=utf-8", ""},
		{"a/b/page.html", false, "text/html; charset=utf-8", `attachment; filename=page.html`},
		{"a/b/x.svg", false, "image/svg+xml", `attachment; filename=x.svg`},
		{"a/b/doc.pdf", false, "application/pdf", `attachment; filename=doc.pdf`},
		{"a/b/model.pkl", false, "", `attachment; filename=model.pkl`},
		{"a/b/no-ext", false, "application/octet-stream", `attachment; filename=no-ext`},
		{"a/b/naïve file.html", false, "text/html; charset=utf-8", `attachment; filename*=utf-8''na%C3%AFve%20file.html`},
		{`a/b/q"uote.svg`, false, "image/svg+xml", `attachment; filename="q\"uote.svg"`},
	}
	for _, c := range cases {
		h := headersFor(c.path, c.download)
		if (c.ctype != "" && h.ContentType != c.ctype) || h.ContentType == "" || h.Disposition != c.disp {
			t.Errorf("%s (download %v): %+v, want %q %q", c.path, c.download, h, c.ctype, c.disp)
		}
	}
}

// FuzzHeadersFor: every path gets a type; a file is shown in place only
// with an allow-listed type and never as HTML, SVG, XML or script; an
// attachment parses back to its file name.
func FuzzHeadersFor(f *testing.F) {
	for _, s := range []string{"a.png", "a.html", "a.PNG", "dir/x.svg", "x", "", ".png", "a.png.html", "naïve.txt", "a\x00b.png", "a\"b;c=d.html", "a/b\r\n.js"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, p string, download bool) {
		h := headersFor(p, download)
		if h.ContentType == "" {
			t.Fatal("no content type")
		}
		if h.Disposition == "" {
			if download {
				t.Fatal("?download without an attachment")
			}
			mt, _, err := mime.ParseMediaType(h.ContentType)
			if err != nil {
				t.Fatalf("inline type %q: %v", h.ContentType, err)
			}
			allowed := strings.HasPrefix(mt, "image/") || strings.HasPrefix(mt, "audio/") || strings.HasPrefix(mt, "video/") || mt == "text/plain" || mt == "application/json"
			if !allowed || strings.Contains(mt, "svg") || strings.Contains(mt, "xml") || strings.Contains(mt, "html") || strings.Contains(mt, "script") {
				t.Fatalf("%q shown in place as %q", p, h.ContentType)
			}
			return
		}
		disp, params, err := mime.ParseMediaType(h.Disposition)
		if err != nil || disp != "attachment" {
			t.Fatalf("disposition %q: %v", h.Disposition, err)
		}
		if name, ok := params["filename"]; ok && name != path.Base(p) {
			t.Fatalf("file name %q, want %q", name, path.Base(p))
		}
	})
}
