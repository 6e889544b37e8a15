package store

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// Location is where a store lives, as parsed from --db and --data-dir.
type Location struct {
	// Backend is "sqlite" or "postgres".
	Backend string
	// Path is the SQLite database file; URL the PostgreSQL connection URL.
	Path, URL string
	// DataDir is the data directory ("" when --db names the file).
	DataDir string
}

// AcceptedDBForms lists what --db takes, for error messages and help.
const AcceptedDBForms = "postgres://USER:PASS@HOST/DB, postgresql://..., sqlite://PATH, a SQLite file path, or empty for trove.db in the data dir"

// Locate parses dsn: a postgres:// or postgresql:// URL, a sqlite:// URL,
// a plain file path, or "" for trove.db in dataDir. Any other scheme is
// refused rather than taken for a file name.
func Locate(dsn, dataDir string) (Location, error) {
	if dsn == "" {
		return Location{Backend: "sqlite", Path: filepath.Join(dataDir, "trove.db"), DataDir: dataDir}, nil
	}
	scheme, rest, ok := strings.Cut(dsn, "://")
	if !ok || strings.ContainsAny(scheme, `/\.`) {
		return Location{Backend: "sqlite", Path: dsn}, nil
	}
	switch strings.ToLower(scheme) {
	case "postgres", "postgresql":
		return Location{Backend: "postgres", URL: dsn}, nil
	case "sqlite", "sqlite3":
		if rest == "" {
			return Location{}, fmt.Errorf("--db %q names no file; accepted: %s", dsn, AcceptedDBForms)
		}
		return Location{Backend: "sqlite", Path: rest}, nil
	}
	return Location{}, fmt.Errorf("--db: unknown database scheme %q in %q; accepted: %s", scheme, Redact(dsn), AcceptedDBForms)
}

// String names the store for messages, without a password.
func (l Location) String() string {
	if l.Backend == "postgres" {
		return Redact(l.URL)
	}
	return l.Path
}

// Redact hides the password of a URL.
func Redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.User == nil {
		return dsn
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}
