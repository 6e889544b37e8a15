package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/trove-ml/trove/internal/files"
)

// fileCopier copies files of the source's file server into Trove's file
// storage and gives their URLs on Trove's file server. A file already
// stored under the same path is not fetched again (a rerun resumes).
type fileCopier struct {
	src     *Client
	storage files.Storage
	spool   string
	company string
	// from are the source's file server base URLs, without a trailing "/".
	from []string
	// to is Trove's public files URL, without a trailing "/".
	to string
	// done maps source URLs copied in this run to their new URLs.
	done   map[string]string
	copied int
	failed []string
}

func newFileCopier(src *Client, storage files.Storage, spool, company string, from []string, to string) *fileCopier {
	fc := &fileCopier{src: src, storage: storage, spool: spool, company: company, to: strings.TrimRight(to, "/"), done: map[string]string{}}
	for _, f := range from {
		if f = strings.TrimRight(f, "/"); f != "" {
			fc.from = append(fc.from, f)
		}
	}
	return fc
}

// rest is the part of u after a source files prefix ("/path..."), or false
// when the source's file server does not hold u.
func (fc *fileCopier) rest(u string) (string, bool) {
	for _, p := range fc.from {
		if strings.HasPrefix(u, p+"/") {
			return u[len(p):], true
		}
	}
	return "", false
}

// Rebase moves a URL prefix under the source's file server (an output
// destination) onto Trove's file server, without copying anything.
func (fc *fileCopier) Rebase(u *string) {
	if u == nil || fc.storage == nil {
		return
	}
	for _, p := range fc.from {
		if *u == p || strings.HasPrefix(*u, p+"/") {
			nu := fc.to + strings.TrimPrefix(*u, p)
			*u = nu
			return
		}
	}
}

// Rewrite copies the file under u when the source's file server holds it
// and returns its URL on Trove's file server; other URLs come back as
// they are. A file that cannot be copied keeps its URL and is recorded.
func (fc *fileCopier) Rewrite(ctx context.Context, u string) string {
	rest, ok := fc.rest(u)
	if !ok || fc.storage == nil {
		return u
	}
	if nu, ok := fc.done[u]; ok {
		return nu
	}
	if err := fc.copy(ctx, u, rest); err != nil {
		fc.failed = append(fc.failed, fmt.Sprintf("%s: %v", u, err))
		fc.done[u] = u
		return u
	}
	nu := fc.to + rest
	fc.done[u] = nu
	return nu
}

func (fc *fileCopier) copy(ctx context.Context, u, rest string) error {
	rel := rest
	if i := strings.IndexAny(rel, "?#"); i >= 0 {
		rel = rel[:i]
	}
	if dec, err := url.PathUnescape(rel); err == nil {
		rel = dec
	}
	p, err := files.CleanPath(rel)
	if err != nil {
		return err
	}
	key := files.Key{Company: fc.company, Path: p}
	if obj, err := fc.storage.Open(ctx, key); err == nil {
		obj.Close()
		return nil
	} else if !errors.Is(err, files.ErrNotFound) {
		return err
	}
	body, err := fc.src.Download(ctx, u)
	if err != nil {
		return err
	}
	defer body.Close()
	f, err := os.CreateTemp(fc.spool, "import-*")
	if err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	defer func() {
		f.Close()
		_ = os.Remove(f.Name())
	}()
	n, err := io.Copy(f, body)
	if err != nil {
		return fmt.Errorf("download: %w", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if err := fc.storage.Put(ctx, key, f, n); err != nil {
		return err
	}
	fc.copied++
	return nil
}
