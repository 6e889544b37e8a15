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

// restore runs `trove restore FILE`: a backup into an empty data dir.
func restore(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	sf := addStoreFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: trove restore [--db ...] [--data-dir DIR] FILE")
	}
	loc, err := store.Locate(*sf.db, *sf.dataDir)
	if err != nil {
		return err
	}
	st, err := transfer.Restore(ctx, fs.Arg(0), loc, *sf.dataDir)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "restored into %s: database %d bytes, %d files (%d bytes)\n", *sf.dataDir, st.DBBytes, st.Files, st.FilesBytes)
	return nil
}
