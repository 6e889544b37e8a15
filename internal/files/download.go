package files

import (
	"encoding/json"
	"mime"
	"net/http"
	"path"

	"github.com/trove-ml/trove/internal/auth"
)

// download answers GET and HEAD /<path> (already percent-decoded by
// net/http): Content-Length, Last-Modified, ranges and conditional
// requests come from http.ServeContent.
func (s *Service) download(w http.ResponseWriter, r *http.Request, id *auth.Identity) {
	p, err := CleanPath(r.URL.Path)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	obj, err := s.store.Open(r.Context(), Key{Company: id.CompanyID, Path: p})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer obj.Close()
	h := w.Header()
	h.Set("Content-Type", contentType(p))
	// Debug images are overwritten in place (the SDK recycles slots):
	// caches must revalidate.
	h.Set("Cache-Control", "no-cache")
	if r.URL.Query().Has("download") {
		h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": path.Base(p)}))
	}
	// The bare file (not the Object wrapper) lets net/http use sendfile.
	http.ServeContent(w, r, "", obj.ModTime, obj.ReadSeekCloser)
}

// remove answers DELETE /<path> with the deleted path as a JSON string.
func (s *Service) remove(w http.ResponseWriter, r *http.Request, id *auth.Identity) {
	p, err := CleanPath(r.URL.Path)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.store.Delete(r.Context(), Key{Company: id.CompanyID, Path: p}); err != nil {
		s.fail(w, r, err)
		return
	}
	body, _ := json.Marshal(p)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

// contentType guesses from the extension, like the reference; stored
// files keep no metadata of their own.
func contentType(p string) string {
	if ct := mime.TypeByExtension(path.Ext(p)); ct != "" {
		return ct
	}
	return "application/octet-stream"
}
