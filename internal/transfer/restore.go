package transfer

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/trove-ml/trove/internal/store"
)

// Restore unpacks a backup archive into an empty data dir: the database
// to the SQLite file of loc, stored files under dataDir/files. It then
// opens the store once, which checks the database and applies any newer
// migrations.
func Restore(ctx context.Context, archive string, loc store.Location, dataDir string) (BackupStats, error) {
	var st BackupStats
	if loc.Backend != "sqlite" {
		return st, fmt.Errorf("restore: %s", postgresBackupHelp)
	}
	if err := requireEmptyDir(dataDir); err != nil {
		return st, err
	}
	if _, err := os.Stat(loc.Path); err == nil {
		return st, fmt.Errorf("restore: the database file %s exists; restore only into a new store", loc.Path)
	}
	in, err := os.Open(archive)
	if err != nil {
		return st, fmt.Errorf("restore: %w", err)
	}
	defer in.Close()
	gz, err := gzip.NewReader(in)
	if err != nil {
		return st, fmt.Errorf("restore: %s is not a Trove backup: %w", archive, err)
	}
	if _, err := store.SecureDir(dataDir); err != nil {
		return st, fmt.Errorf("restore: data dir %s: %w", dataDir, err)
	}
	tr := tar.NewReader(gz)
	sawDB := false
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return st, fmt.Errorf("restore: read %s: %w", archive, err)
		}
		if hdr.Typeflag != tar.TypeReg {
			continue
		}
		switch {
		case hdr.Name == archiveDB:
			sawDB = true
			if st.DBBytes, err = writeMember(tr, loc.Path, store.DBFileMode); err != nil {
				return st, fmt.Errorf("restore: %w", err)
			}
		case strings.HasPrefix(hdr.Name, archiveFiles):
			dst, err := archivePath(filepath.Join(dataDir, "files"), strings.TrimPrefix(hdr.Name, archiveFiles))
			if err != nil {
				return st, fmt.Errorf("restore: %w", err)
			}
			n, err := writeMember(tr, dst, 0o644)
			if err != nil {
				return st, fmt.Errorf("restore: %w", err)
			}
			st.Files++
			st.FilesBytes += n
		}
	}
	if !sawDB {
		return st, fmt.Errorf("restore: %s holds no %s: not a Trove backup", archive, archiveDB)
	}
	db, err := store.Open(ctx, loc.Path, dataDir)
	if err != nil {
		return st, fmt.Errorf("restore: the restored database does not open: %w", err)
	}
	return st, db.Close()
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

// writeMember writes the current archive member to path with mode,
// synced.
func writeMember(r io.Reader, path string, mode os.FileMode) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(f, r)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return n, err
}
