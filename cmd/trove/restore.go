package main

import (
	"context"
	"io"
	"os"

	"github.com/trove-ml/trove/internal/transfer"
)

// restore runs `trove restore FILE`: a backup into a new data dir, all or
// nothing (transfer.Restore).
func restore(ctx context.Context, args []string) error {
	return restoreTo(ctx, args, os.Stderr)
}

func restoreTo(ctx context.Context, args []string, w io.Writer) error {
	loc, dataDir, file, err := archiveArgs("restore", args)
	if err != nil {
		return err
	}
	rep, err := transfer.Restore(ctx, file, loc, dataDir)
	if err != nil {
		return err
	}
	printReport(w, "restored "+file+" into "+dataDir, rep)
	return nil
}
