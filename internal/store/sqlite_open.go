package store

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// openSQLiteLocked checks that the database's directory is usable, locks
// the database, then opens it. Errors name the path and the cause, where
// SQLite alone would only say "unable to open database file".
func openSQLiteLocked(loc Location) (*DB, error) {
	dir := filepath.Dir(loc.Path)
	var tightened []Tightened
	if loc.DataDir != "" {
		// The data dir is Trove's own: created private, or narrowed. A
		// directory named by --db is the operator's and left as it is.
		t, err := SecureDir(loc.DataDir)
		if err != nil {
			return nil, fmt.Errorf("data dir %s: %w", loc.DataDir, causeOf(err))
		}
		if t != nil {
			tightened = append(tightened, *t)
		}
	}
	if err := checkWritableDir(dir); err != nil {
		return nil, err
	}
	if err := checkWritableFile(loc.Path); err != nil {
		return nil, err
	}
	lock, err := lockFile(loc.Path + ".lock")
	if err != nil {
		return nil, err
	}
	if err := createPrivate(loc.Path); err != nil {
		_ = lock.release() // the open's error is the one to report
		return nil, fmt.Errorf("database file %s: %w", loc.Path, causeOf(err))
	}
	files, err := secureSQLiteFiles(loc.Path)
	if err != nil {
		_ = lock.release() // the open's error is the one to report
		return nil, fmt.Errorf("database file %w", err)
	}
	db, err := openSQLite(loc.Path)
	if err != nil {
		_ = lock.release() // the open's error is the one to report
		return nil, fmt.Errorf("open SQLite database %s: %w", loc.Path, err)
	}
	db.lock = lock
	db.Tightened = append(tightened, files...)
	db.sqlitePath = loc.Path
	return db, nil
}

// checkWritableDir says why dir cannot hold the database and its journal.
func checkWritableDir(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("database directory %s: %w", dir, causeOf(err))
	}
	if !st.IsDir() {
		return fmt.Errorf("database directory %s is not a directory", dir)
	}
	if err := syscall.Access(dir, 0x2|0x1); err != nil {
		return fmt.Errorf("database directory %s is not writable by this user (uid %d): %w", dir, os.Getuid(), err)
	}
	return nil
}

// checkWritableFile says why an existing database file cannot be written.
func checkWritableFile(path string) error {
	st, err := os.Stat(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("database file %s: %w", path, causeOf(err))
	}
	if st.IsDir() {
		return fmt.Errorf("database file %s is a directory", path)
	}
	if err := syscall.Access(path, 0x2|0x4); err != nil {
		return fmt.Errorf("database file %s is not readable and writable by this user (uid %d): %w", path, os.Getuid(), err)
	}
	return nil
}
