package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/transfer"
)

// copyStore runs `trove copy --to URL`: the current store into an empty one.
func copyStore(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("copy", flag.ContinueOnError)
	sf := addStoreFlags(fs)
	to := fs.String("to", "", "target store: postgres:// URL, sqlite://PATH or a SQLite file path (must be empty)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *to == "" {
		return errors.New("copy: --to is required (" + store.AcceptedDBForms + ")")
	}
	if _, err := store.Locate(*to, ""); err != nil {
		return err
	}
	src, err := store.Open(ctx, *sf.db, *sf.dataDir)
	if err != nil {
		return fmt.Errorf("copy: source: %w", err)
	}
	defer src.Close()
	dst, err := store.Open(ctx, *to, "")
	if err != nil {
		return fmt.Errorf("copy: target: %w", err)
	}
	defer dst.Close()
	res, err := transfer.Copy(ctx, src, dst, os.Stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s (%.0f rows/s)\n", transfer.Summary(res.Check), float64(res.Rows)/res.Elapsed.Seconds())
	return nil
}
