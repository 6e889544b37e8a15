package files

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// DeleteResult says what DeleteURLs did with each URL.
type DeleteResult struct {
	// Deleted are the URLs whose stored file was removed.
	Deleted []string
	// Missing are URLs of this file server under which the company has no
	// file (already deleted, never uploaded, or another company's).
	Missing []string
	// Skipped are URLs this file server does not serve (other hosts,
	// s3://, file://, ...); the caller may hand them back to the client.
	Skipped []string
	// Failed maps URLs to the reason their file could not be deleted.
	Failed map[string]string
}

// DeleteURLs deletes the files that company stored on this file server
// under the given URLs: the model, artifact and debug-image URLs that
// tasks.delete, tasks.reset and models.delete report with
// return_file_urls. A URL is this server's when it starts with one of the
// configured public prefixes (Options.URLPrefixes); its path is
// percent-decoded as the SDK's artifact and image URLs are quoted (model
// URIs arrive unquoted and decode to themselves). Directories left empty
// are removed. Per-URL problems go into the result; the error is only the
// context's. A nil Service skips every URL.
func (s *Service) DeleteURLs(ctx context.Context, company string, urls []string) (*DeleteResult, error) {
	res := &DeleteResult{Deleted: []string{}, Missing: []string{}, Skipped: []string{}, Failed: map[string]string{}}
	seen := map[string]bool{}
	for _, u := range urls {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if u == "" || seen[u] {
			continue
		}
		seen[u] = true
		rel, ok := s.localPath(u)
		if !ok {
			res.Skipped = append(res.Skipped, u)
			continue
		}
		p, err := CleanPath(rel)
		if err == nil {
			err = s.store.Delete(ctx, Key{Company: company, Path: p})
		}
		switch {
		case err == nil:
			res.Deleted = append(res.Deleted, u)
		case errors.Is(err, ErrNotFound):
			res.Missing = append(res.Missing, u)
		default:
			if statusOf(err) >= 500 {
				s.log.Error("files delete failed", "url", u, "error", err.Error())
			}
			res.Failed[u] = err.Error()
		}
	}
	return res, nil
}

// urlPrefix is a public base URL of the file server.
type urlPrefix struct {
	scheme string // http or https
	host   string // lower-case host:port, default port filled in
	path   string // "" or a base path without trailing slash
}

func parsePrefix(s string) (urlPrefix, error) {
	scheme, host, rest, ok := splitURL(strings.TrimRight(s, "/"))
	if !ok || strings.ContainsAny(rest, "?#") {
		return urlPrefix{}, fmt.Errorf("files: bad URL prefix %q: want http(s)://host[:port][/path]", s)
	}
	return urlPrefix{scheme: scheme, host: host, path: rest}, nil
}

// localPath returns the storage path of a URL under one of the prefixes.
func (s *Service) localPath(raw string) (string, bool) {
	if s == nil {
		return "", false
	}
	scheme, host, rest, ok := splitURL(raw)
	if !ok {
		return "", false
	}
	for _, p := range s.prefixes {
		if p.scheme != scheme || p.host != host || !strings.HasPrefix(rest, p.path+"/") {
			continue
		}
		rel := rest[len(p.path):]
		if dec, err := url.PathUnescape(rel); err == nil {
			rel = dec
		}
		return rel, true
	}
	return "", false
}

// splitURL splits an http(s) URL into lower-case scheme, host:port (the
// default port filled in, user info dropped) and the raw rest. It does
// not use url.Parse, which refuses unquoted model URIs holding a "%".
func splitURL(raw string) (scheme, host, rest string, ok bool) {
	i := strings.Index(raw, "://")
	if i <= 0 {
		return "", "", "", false
	}
	scheme = strings.ToLower(raw[:i])
	port := ""
	switch scheme {
	case "http":
		port = "80"
	case "https":
		port = "443"
	default:
		return "", "", "", false
	}
	host = raw[i+3:]
	if j := strings.IndexAny(host, "/?#"); j >= 0 {
		host, rest = host[:j], host[j:]
	}
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	host = strings.ToLower(host)
	if host == "" {
		return "", "", "", false
	}
	if c := strings.LastIndexByte(host, ':'); c < 0 || c < strings.LastIndexByte(host, ']') {
		host += ":" + port
	}
	return scheme, host, rest, true
}

// RemoveStoredFiles deletes the files stored under urls for the company
// (domain.FileRemover: cascades call it after their transaction
// committed). Failures are logged, not returned: the records are gone
// either way.
func (s *Service) RemoveStoredFiles(ctx context.Context, company string, urls []string) {
	res, err := s.DeleteURLs(ctx, company, urls)
	if err != nil {
		s.log.Warn("deleting stored files interrupted", "error", err.Error())
		return
	}
	for u, why := range res.Failed {
		s.log.Warn("stored file not deleted", "url", u, "error", why)
	}
	if len(res.Deleted) > 0 {
		s.log.Info("stored files deleted", "count", len(res.Deleted))
	}
}
