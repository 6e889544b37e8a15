package files

import (
	"context"
	"errors"
	"io"
	"net/http"
)

// The stored-file calls other servers on the API address use (MLflow's
// artifact proxy, issue 38): the same storage, limits and safe headers as
// the file server's own upload and download.

// Save stores body under key, at most the upload limit's bytes, and
// returns its size; a body over the limit stores nothing (ErrTooLarge).
func (s *Service) Save(ctx context.Context, key Key, body io.Reader) (int64, error) {
	return s.receive(ctx, key, body, 0)
}

// MaxUpload is the upload limit in bytes (0: none).
func (s *Service) MaxUpload() int64 { return s.maxUpload }

// TooLarge is the error of a body over the upload limit.
func (s *Service) TooLarge() error { return s.tooLarge() }

// ServeAttachment answers the file under key as an attachment with the
// file server's safe headers (nosniff, a sandboxing CSP, the type from
// the path alone); ranges and conditional requests are served. The error
// of a failed open is returned before anything is written.
func (s *Service) ServeAttachment(w http.ResponseWriter, r *http.Request, key Key) error {
	obj, err := s.store.Open(r.Context(), key)
	if err != nil {
		return err
	}
	defer obj.Close()
	h := w.Header()
	fh := headersFor(key.Path, true)
	h.Set("Content-Type", fh.ContentType)
	h.Set("Content-Disposition", fh.Disposition)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", sandboxPolicy)
	h.Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, "", obj.ModTime, obj.ReadSeekCloser)
	return nil
}

// Remove deletes the file under key (ErrNotFound when there is none).
func (s *Service) Remove(ctx context.Context, key Key) error {
	return s.store.Delete(ctx, key)
}

// StatusOf is the HTTP status of a storage error (500 for an unexpected
// one).
func StatusOf(err error) int { return statusOf(err) }

// ErrTooBig is the error of ReadStored on a file over its limit.
var ErrTooBig = errors.New("stored file larger than the read limit")

// ReadStored reads the whole file under key, at most limit bytes
// (ErrTooBig when it is larger).
func (s *Service) ReadStored(ctx context.Context, key Key, limit int64) ([]byte, error) {
	obj, err := s.store.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	defer obj.Close()
	if obj.Size > limit {
		return nil, ErrTooBig
	}
	b, err := io.ReadAll(io.LimitReader(obj, limit+1))
	if err == nil && int64(len(b)) > limit {
		return nil, ErrTooBig
	}
	return b, err
}
