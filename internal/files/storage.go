package files

import (
	"context"
	"encoding/hex"
	"io"
	"os"
	"regexp"
	"time"
)

// Key names a stored file: the company that owns it and its path as
// returned by CleanPath. Files of different companies never mix.
type Key struct {
	Company string
	Path    string
}

// Object is an open stored file, readable with seeks (ranges).
type Object struct {
	io.ReadSeekCloser
	Size    int64
	ModTime time.Time
}

// Storage keeps the files' bytes. Implementations: Local (the default,
// under the data dir) and S3 (an S3-compatible bucket).
type Storage interface {
	// Put stores the complete file src, size bytes long, under key,
	// replacing what was there; readers see the old or the new file, never
	// a part. src is a temp file in the spool directory; Put may move it
	// away (the caller removes it if it is still there).
	Put(ctx context.Context, key Key, src *os.File, size int64) error
	// Open opens the file under key (ErrNotFound if there is none).
	Open(ctx context.Context, key Key) (*Object, error)
	// Delete removes the file under key (ErrNotFound if there is none).
	Delete(ctx context.Context, key Key) error
}

var plainCompany = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)

// companyDir is the directory (or key prefix) of a company's files: the id
// itself when it is a plain name, else "~" and its hex bytes, so that no
// company id can name another's directory or climb out of the root.
func companyDir(company string) string {
	if plainCompany.MatchString(company) {
		return company
	}
	return "~" + hex.EncodeToString([]byte(company))
}
