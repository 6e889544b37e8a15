package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/transfer"
)

// backup runs `trove backup FILE`: a consistent archive of a SQLite store
// and its stored files, taken while the server may run.
func backup(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	sf := addStoreFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: trove backup [--db ...] [--data-dir DIR] FILE")
	}
	loc, err := store.Locate(*sf.db, *sf.dataDir)
	if err != nil {
		return err
	}
	out, err := filepath.Abs(fs.Arg(0))
	if err != nil {
		return err
	}
	st, err := transfer.Backup(ctx, loc, *sf.dataDir, out)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "backup %s: database %d bytes, %d files (%d bytes)\n", out, st.DBBytes, st.Files, st.FilesBytes)
	return nil
}
