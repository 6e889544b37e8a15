package transfer

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/trove-ml/trove/internal/store"
)

// archiveManifest is the last member of a backup: what the archive holds,
// with sizes and SHA-256 checksums, so a restore can tell a damaged or
// incomplete archive from a good one before it is used.
const archiveManifest = "MANIFEST.json"

// manifestFormat is the version of the manifest's layout.
const manifestFormat = 1

// maxManifestBytes bounds the manifest read from an archive.
const maxManifestBytes = 1 << 30

// Manifest describes a backup archive.
type Manifest struct {
	Format  int       `json:"format"`
	Created time.Time `json:"created"`
	// SchemaVersion is the newest migration of the database.
	SchemaVersion int          `json:"schema_version"`
	Database      Entry        `json:"database"`
	Files         []Entry      `json:"files"`
	Counts        ManifestSums `json:"counts"`
}

// ManifestSums are the totals of a manifest's files.
type ManifestSums struct {
	Files      int   `json:"files"`
	FilesBytes int64 `json:"files_bytes"`
}

// Entry is one archive member.
type Entry struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// hashingWriter counts and hashes what passes through it.
type hashingWriter struct {
	w    io.Writer
	h    hashState
	size int64
}

type hashState interface {
	io.Writer
	Sum([]byte) []byte
}

func newHashingWriter(w io.Writer) *hashingWriter {
	return &hashingWriter{w: w, h: sha256.New()}
}

func (hw *hashingWriter) Write(p []byte) (int, error) {
	n, err := hw.w.Write(p)
	_, _ = hw.h.Write(p[:n]) // a hash's Write never fails
	hw.size += int64(n)
	return n, err
}

func (hw *hashingWriter) entry(name string) Entry {
	return Entry{Name: name, Size: hw.size, SHA256: hex.EncodeToString(hw.h.Sum(nil))}
}

// ArchiveReport says what reading and checking an archive found.
type ArchiveReport struct {
	BackupStats
	// Manifest is the archive's manifest (nil: a backup made before
	// manifests; see Warnings).
	Manifest *Manifest
	// SchemaVersion is the newest migration in the archive's database.
	SchemaVersion int
	// Checked lists what was checked, for the command's output.
	Checked []string
	// Warnings are what could not be checked.
	Warnings []string
}

// noManifestWarning explains the acceptance of a backup without manifest.
const noManifestWarning = "the archive has no MANIFEST.json (made by a Trove before backups carried one): " +
	"its gzip checksum, tar sizes and the database's quick_check passed, but a file missing from the archive cannot be detected"

// unpacked is an archive read by readArchive.
type unpacked struct {
	db       *Entry
	files    map[string]Entry
	manifest *Manifest
}

// readArchive reads the whole archive, checking its gzip and tar framing
// to the end. The database goes to dbPath, stored files under filesDir
// (to nowhere when filesDir is ""); each is measured and hashed.
func readArchive(ctx context.Context, archive, dbPath, filesDir string) (*unpacked, error) {
	in, err := os.Open(archive)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	gz, err := gzip.NewReader(in)
	if err != nil {
		return nil, fmt.Errorf("%s is not a Trove backup (not gzip: %v)", archive, err)
	}
	out := &unpacked{files: map[string]Entry{}}
	tr := tar.NewReader(gz)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, damagedArchive(archive, "after the last whole member", err)
		}
		if hdr.Typeflag == tar.TypeDir {
			continue
		}
		if hdr.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("%s: member %q is not a regular file; not a Trove backup", archive, hdr.Name)
		}
		switch {
		case hdr.Name == archiveDB:
			if out.db != nil {
				return nil, fmt.Errorf("%s holds %s twice", archive, archiveDB)
			}
			e, err := writeMember(tr, dbPath, archiveDB, store.DBFileMode)
			if err != nil {
				return nil, damagedArchive(archive, archiveDB, err)
			}
			out.db = &e
		case hdr.Name == archiveManifest:
			if out.manifest != nil {
				return nil, fmt.Errorf("%s holds %s twice", archive, archiveManifest)
			}
			var m Manifest
			dec := json.NewDecoder(io.LimitReader(tr, maxManifestBytes))
			if err := dec.Decode(&m); err != nil {
				return nil, damagedArchive(archive, archiveManifest, err)
			}
			if m.Format != manifestFormat {
				return nil, fmt.Errorf("%s: manifest format %d is not one this Trove reads (%d); use the Trove that wrote the backup", archive, m.Format, manifestFormat)
			}
			out.manifest = &m
		case strings.HasPrefix(hdr.Name, archiveFiles):
			rel := strings.TrimPrefix(hdr.Name, archiveFiles)
			if _, dup := out.files[rel]; dup {
				return nil, fmt.Errorf("%s holds %s twice", archive, hdr.Name)
			}
			dst := ""
			if filesDir != "" {
				if dst, err = archivePath(filesDir, rel); err != nil {
					return nil, fmt.Errorf("%s: %w", archive, err)
				}
			}
			e, err := writeMember(tr, dst, rel, 0o644)
			if err != nil {
				return nil, damagedArchive(archive, hdr.Name, err)
			}
			out.files[rel] = e
		default:
			return nil, fmt.Errorf("%s: member %q is not part of a Trove backup", archive, hdr.Name)
		}
	}
	// the gzip checksum is checked only at the stream's end
	if _, err := io.Copy(io.Discard, gz); err != nil {
		return nil, damagedArchive(archive, "its end", err)
	}
	if out.db == nil {
		return nil, fmt.Errorf("%s holds no %s: not a Trove backup", archive, archiveDB)
	}
	return out, nil
}

