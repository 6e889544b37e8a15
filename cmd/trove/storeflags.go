package main

import (
	"flag"
	"os"
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
