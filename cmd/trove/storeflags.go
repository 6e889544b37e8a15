package main

import (
	"errors"
	"flag"
	"os"

	"github.com/trove-ml/trove/internal/store"
)

// storeFlags are the --db and --data-dir of the maintenance commands,
// with the same environment defaults as trove serve.
type storeFlags struct {
	db, dataDir *string
}

func addStoreFlags(fs *flag.FlagSet) storeFlags {
	dataDir := os.Getenv("TROVE_DATA_DIR")
	if dataDir == "" {
		dataDir = "./data"
	}
	return storeFlags{
		db:      fs.String("db", os.Getenv("TROVE_DB"), "database: postgres:// URL or SQLite file (default: SQLite in the data dir)"),
		dataDir: fs.String("data-dir", dataDir, "data directory"),
	}
}

// archiveArgs parses `trove NAME [--db ...] [--data-dir DIR] FILE`.
func archiveArgs(name string, args []string) (loc store.Location, dataDir, file string, err error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	sf := addStoreFlags(fs)
	if err = fs.Parse(args); err != nil {
		return
	}
	if fs.NArg() != 1 {
		err = errors.New("usage: trove " + name + " [--db ...] [--data-dir DIR] FILE")
		return
	}
	loc, err = store.Locate(*sf.db, *sf.dataDir)
	return loc, *sf.dataDir, fs.Arg(0), err
}
