package webapp

import (
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strings"
)

// staticFiles serves the build's files. A missing path without a file
// extension is a client-side route and gets index.html.
type staticFiles struct {
	root fs.FS
	// hashed, when set, also names files kept for a year (another
	// build's fingerprint style).
	hashed *regexp.Regexp
}

// contentTypes are set explicitly so the answer does not depend on the
// host's mime tables (fonts and source maps are missing from Go's own).
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".json":        "application/json",
	".map":         "application/json",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".jpg":         "image/jpeg",
	".jpeg":        "image/jpeg",
	".gif":         "image/gif",
	".webp":        "image/webp",
	".ico":         "image/x-icon",
	".ttf":         "font/ttf",
	".otf":         "font/otf",
	".woff":        "font/woff",
	".woff2":       "font/woff2",
	".txt":         "text/plain; charset=utf-8",
	".wasm":        "application/wasm",
	".webmanifest": "application/manifest+json",
}

// hashedName matches the names the Angular build gives its bundles and
// media ("main-AKFXBCOQ.js", "chunk-24LF2KOT.js", "media/x-7D3Q2Z5K.svg"):
// their content never changes under that name, so browsers may keep them.
var hashedName = regexp.MustCompile(`-[A-Z0-9]{8}\.[a-z0-9]+$`)

// versionedName matches a library kept under its release's name
// ("vendor/plotly-2.35.3.min.js"): a new release gets a new name. Served
// from the embedded UI with no modification time, it would otherwise be
// fetched whole (1.3 MB gzipped) on every page with plots.
var versionedName = regexp.MustCompile(`-\d+\.\d+\.\d+(\.min)?\.js$`)

// Caching: hashed files for a year; everything else is revalidated on
// each use (index.html names the current bundles; assets keep their names
// across versions).
const (
	cacheForever    = "public, max-age=31536000, immutable"
	cacheRevalidate = "no-cache"
)

func (s *staticFiles) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" {
		name = "index.html"
	}
	if s.serveFile(w, r, name) {
		return
	}
	if !isRoute(name) {
		http.NotFound(w, r)
		return
	}
	if !s.serveFile(w, r, "index.html") {
		http.NotFound(w, r)
	}
}

// serveFile answers with the file name (a valid fs path) when it exists
// and is a regular file; false when it is missing or a directory.
func (s *staticFiles) serveFile(w http.ResponseWriter, r *http.Request, name string) bool {
	if !fs.ValidPath(name) {
		return false
	}
	f, err := s.root.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		return false
	}
	h := w.Header()
	h.Set("Content-Type", contentType(name))
	if hashedName.MatchString(name) || versionedName.MatchString(name) || (s.hashed != nil && s.hashed.MatchString(name)) {
		h.Set("Cache-Control", cacheForever)
	} else {
		h.Set("Cache-Control", cacheRevalidate)
	}
	http.ServeContent(w, r, name, st.ModTime(), rs)
	return true
}

// contentType of a file name: the table above, then the host's mime
// types, then bytes.
func contentType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := contentTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}
