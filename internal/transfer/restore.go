package transfer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/trove-ml/trove/internal/store"
)

// Restore unpacks a backup archive into a new data dir, all or nothing:
// it unpacks into a temporary directory beside the target, checks the
// archive's framing, the files and the database against the manifest
// (sizes, counts, SHA-256) and the database with quick_check, opens the
// store once there (applying any newer migrations), and only then renames
// the directory into place. A failure leaves no target behind and says
// what was wrong. The restored data dir is 0700 (os.MkdirTemp's mode).
func Restore(ctx context.Context, archive string, loc store.Location, dataDir string) (ArchiveReport, error) {
	var rep ArchiveReport
	if loc.Backend != "sqlite" {
		return rep, fmt.Errorf("restore: %s", postgresBackupHelp)
	}
	target, err := filepath.Abs(dataDir)
	if err != nil {
		return rep, fmt.Errorf("restore: %w", err)
	}
	dbPath, err := filepath.Abs(loc.Path)
	if err != nil {
		return rep, fmt.Errorf("restore: %w", err)
	}
	if err := requireEmptyDir(target); err != nil {
		return rep, err
	}
	if _, err := os.Stat(dbPath); err == nil {
		return rep, fmt.Errorf("restore: the database file %s exists; restore only into a new store", dbPath)
	}
	if _, err := os.Stat(archive); err != nil {
		return rep, fmt.Errorf("restore: %w", err)
	}
	parent := filepath.Dir(target)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return rep, fmt.Errorf("restore: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, ".trove-restore-")
	if err != nil {
		return rep, fmt.Errorf("restore: %w", err)
	}
	committed := false
	// the database unpacks inside the temporary dir when it lives in the
	// data dir, else beside its own final place
	tmpDB := ""
	if rel, err := filepath.Rel(target, dbPath); err == nil && filepath.IsLocal(rel) {
		tmpDB = filepath.Join(tmp, rel)
	} else {
		if err := os.MkdirAll(filepath.Dir(dbPath), 0o755); err != nil {
			os.RemoveAll(tmp)
			return rep, fmt.Errorf("restore: %w", err)
		}
		tmpDB = filepath.Join(filepath.Dir(dbPath), "."+filepath.Base(tmp)+"-"+filepath.Base(dbPath))
	}
	defer func() {
		if !committed {
			os.RemoveAll(tmp)
			removeDBFiles(tmpDB)
		}
	}()

	u, err := readArchive(ctx, archive, tmpDB, filepath.Join(tmp, "files"))
	if err != nil {
		return rep, fmt.Errorf("restore: %w; nothing was restored", err)
	}
	if rep, err = u.check(ctx, archive, tmpDB); err != nil {
		return rep, fmt.Errorf("restore: %w; nothing was restored", err)
	}
	db, err := store.Open(ctx, tmpDB, tmp)
	if err != nil {
		return rep, fmt.Errorf("restore: the restored database does not open: %w; nothing was restored", err)
	}
	if err := db.Close(); err != nil {
		return rep, fmt.Errorf("restore: %w; nothing was restored", err)
	}
	rep.Checked = append(rep.Checked, "the store opens (migrations applied)")

	// commit: the database (when outside the data dir), then the dir;
	// an empty target dir gives way (os.Rename does not replace a dir)
	if err := os.Remove(target); err != nil && !os.IsNotExist(err) {
		return rep, fmt.Errorf("restore: data dir %s: %w; nothing was restored", target, err)
	}
	if !isUnder(tmp, tmpDB) {
		_ = os.Remove(tmpDB + ".lock")
		if err := os.Rename(tmpDB, dbPath); err != nil {
			return rep, fmt.Errorf("restore: %w; nothing was restored", err)
		}
		if err := os.Rename(tmp, target); err != nil {
			removeDBFiles(dbPath)
			return rep, fmt.Errorf("restore: %w; nothing was restored", err)
		}
		syncDir(filepath.Dir(dbPath))
	} else if err := os.Rename(tmp, target); err != nil {
		return rep, fmt.Errorf("restore: %w; nothing was restored", err)
	}
	committed = true
	syncDir(parent)
	return rep, nil
}

func isUnder(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel)
}

// removeDBFiles removes a SQLite file with its log, shared memory and lock.
func removeDBFiles(path string) {
	for _, suffix := range []string{"", "-wal", "-shm", ".lock"} {
		_ = os.Remove(path + suffix)
	}
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// requireEmptyDir refuses a data dir that holds anything.
func requireEmptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("restore: data dir %s: %w", dir, err)
	}
	if len(entries) > 0 {
		return fmt.Errorf("restore: data dir %s is not empty (it holds %s); restore only into a new, empty data dir", dir, entries[0].Name())
	}
	return nil
}
