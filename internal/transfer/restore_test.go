package transfer_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/transfer"
)

// member is one entry of an archive, for tests that rebuild archives.
type member struct {
	name string
	data []byte
}

// backupFixture builds a SQLite data dir with event logs and stored
// files, backs it up and returns the archive and the stored files.
func backupFixture(t *testing.T) (archive string, stored map[string][]byte) {
	t.Helper()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "data")
	db, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Write().ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM n WHERE i < 4999)
		INSERT INTO event_logs (task, ts, wts, iter, level, worker, msg)
		SELECT 'task' || (i % 20), i, i, i, 'info', 'w', 'line ' || i || ' ' || hex(randomblob(40)) FROM n`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	stored = map[string][]byte{}
	for i := 0; i < 10; i++ {
		p := fmt.Sprintf("proj/task.%d/artifacts/a/data_%d.bin", i%3, i)
		stored[p] = bytes.Repeat([]byte{byte('a' + i)}, 1000*(i+1))
		full := filepath.Join(dir, "files", filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, stored[p], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	archive = filepath.Join(t.TempDir(), "backup.tgz")
	loc, _ := store.Locate("", dir)
	st, err := transfer.Backup(ctx, loc, dir, archive)
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != len(stored) {
		t.Fatalf("backup holds %d files, want %d", st.Files, len(stored))
	}
	return archive, stored
}

// readMembers reads an archive's members in order.
func readMembers(t *testing.T, archive string) []member {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var out []member
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, member{hdr.Name, b})
	}
}

// writeMembers writes members as a new archive and returns its path.
func writeMembers(t *testing.T, ms []member) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rebuilt.tgz")
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, m := range ms {
		if err := tw.WriteHeader(&tar.Header{Name: m.name, Mode: 0o644, Size: int64(len(m.data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(m.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// rebuilt is the archive's members changed by fn, as a new archive.
func rebuilt(t *testing.T, archive string, fn func([]member) []member) string {
	return writeMembers(t, fn(readMembers(t, archive)))
}

func flip(b []byte, at int) []byte {
	out := slices.Clone(b)
	out[at] ^= 0xFF
	return out
}

// damagePages overwrites four pages in the middle of a SQLite file image.
func damagePages(db []byte) []byte {
	out := slices.Clone(db)
	const page = 4096
	pages := len(out) / page
	for _, p := range []int{pages * 4 / 10, pages / 2, pages/2 + 1, pages * 6 / 10} {
		copy(out[p*page:(p+1)*page], bytes.Repeat([]byte{0xA5}, page))
	}
	return out
}

func withMember(name string, fn func([]byte) []byte) func([]member) []member {
	return func(ms []member) []member {
		for i := range ms {
			if ms[i].name == name {
				ms[i].data = fn(ms[i].data)
			}
		}
		return ms
	}
}

func without(name string) func([]member) []member {
	return func(ms []member) []member {
		return slices.DeleteFunc(ms, func(m member) bool { return m.name == name })
	}
}

// restoreTarget is a new data dir path under a fresh parent.
func restoreTarget(t *testing.T) (parent, dataDir string, loc store.Location) {
	parent = t.TempDir()
	dataDir = filepath.Join(parent, "restored")
	loc, _ = store.Locate("", dataDir)
	return parent, dataDir, loc
}

// assertNothingRestored checks that a failed restore left no target and
// no temporary directory behind.
func assertNothingRestored(t *testing.T, parent, dataDir string) {
	t.Helper()
	if _, err := os.Stat(dataDir); !os.IsNotExist(err) {
		t.Fatalf("a failed restore left %s behind (%v)", dataDir, err)
	}
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		t.Errorf("a failed restore left %s in %s", e.Name(), parent)
	}
}

// A damaged, truncated or incomplete archive is refused by restore and
// by verify, saying what is wrong; restore leaves nothing behind, so no
// server can start on a partial data dir.
func TestRestoreRefusesDamagedArchives(t *testing.T) {
	archive, stored := backupFixture(t)
	someFile := "files/proj/task.1/artifacts/a/data_4.bin"
	if _, ok := stored[strings.TrimPrefix(someFile, "files/")]; !ok {
		t.Fatalf("fixture lacks %s", someFile)
	}
	raw, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	cut := func(frac float64) string {
		p := filepath.Join(t.TempDir(), "cut.tgz")
		if err := os.WriteFile(p, raw[:int(float64(len(raw))*frac)], 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	flipped := func(at int) string {
		p := filepath.Join(t.TempDir(), "flipped.tgz")
		if err := os.WriteFile(p, flip(raw, at), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name    string
		archive string
		want    []string
	}{
		{"truncated at 90%", cut(0.9), []string{"is truncated", "unexpected EOF"}},
		{"truncated at 50%", cut(0.5), []string{"is truncated"}},
		{"flipped byte in the compressed stream", flipped(len(raw) / 2), []string{"is damaged"}},
		{"flipped byte in the gzip checksum", flipped(len(raw) - 6), []string{"is damaged", "checksum"}},
		{"flipped byte in a stored file", rebuilt(t, archive, withMember(someFile, func(b []byte) []byte { return flip(b, 10) })),
			[]string{"does not match its manifest", someFile, "SHA-256"}},
		{"flipped byte in the database", rebuilt(t, archive, withMember("trove.db", func(b []byte) []byte { return flip(b, len(b)/2) })),
			[]string{"does not match its manifest", "trove.db is", "SHA-256"}},
		{"missing file", rebuilt(t, archive, without(someFile)), []string{"does not match its manifest", someFile + " is missing", "holds 9 files"}},
		{"extra file", rebuilt(t, archive, func(ms []member) []member {
			return append(ms[:len(ms)-1:len(ms)-1], member{"files/planted.sh", []byte("#!/bin/sh")}, ms[len(ms)-1])
		}), []string{"files/planted.sh is not in the manifest"}},
		{"shortened file", rebuilt(t, archive, withMember(someFile, func(b []byte) []byte { return b[:len(b)/2] })),
			[]string{someFile + " is 2500 bytes, the manifest says 5000"}},
		{"no database", rebuilt(t, archive, without("trove.db")), []string{"holds no trove.db"}},
		{"damaged database without manifest", rebuilt(t, archive, func(ms []member) []member {
			return withMember("trove.db", damagePages)(without("MANIFEST.json")(ms))
		}), []string{"database in the archive is unusable", "integrity check"}},
		{"unknown member", rebuilt(t, archive, func(ms []member) []member { return append(ms, member{"../etc/passwd", []byte("x")}) }),
			[]string{"is not part of a Trove backup"}},
		{"not gzip", func() string {
			p := filepath.Join(t.TempDir(), "plain.txt")
			_ = os.WriteFile(p, []byte("hello"), 0o600)
			return p
		}(), []string{"not a Trove backup"}},
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			parent, dataDir, loc := restoreTarget(t)
			_, rerr := transfer.Restore(ctx, c.archive, loc, dataDir)
			_, verr := transfer.Verify(ctx, c.archive, t.TempDir())
			for _, err := range []error{rerr, verr} {
				if err == nil {
					t.Fatal("a bad archive was accepted")
				}
				for _, want := range c.want {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error should say %q: %v", want, err)
					}
				}
			}
			if !strings.Contains(rerr.Error(), "nothing was restored") {
				t.Errorf("restore error should say nothing was restored: %v", rerr)
			}
			assertNothingRestored(t, parent, dataDir)
		})
	}
}

// A good archive verifies, listing its checks, and restores into a 0700
// data dir holding every file and a store that opens; with --db outside
// the data dir too.
func TestRestoreVerifiedArchive(t *testing.T) {
	ctx := context.Background()
	archive, stored := backupFixture(t)
	rep, err := transfer.Verify(ctx, archive, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Manifest == nil || rep.Files != len(stored) || rep.SchemaVersion == 0 || len(rep.Warnings) != 0 {
		t.Fatalf("verify report: %+v", rep)
	}
	checked := strings.Join(rep.Checked, "\n")
	for _, want := range []string{"gzip checksum", fmt.Sprintf("%d files", len(stored)), "SHA-256", "quick_check ok"} {
		if !strings.Contains(checked, want) {
			t.Errorf("checks should mention %q:\n%s", want, checked)
		}
	}
	for _, external := range []bool{false, true} {
		t.Run(fmt.Sprintf("external db %v", external), func(t *testing.T) {
			parent, dataDir, loc := restoreTarget(t)
			if external {
				loc, _ = store.Locate(filepath.Join(t.TempDir(), "elsewhere", "store.db"), dataDir)
			}
			rep, err := transfer.Restore(ctx, archive, loc, dataDir)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Files != len(stored) {
				t.Fatalf("restored %d files", rep.Files)
			}
			info, err := os.Stat(dataDir)
			if err != nil || info.Mode().Perm() != 0o700 {
				t.Fatalf("restored data dir: %v %v", info.Mode(), err)
			}
			for p, want := range stored {
				got, err := os.ReadFile(filepath.Join(dataDir, "files", filepath.FromSlash(p)))
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("restored %s: %d bytes, %v", p, len(got), err)
				}
			}
			entries, _ := os.ReadDir(parent)
			if len(entries) != 1 {
				t.Fatalf("restore left more than the data dir in %s: %v", parent, entries)
			}
			db, err := store.OpenWith(ctx, loc.Path, dataDir, store.Options{Integrity: store.IntegrityFull})
			if err != nil {
				t.Fatal(err)
			}
			var n int
			if err := db.Read().QueryRowContext(ctx, `SELECT COUNT(*) FROM event_logs`).Scan(&n); err != nil || n != 5000 {
				t.Fatalf("restored events: %d %v", n, err)
			}
			db.Close()
			if external {
				if _, err := os.Stat(filepath.Join(dataDir, "trove.db")); !os.IsNotExist(err) {
					t.Fatalf("the database was restored into the data dir, not %s", loc.Path)
				}
				left, _ := os.ReadDir(filepath.Dir(loc.Path))
				for _, e := range left {
					if strings.HasPrefix(e.Name(), ".") {
						t.Errorf("restore left %s beside the database", e.Name())
					}
				}
			}
		})
	}
}

// A backup made before manifests is accepted after the other checks
// (framing, quick_check, opening), with a warning saying what could not
// be checked.
func TestRestoreArchiveWithoutManifest(t *testing.T) {
	ctx := context.Background()
	archive, stored := backupFixture(t)
	old := rebuilt(t, archive, without("MANIFEST.json"))
	rep, err := transfer.Verify(ctx, old, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Manifest != nil || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "no MANIFEST.json") {
		t.Fatalf("verify of an old archive: %+v", rep)
	}
	_, dataDir, loc := restoreTarget(t)
	rep, err = transfer.Restore(ctx, old, loc, dataDir)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Files != len(stored) || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "cannot be detected") {
		t.Fatalf("restore of an old archive: %+v", rep)
	}
}

// A failed restore into an existing empty data dir leaves it as it was.
func TestRestoreKeepsEmptyTargetOnFailure(t *testing.T) {
	ctx := context.Background()
	archive, _ := backupFixture(t)
	raw, _ := os.ReadFile(archive)
	bad := filepath.Join(t.TempDir(), "cut.tgz")
	if err := os.WriteFile(bad, raw[:len(raw)*9/10], 0o600); err != nil {
		t.Fatal(err)
	}
	parent, dataDir, loc := restoreTarget(t)
	if err := os.Mkdir(dataDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := transfer.Restore(ctx, bad, loc, dataDir); err == nil {
		t.Fatal("a truncated archive was restored")
	}
	entries, _ := os.ReadDir(dataDir)
	if len(entries) != 0 {
		t.Fatalf("the data dir holds %v after a failed restore", entries)
	}
	all, _ := os.ReadDir(parent)
	if len(all) != 1 {
		t.Fatalf("a failed restore left %v in %s", all, parent)
	}
	if _, err := transfer.Restore(ctx, archive, loc, dataDir); err != nil {
		t.Fatalf("the good archive into the same dir: %v", err)
	}
}

// A backup of a store written by a newer Trove verifies with a warning
// and is not restored by this one: its store would be refused at start.
func TestRestoreRefusesArchiveOfNewerSchema(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "data")
	db, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Write().ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, '9999_later.sql', 0)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	archive := filepath.Join(t.TempDir(), "newer.tgz")
	loc, _ := store.Locate("", dir)
	if _, err := transfer.Backup(ctx, loc, dir, archive); err != nil {
		t.Fatal(err)
	}
	rep, err := transfer.Verify(ctx, archive, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if rep.SchemaVersion != 9999 || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "newer than this Trove's") {
		t.Fatalf("verify of a newer archive: %+v", rep)
	}
	parent, dataDir, rloc := restoreTarget(t)
	_, err = transfer.Restore(ctx, archive, rloc, dataDir)
	if !errors.Is(err, store.ErrNewerStore) || !strings.Contains(err.Error(), "nothing was restored") {
		t.Fatalf("restore of a newer archive: %v", err)
	}
	assertNothingRestored(t, parent, dataDir)
}
