package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/trove-ml/trove/internal/app"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/files"
	"github.com/trove-ml/trove/internal/importer"
	"github.com/trove-ml/trove/internal/store"
)

// importStore runs `trove import --from URL --key K --secret S`: the
// records of another ClearML API server, read through its API, into the
// store of --db / --data-dir (and the configured file storage).
func importStore(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	from := fs.String("from", "", "API URL of the source server (a ClearML server or another Trove)")
	key := fs.String("key", "", "access key on the source server")
	secret := fs.String("secret", "", "secret key on the source server")
	fromFiles := fs.String("from-files", "", "comma-separated base URLs of the source's file server (default: the --from URL with port 8081, or files.* for an api.* host)")
	filesURL := fs.String("files-url", "", "public URL of this Trove's file server, for the copied files (default: from --files-addr/--public-host)")
	company := fs.String("company", auth.DefaultCompanyID, "company id the imported records go to")
	cfg, err := config.Parse(fs, args, os.Getenv)
	if err != nil {
		return err
	}
	if *from == "" {
		return errors.New("import: --from URL, --key and --secret are required")
	}
	src, err := importer.Dial(ctx, *from, *key, *secret)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	db, err := store.Open(ctx, cfg.DB, cfg.DataDir)
	if err != nil {
		return fmt.Errorf("import: target store: %w (import writes into the store directly, so a server running on a SQLite store must be stopped first)", err)
	}
	defer db.Close()
	storage, spool, err := files.OpenStorage(ctx, cfg.Files, cfg.DataDir)
	if err != nil {
		return fmt.Errorf("import: file storage: %w", err)
	}
	if c, ok := storage.(io.Closer); ok {
		defer c.Close()
	}
	if *filesURL == "" {
		*filesURL = app.PublicFilesURL(cfg)
	}
	sourceFiles := splitList(*fromFiles)
	if len(sourceFiles) == 0 {
		sourceFiles = guessFilesURLs(*from)
	}
	filesFrom := strings.Join(sourceFiles, ", ")
	if filesFrom == "" {
		filesFrom = "none known: give --from-files to copy them"
	}
	fmt.Fprintf(os.Stderr, "importing from %s (its files: %s) into %s, files as %s\n",
		*from, filesFrom, storeName(cfg), *filesURL)
	rep, err := importer.Run(ctx, importer.Options{Source: src, DB: db, Storage: storage, Spool: spool,
		SourceFiles: sourceFiles, FilesURL: *filesURL, Company: *company, Progress: os.Stderr})
	if rep != nil {
		fmt.Fprint(os.Stderr, rep.Summary())
		for _, f := range rep.Failures {
			fmt.Fprintln(os.Stderr, "  not imported:", f)
		}
	}
	if err != nil {
		return err
	}
	if len(rep.Failures) > 0 {
		return fmt.Errorf("import: %d records or files could not be imported (listed above); rerun to retry them", len(rep.Failures))
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// guessFilesURLs derives the source's file server from its API URL the
// way ClearML deployments name them: port 8008 becomes 8081, and an
// api.* host becomes files.*.
func guessFilesURLs(api string) []string {
	u, err := url.Parse(api)
	if err != nil {
		return nil
	}
	host, port := u.Hostname(), u.Port()
	switch {
	case port == "8008":
		u.Host = joinHostPort(host, "8081")
	case strings.HasPrefix(host, "api."):
		u.Host = joinHostPort("files."+strings.TrimPrefix(host, "api."), port)
	default:
		return nil
	}
	u.Path = ""
	return []string{u.String()}
}

func joinHostPort(host, port string) string {
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port == "" {
		return host
	}
	return host + ":" + port
}

// storeName names the target store for the opening line.
func storeName(cfg config.Config) string {
	if loc, err := store.Locate(cfg.DB, cfg.DataDir); err == nil {
		return loc.String()
	}
	return cfg.DB
}
