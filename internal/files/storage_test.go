package files

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/minio/minio-go/v7"

	"github.com/trove-ml/trove/internal/config"
)

// testS3Config names a bucket on the S3-compatible server of
// TROVE_TEST_S3 (see scripts/s3-start), or reports false without one.
func testS3Config(t testing.TB) (config.FilesS3, bool) {
	ep := os.Getenv("TROVE_TEST_S3")
	if ep == "" {
		return config.FilesS3{}, false
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return config.FilesS3{Endpoint: ep, Bucket: "trove-test-" + hex.EncodeToString(b), Prefix: "pre/",
		Region: "us-east-1", AccessKey: "testing", SecretKey: "testing"}, true
}

type testStorage struct {
	name  string
	st    Storage
	spool string
}

// storages returns the local disk always and the S3 backend when
// TROVE_TEST_S3 names a server.
func storages(t *testing.T) []testStorage {
	l, err := NewLocal(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	out := []testStorage{{"local", l, l.SpoolDir()}}
	if cfg, ok := testS3Config(t); ok {
		s, err := NewS3(context.Background(), cfg)
		if err != nil {
			t.Fatalf("s3 at %s: %v", cfg.Endpoint, err)
		}
		out = append(out, testStorage{"s3", s, t.TempDir()})
	}
	return out
}

func put(t *testing.T, ts testStorage, key Key, content string) {
	t.Helper()
	f, err := os.CreateTemp(ts.spool, "upload-*")
	if err != nil {
		t.Fatal(err)
	}
	defer removeSpooled(f)
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
	if err := ts.st.Put(context.Background(), key, f, int64(len(content))); err != nil {
		t.Fatalf("put %v: %v", key, err)
	}
}

func read(t *testing.T, st Storage, key Key) (string, error) {
	t.Helper()
	obj, err := st.Open(context.Background(), key)
	if err != nil {
		return "", err
	}
	defer obj.Close()
	b, err := io.ReadAll(obj)
	if err != nil {
		t.Fatalf("read %v: %v", key, err)
	}
	if int64(len(b)) != obj.Size {
		t.Fatalf("read %v: %d bytes, size says %d", key, len(b), obj.Size)
	}
	return string(b), nil
}

// TestStorage runs the same scenario on every backend.
func TestStorage(t *testing.T) {
	ctx := context.Background()
	for _, ts := range storages(t) {
		t.Run(ts.name, func(t *testing.T) {
			a := Key{Company: "company-a", Path: "proj/task 1.abc/artifacts/x/data ü.json"}
			b := Key{Company: "company-b", Path: a.Path}
			put(t, ts, a, `{"v": 1}`)
			put(t, ts, b, "other company")
			if got, err := read(t, ts.st, a); err != nil || got != `{"v": 1}` {
				t.Fatalf("a = %q, %v", got, err)
			}
			put(t, ts, a, "replaced, longer content")
			if got, _ := read(t, ts.st, a); got != "replaced, longer content" {
				t.Fatalf("overwrite: %q", got)
			}
			if got, _ := read(t, ts.st, b); got != "other company" {
				t.Fatalf("companies mixed: %q", got)
			}

			obj, err := ts.st.Open(ctx, a)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := obj.Seek(10, io.SeekStart); err != nil {
				t.Fatal(err)
			}
			part := make([]byte, 6)
			if _, err := io.ReadFull(obj, part); err != nil || string(part) != "longer" {
				t.Fatalf("ranged read %q, %v", part, err)
			}
			obj.Close()

			missing := Key{Company: "company-a", Path: "proj/nothing.bin"}
			if _, err := ts.st.Open(ctx, missing); !errors.Is(err, ErrNotFound) {
				t.Fatalf("open missing: %v", err)
			}
			if err := ts.st.Delete(ctx, missing); !errors.Is(err, ErrNotFound) {
				t.Fatalf("delete missing: %v", err)
			}
			if err := ts.st.Delete(ctx, a); err != nil {
				t.Fatalf("delete: %v", err)
			}
			if _, err := ts.st.Open(ctx, a); !errors.Is(err, ErrNotFound) {
				t.Fatalf("open deleted: %v", err)
			}
			if got, _ := read(t, ts.st, b); got != "other company" {
				t.Fatalf("delete reached the other company: %q", got)
			}
			put(t, ts, Key{Company: "company-a", Path: "empty.txt"}, "")
			if got, err := read(t, ts.st, Key{Company: "company-a", Path: "empty.txt"}); err != nil || got != "" {
				t.Fatalf("empty file: %q, %v", got, err)
			}
			if entries, _ := os.ReadDir(ts.spool); len(entries) != 0 {
				t.Fatalf("spool not empty: %v", entries)
			}
		})
	}
}

// TestLocalLayout covers what only a filesystem has: directories,
// symlinks, pruning and the spool.
func TestLocalLayout(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	l, err := NewLocal(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ts := testStorage{"local", l, l.SpoolDir()}
	co := "company-a"
	put(t, ts, Key{co, "p/t/artifacts/a/file.txt"}, "x")
	put(t, ts, Key{co, "p/t/models/m.bin"}, "m")
	put(t, ts, Key{co, "p/flat"}, "f")
	if b, err := os.ReadFile(filepath.Join(dir, co, "p/t/artifacts/a/file.txt")); err != nil || string(b) != "x" {
		t.Fatalf("layout: %q, %v", b, err)
	}

	for _, p := range []string{"p/t", "p/flat/x"} {
		if _, err := l.Open(ctx, Key{co, p}); !errors.Is(err, ErrNotFound) {
			t.Errorf("open %s: %v", p, err)
		}
		if err := l.Delete(ctx, Key{co, p}); !errors.Is(err, ErrNotFound) {
			t.Errorf("delete %s: %v", p, err)
		}
	}
	f, _ := os.CreateTemp(l.SpoolDir(), "upload-*")
	if err := l.Put(ctx, Key{co, "p/flat/x"}, f, 0); !errors.Is(err, ErrConflict) {
		t.Errorf("put under a file: %v", err)
	}
	if err := l.Put(ctx, Key{co, "p/t"}, f, 0); !errors.Is(err, ErrConflict) {
		t.Errorf("put over a directory: %v", err)
	}
	removeSpooled(f)

	// Deleting the last file of a directory prunes the empty parents, up
	// to the company's directory.
	if err := l.Delete(ctx, Key{co, "p/t/artifacts/a/file.txt"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, co, "p/t/artifacts")); !os.IsNotExist(err) {
		t.Errorf("empty directories left: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, co, "p/t/models/m.bin")); err != nil {
		t.Errorf("sibling removed: %v", err)
	}

	// Symlinks: inside the company's files they work; leading out
	// (elsewhere on disk, or to another company) they are refused.
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o600); err != nil {
		t.Fatal(err)
	}
	put(t, ts, Key{"company-b", "b/secret"}, "b")
	must(t, os.Symlink(outside, filepath.Join(dir, co, "out")))
	must(t, os.Symlink(filepath.Join(dir, "company-b", "b"), filepath.Join(dir, co, "tob")))
	must(t, os.Symlink("../p/t/models", filepath.Join(dir, co, "p", "alias")))
	must(t, os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, co, "filelink")))
	must(t, os.Symlink("/nonexistent/x", filepath.Join(dir, co, "dangling")))
	for _, p := range []string{"out/secret", "tob/secret", "filelink", "dangling/x"} {
		if _, err := l.Open(ctx, Key{co, p}); !errors.Is(err, ErrBadPath) {
			t.Errorf("open through symlink %s: %v", p, err)
		}
		if err := l.Delete(ctx, Key{co, p}); !errors.Is(err, ErrBadPath) {
			t.Errorf("delete through symlink %s: %v", p, err)
		}
		f, _ := os.CreateTemp(l.SpoolDir(), "upload-*")
		if err := l.Put(ctx, Key{co, p}, f, 0); !errors.Is(err, ErrBadPath) {
			t.Errorf("put through symlink %s: %v", p, err)
		}
		removeSpooled(f)
	}
	if got, err := read(t, l, Key{co, "p/alias/m.bin"}); err != nil || got != "m" {
		t.Errorf("symlink inside the company: %q, %v", got, err)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "secret")); string(b) != "s" {
		t.Errorf("outside file changed: %q", b)
	}

	// A restart empties the spool of half-received uploads.
	must(t, os.WriteFile(filepath.Join(l.SpoolDir(), "upload-123"), []byte("half"), 0o600))
	l2, err := NewLocal(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	if entries, _ := os.ReadDir(l2.SpoolDir()); len(entries) != 0 {
		t.Errorf("spool not cleared: %v", entries)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// The S3 objects carry the headers Trove sends for them, so a reader of
// the bucket itself (a presigned or public URL) gets no page either. (Runs
// with TROVE_TEST_S3, like the S3 cases of every test here.)
func TestS3ObjectHeaders(t *testing.T) {
	for _, ts := range storages(t) {
		s3, ok := ts.st.(*S3)
		if !ok {
			continue
		}
		cases := []struct{ path, ctype, disp string }{
			{"x/page.html", "text/html; charset=utf-8", "attachment; filename=page.html"},
			{"x/drawing.svg", "image/svg+xml", "attachment; filename=drawing.svg"},
			{"x/trap.png", "image/png", ""},
		}
		for _, c := range cases {
			key := Key{Company: "c1", Path: c.path}
			put(t, ts, key, "<html><script>alert(1)</script></html>")
			info, err := s3.client.StatObject(context.Background(), s3.bucket, s3.object(key), minio.StatObjectOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if info.ContentType != c.ctype || info.Metadata.Get("Content-Disposition") != c.disp {
				t.Errorf("%s: %q %q, want %q %q", c.path, info.ContentType, info.Metadata.Get("Content-Disposition"), c.ctype, c.disp)
			}
		}
	}
}