func damagedArchive(archive, where string, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%s is truncated (it ends inside %s): %v", archive, where, err)
	}
	return fmt.Errorf("%s is damaged (reading %s): %v", archive, where, err)
}

// writeMember copies the current member to path (created with mode,
// synced; to nowhere when path is ""), measuring and hashing it. The
// database is private (store.DBFileMode): it holds the token secret.
func writeMember(r io.Reader, path, name string, mode os.FileMode) (Entry, error) {
	if path == "" {
		hw := newHashingWriter(io.Discard)
		_, err := io.Copy(hw, r)
		return hw.entry(name), err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return Entry{}, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return Entry{}, err
	}
	hw := newHashingWriter(f)
	_, err = io.Copy(hw, r)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return hw.entry(name), err
}

// check compares what was read with the manifest, then runs quick_check
// on the database at dbPath. The report lists what was checked.
func (u *unpacked) check(ctx context.Context, archive, dbPath string) (ArchiveReport, error) {
	rep := ArchiveReport{Manifest: u.manifest}
	rep.DBBytes = u.db.Size
	for _, e := range u.files {
		rep.Files++
		rep.FilesBytes += e.Size
	}
	rep.Checked = append(rep.Checked, "gzip checksum and tar framing intact to the end of the archive")
	if m := u.manifest; m != nil {
		var problems []string
		if m.Database.Size != u.db.Size || m.Database.SHA256 != u.db.SHA256 {
			problems = append(problems, fmt.Sprintf("%s is %d bytes with SHA-256 %s, the manifest says %d bytes with %s",
				archiveDB, u.db.Size, short(u.db.SHA256), m.Database.Size, short(m.Database.SHA256)))
		}
		listed := map[string]bool{}
		for _, want := range m.Files {
			listed[want.Name] = true
			got, ok := u.files[want.Name]
			switch {
			case !ok:
				problems = append(problems, fmt.Sprintf("files/%s is missing", want.Name))
			case got.Size != want.Size:
				problems = append(problems, fmt.Sprintf("files/%s is %d bytes, the manifest says %d", want.Name, got.Size, want.Size))
			case got.SHA256 != want.SHA256:
				problems = append(problems, fmt.Sprintf("files/%s has SHA-256 %s, the manifest says %s", want.Name, short(got.SHA256), short(want.SHA256)))
			}
		}
		var extra []string
		for name := range u.files {
			if !listed[name] {
				extra = append(extra, name)
			}
		}
		sort.Strings(extra)
		for _, name := range extra {
			problems = append(problems, fmt.Sprintf("files/%s is not in the manifest", name))
		}
		if m.Counts.Files != len(m.Files) || m.Counts.Files != rep.Files || m.Counts.FilesBytes != rep.FilesBytes {
			problems = append(problems, fmt.Sprintf("the archive holds %d files (%d bytes), the manifest counts %d (%d bytes)",
				rep.Files, rep.FilesBytes, m.Counts.Files, m.Counts.FilesBytes))
		}
		if len(problems) > 0 {
			sort.Strings(problems)
			if len(problems) > 10 {
				problems = append(problems[:10], fmt.Sprintf("and %d more", len(problems)-10))
			}
			return rep, fmt.Errorf("%s does not match its manifest: %s", archive, strings.Join(problems, "; "))
		}
		rep.Checked = append(rep.Checked,
			fmt.Sprintf("manifest: %s (%d bytes) and %d files (%d bytes) present with matching sizes and SHA-256, nothing missing or extra",
				archiveDB, u.db.Size, rep.Files, rep.FilesBytes))
	} else {
		rep.Warnings = append(rep.Warnings, noManifestWarning)
	}
	if err := store.CheckSQLiteFile(ctx, dbPath, store.IntegrityQuick); err != nil {
		return rep, fmt.Errorf("%s: the database in the archive is unusable: %w", archive, err)
	}
	v, err := store.SQLiteSchemaVersion(ctx, dbPath)
	if err != nil {
		return rep, fmt.Errorf("%s: the database in the archive is unusable: %w", archive, err)
	}
	rep.SchemaVersion = v
	rep.Checked = append(rep.Checked, fmt.Sprintf("database quick_check ok, schema version %d", v))
	if newest := store.NewestSQLiteVersion(); v > newest {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the database's schema version %d is newer than this Trove's (%d): restore and serve it with the newer Trove that made it", v, newest))
	}
	return rep, nil
}

func short(sum string) string {
	if len(sum) > 12 {
		return sum[:12] + "…"
	}
	return sum
}

// Verify reads the backup archive whole and checks it as a restore
// would, without restoring: framing, manifest sizes and checksums, and
// quick_check of the database (unpacked into a temporary directory under
// tmpDir, "" for the system's, removed after).
func Verify(ctx context.Context, archive, tmpDir string) (ArchiveReport, error) {
	tmp, err := os.MkdirTemp(tmpDir, ".trove-verify-")
	if err != nil {
		return ArchiveReport{}, fmt.Errorf("verify: %w", err)
	}
	defer os.RemoveAll(tmp)
	dbPath := filepath.Join(tmp, archiveDB)
	u, err := readArchive(ctx, archive, dbPath, "")
	if err != nil {
		return ArchiveReport{}, fmt.Errorf("verify: %w", err)
	}
	rep, err := u.check(ctx, archive, dbPath)
	if err != nil {
		return rep, fmt.Errorf("verify: %w", err)
	}
	return rep, nil
}
