package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/trove-ml/trove/internal/transfer"
)

// backup runs `trove backup FILE`: a consistent archive of a SQLite store
// and its stored files, taken while the server may run.
func backup(ctx context.Context, args []string) error {
	loc, dataDir, file, err := archiveArgs("backup", args)
	if err != nil {
		return err
	}
	out, err := filepath.Abs(file)
	if err != nil {
		return err
	}
	st, err := transfer.Backup(ctx, loc, dataDir, out)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "backup %s: database %d bytes, %d files (%d bytes)\n", out, st.DBBytes, st.Files, st.FilesBytes)
	return nil
}
