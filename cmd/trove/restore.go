package main

import (
	"context"
	"fmt"
	"os"

	"github.com/trove-ml/trove/internal/transfer"
)

// restore runs `trove restore FILE`: a backup into an empty data dir.
func restore(ctx context.Context, args []string) error {
	loc, dataDir, file, err := archiveArgs("restore", args)
	if err != nil {
		return err
	}
	st, err := transfer.Restore(ctx, file, loc, dataDir)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "restored into %s: database %d bytes, %d files (%d bytes)\n", dataDir, st.DBBytes, st.Files, st.FilesBytes)
	return nil
}
