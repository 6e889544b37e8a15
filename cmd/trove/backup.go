package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/transfer"
)

// backup runs `trove backup FILE`: a consistent archive of a SQLite store
// and its stored files, taken while the server may run; and `trove
// backup --verify FILE`, which checks an archive as a restore would.
func backup(ctx context.Context, args []string) error {
	return backupTo(ctx, args, os.Stderr)
}

func backupTo(ctx context.Context, args []string, w io.Writer) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	sf := addStoreFlags(fs)
	verify := fs.Bool("verify", false, "check the archive FILE (framing, manifest sizes and SHA-256, database quick_check) without restoring it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: trove backup [--db ...] [--data-dir DIR] FILE, or trove backup --verify FILE")
	}
	file := fs.Arg(0)
	if *verify {
		rep, err := transfer.Verify(ctx, file, "")
		if err != nil {
			return err
		}
		printReport(w, "verified "+file, rep)
		return nil
	}
	loc, err := store.Locate(*sf.db, *sf.dataDir)
	if err != nil {
		return err
	}
	out, err := filepath.Abs(file)
	if err != nil {
		return err
	}
	st, err := transfer.Backup(ctx, loc, *sf.dataDir, out)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "backup %s: database %d bytes, %d files (%d bytes), with a manifest of sizes and SHA-256 checksums\n", out, st.DBBytes, st.Files, st.FilesBytes)
	return nil
}

// printReport writes what checking an archive found.
func printReport(w io.Writer, head string, rep transfer.ArchiveReport) {
	fmt.Fprintf(w, "%s: database %d bytes (schema version %d), %d files (%d bytes)\n", head, rep.DBBytes, rep.SchemaVersion, rep.Files, rep.FilesBytes)
	for _, c := range rep.Checked {
		fmt.Fprintf(w, "  checked: %s\n", c)
	}
	for _, warn := range rep.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", warn)
	}
}
