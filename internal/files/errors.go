package files

import (
	"errors"
	"net/http"

	"github.com/trove-ml/trove/internal/store"
)

// Errors of the storage layer and the handler; each maps to one HTTP
// status in statusOf. Wrap them with detail (fmt.Errorf("%w ...")).
var (
	// ErrBadPath: the path is not acceptable (.., absolute, a symlink
	// leaving the company's files, ...).
	ErrBadPath = errors.New("bad path")
	// ErrNotFound: no file is stored under the path.
	ErrNotFound = errors.New("file not found")
	// ErrConflict: the path or one of its parents is taken by a directory
	// or a file of the other kind.
	ErrConflict = errors.New("path conflict")
	// ErrTooLarge: the upload is over the configured limit.
	ErrTooLarge = errors.New("upload too large")
	// ErrBadUpload: the request body is not a complete multipart upload.
	ErrBadUpload = errors.New("bad upload")
	// ErrNoSpace: the storage is full.
	ErrNoSpace = errors.New("no space left for the file")
	// ErrForbidden: the caller's role may not do this (a read-only role
	// uploading or deleting).
	ErrForbidden = errors.New("forbidden")
	// ErrStorageUnavailable: the storage backend (S3) cannot be reached or
	// failed on its side (a 5xx); a later try may succeed.
	ErrStorageUnavailable = errors.New("file storage unavailable")
)

// retryAfter is the Retry-After (seconds) of a 503: a full disk or an
// unreachable store is answered 503, which the SDK's upload session
// retries (honouring the header) where it gives up at once on a 507.
const retryAfter = 2

// statusOf maps an error to its HTTP status; 500 for anything unexpected.
func statusOf(err error) int {
	switch {
	case errors.Is(err, ErrBadPath), errors.Is(err, ErrBadUpload):
		return http.StatusBadRequest
	case errors.Is(err, ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, ErrConflict):
		return http.StatusConflict
	case errors.Is(err, ErrTooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, ErrForbidden):
		return http.StatusForbidden
	case errors.Is(err, ErrNoSpace), errors.Is(err, ErrStorageUnavailable):
		return http.StatusServiceUnavailable
	}
	if store.FaultOf(err) != "" {
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}
