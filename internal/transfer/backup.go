package transfer

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/trove-ml/trove/internal/store"
)

// Names inside a backup archive.
const (
	archiveDB    = "trove.db"
	archiveFiles = "files/"
	// spoolDir is the local storage's directory of unfinished uploads.
	spoolDir = ".incoming"
)

// BackupStats counts what a backup holds.
type BackupStats struct {
	DBBytes    int64
	Files      int
	FilesBytes int64
}

// postgresBackupHelp explains how PostgreSQL stores are backed up.
const postgresBackupHelp = "the store is PostgreSQL: back it up with pg_dump (pg_dump -Fc -f trove.dump URL) and restore with pg_restore; " +
	"copy the data dir's files/ directory alongside (see \"Moving data and backups\" in the README)"

// Backup writes a gzip'd tar archive to out: a consistent snapshot of the
// SQLite database (taken while a server may run), then the files of the
// local file storage under dataDir/files. The snapshot comes first, so
// every file it refers to was stored before the files are read.
func Backup(ctx context.Context, loc store.Location, dataDir, out string) (BackupStats, error) {
	var st BackupStats
	if loc.Backend != "sqlite" {
		return st, fmt.Errorf("backup: %s", postgresBackupHelp)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(out), ".trove-backup-")
	if err != nil {
		return st, fmt.Errorf("backup: %w", err)
	}
	defer os.RemoveAll(tmp)
	snap := filepath.Join(tmp, archiveDB)
	if err := store.SnapshotSQLite(ctx, loc.Path, snap); err != nil {
		return st, fmt.Errorf("backup: %w", err)
	}
	partial := filepath.Join(tmp, "archive")
	// The archive holds the database, token secret and key hashes
	// included: only its owner may read it.
	f, err := os.OpenFile(partial, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, store.DBFileMode)
	if err != nil {
		return st, fmt.Errorf("backup: %w", err)
	}
	defer f.Close()
	gz, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	tw := tar.NewWriter(gz)
	m := Manifest{Format: manifestFormat, Created: time.Now().UTC()}
	if m.SchemaVersion, err = store.SQLiteSchemaVersion(ctx, snap); err != nil {
		return st, fmt.Errorf("backup: %w", err)
	}
	if m.Database, err = addFile(tw, snap, archiveDB); err != nil {
		return st, fmt.Errorf("backup: %w", err)
	}
	st.DBBytes = m.Database.Size
	if err := addFilesDir(ctx, tw, filepath.Join(dataDir, "files"), &st, &m); err != nil {
		return st, fmt.Errorf("backup: %w", err)
	}
	m.Counts = ManifestSums{Files: st.Files, FilesBytes: st.FilesBytes}
	if err := addManifest(tw, m); err != nil {
		return st, fmt.Errorf("backup: %w", err)
	}
	if err := tw.Close(); err != nil {
		return st, fmt.Errorf("backup: %w", err)
	}
	if err := gz.Close(); err != nil {
		return st, fmt.Errorf("backup: %w", err)
	}
	if err := f.Sync(); err != nil {
		return st, fmt.Errorf("backup: %w", err)
	}
	if err := os.Rename(partial, out); err != nil {
		return st, fmt.Errorf("backup: %w", err)
	}
	return st, nil
}

// addFilesDir archives every stored file under dir (none when the
// storage is S3 or nothing was uploaded), leaving unfinished uploads out,
// and lists each in the manifest m.
func addFilesDir(ctx context.Context, tw *tar.Writer, dir string, st *BackupStats, m *Manifest) error {
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		return nil
	}
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			// A file deleted while walking is simply not backed up.
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if rel == spoolDir {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		e, err := addFile(tw, p, archiveFiles+filepath.ToSlash(rel))
		if os.IsNotExist(err) {
			return nil
		}
		if err != nil {
			return err
		}
		e.Name = filepath.ToSlash(rel)
		m.Files = append(m.Files, e)
		st.Files++
		st.FilesBytes += e.Size
		return nil
	})
}

// addFile appends one regular file to the archive and returns its
// manifest entry.
func addFile(tw *tar.Writer, path, name string) (Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return Entry{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return Entry{}, err
	}
	hdr := &tar.Header{Name: name, Mode: int64(store.DBFileMode), Size: info.Size(), ModTime: info.ModTime(), Typeflag: tar.TypeReg}
	if err := tw.WriteHeader(hdr); err != nil {
		return Entry{}, err
	}
	hw := newHashingWriter(tw)
	n, err := io.Copy(hw, f)
	if err == nil && n != info.Size() {
		err = fmt.Errorf("%s changed size while being backed up", path)
	}
	return hw.entry(name), err
}

// addManifest appends the manifest, the archive's last member.
func addManifest(tw *tar.Writer, m Manifest) error {
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return err
	}
	hdr := &tar.Header{Name: archiveManifest, Mode: 0o600, Size: int64(len(b)), ModTime: m.Created, Typeflag: tar.TypeReg}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	_, err = tw.Write(b)
	return err
}

// archivePath checks an archive member name and returns where it goes
// under root; names that climb out are refused.
func archivePath(root, name string) (string, error) {
	clean := filepath.Clean(filepath.FromSlash(name))
	if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("archive member %q leaves the data dir", name)
	}
	return filepath.Join(root, clean), nil
}
