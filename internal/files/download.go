package files

import (
	"encoding/json"
	"net/http"

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
	// The type comes from the path alone and nosniff (set for every
	// answer) keeps browsers to it: a .png holding HTML is a broken image.
	fh := headersFor(p, r.URL.Query().Has("download"))
	h.Set("Content-Type", fh.ContentType)
	if fh.Disposition != "" {
		h.Set("Content-Disposition", fh.Disposition)
	}
	// Debug images are overwritten in place (the SDK recycles slots):
	// caches must revalidate.
	h.Set("Cache-Control", "no-cache")
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
