package files

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// spoolName is the directory under a Local root where uploads are
// received before they are renamed into place. Company directories never
// start with a dot, so it cannot clash with one.
const spoolName = ".incoming"

// Local keeps files on the local disk as <dir>/<company>/<path>. All file
// operations go through an os.Root, so nothing outside dir is ever
// touched; on top of that a symlink inside a company's directory may not
// lead out of it.
type Local struct {
	dir   string
	spool string
	root  *os.Root
	fsync bool
}

// NewLocal opens (creating) the storage directory and empties its spool
// of uploads that a previous run left half-received. With fsync, each
// upload reaches the disk before it is renamed into place, so that even a
// power loss never leaves a partial file under the final name.
func NewLocal(dir string, fsync bool) (*Local, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("files dir: %w", err)
	}
	spool := filepath.Join(abs, spoolName)
	if err := os.MkdirAll(spool, 0o750); err != nil {
		return nil, fmt.Errorf("files dir: %w", err)
	}
	if err := clearSpool(spool); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("files dir: %w", err)
	}
	return &Local{dir: abs, spool: spool, root: root, fsync: fsync}, nil
}

// clearSpool removes leftover temp files of interrupted uploads.
func clearSpool(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("files spool: %w", err)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("files spool: %w", err)
		}
	}
	return nil
}

// SpoolDir is where uploads must be spooled so Put can rename them.
func (l *Local) SpoolDir() string { return l.spool }

// Close releases the root directory.
func (l *Local) Close() error { return l.root.Close() }

func (l *Local) rel(key Key) string { return companyDir(key.Company) + "/" + key.Path }

// Put renames the spooled file into place (after syncing it to disk when
// so configured), so a crash leaves either the old file or the complete
// new one.
func (l *Local) Put(ctx context.Context, key Key, src *os.File, size int64) error {
	if filepath.Dir(src.Name()) != l.spool {
		return fmt.Errorf("local storage: %s is not in the spool %s", src.Name(), l.spool)
	}
	if err := l.inside(key); err != nil {
		return err
	}
	if l.fsync {
		if err := src.Sync(); err != nil {
			return l.fsError(key, err)
		}
	}
	rel := l.rel(key)
	if fi, err := l.root.Lstat(rel); err == nil && fi.IsDir() {
		return fmt.Errorf("%w: %q is a directory", ErrConflict, key.Path)
	}
	from := spoolName + "/" + filepath.Base(src.Name())
	var err error
	// A concurrent Delete may prune the parent between MkdirAll and
	// Rename; then try again.
	for range 3 {
		if err = l.root.MkdirAll(path.Dir(rel), 0o755); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("%w: a parent of %q is a file", ErrConflict, key.Path)
			}
			return l.fsError(key, err)
		}
		if err = l.root.Rename(from, rel); !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	if err != nil {
		return l.fsError(key, err)
	}
	return nil
}

// Open opens a stored regular file.
func (l *Local) Open(ctx context.Context, key Key) (*Object, error) {
	if err := l.inside(key); err != nil {
		return nil, err
	}
	f, err := l.root.Open(l.rel(key))
	if errors.Is(err, syscall.ENOTDIR) {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, key.Path)
	}
	if err != nil {
		return nil, l.fsError(key, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, l.fsError(key, err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%w: %q is not a file", ErrNotFound, key.Path)
	}
	return &Object{ReadSeekCloser: f, Size: fi.Size(), ModTime: fi.ModTime()}, nil
}

// Delete removes a stored file and then the directories it leaves empty,
// up to the company's directory, so deleted tasks leave no litter.
func (l *Local) Delete(ctx context.Context, key Key) error {
	if err := l.inside(key); err != nil {
		return err
	}
	rel := l.rel(key)
	fi, err := l.root.Lstat(rel)
	if errors.Is(err, syscall.ENOTDIR) {
		return fmt.Errorf("%w: %q", ErrNotFound, key.Path)
	}
	if err != nil {
		return l.fsError(key, err)
	}
	if fi.IsDir() {
		return fmt.Errorf("%w: %q is a directory", ErrNotFound, key.Path)
	}
	if err := l.root.Remove(rel); err != nil {
		return l.fsError(key, err)
	}
	top := companyDir(key.Company)
	for d := path.Dir(rel); d != top && d != "."; d = path.Dir(d) {
		fi, err := l.root.Lstat(d)
		if err != nil || !fi.IsDir() || l.root.Remove(d) != nil {
			break // not empty (or not ours to prune): stop
		}
	}
	return nil
}

// inside refuses a path that passes through a symlink leading out of the
// company's directory (or dangling).
func (l *Local) inside(key Key) error {
	top := companyDir(key.Company)
	base, err := filepath.EvalSymlinks(filepath.Join(l.dir, top))
	if err != nil {
		return nil // no directory yet: nothing to escape through
	}
	cur := top
	for _, seg := range strings.Split(key.Path, "/") {
		cur += "/" + seg
		fi, err := l.root.Lstat(cur)
		if err != nil {
			return nil // the rest does not exist; the operation reports it
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		target, err := filepath.EvalSymlinks(filepath.Join(l.dir, filepath.FromSlash(cur)))
		if err != nil || (target != base && !strings.HasPrefix(target, base+string(filepath.Separator))) {
			return fmt.Errorf("%w %q: a symlink in the path leads out of the company's files", ErrBadPath, key.Path)
		}
	}
	return nil
}

// fsError maps filesystem errors to the package's errors.
func (l *Local) fsError(key Key, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	var errno syscall.Errno
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %q", ErrNotFound, key.Path)
	case errors.As(err, &errno) && errno == syscall.ENOTDIR:
		return fmt.Errorf("%w: a parent of %q is a file", ErrConflict, key.Path)
	case errors.As(err, &errno) && errno == syscall.EISDIR:
		return fmt.Errorf("%w: %q is a directory", ErrConflict, key.Path)
	case errors.As(err, &errno) && errno == syscall.ENAMETOOLONG:
		return fmt.Errorf("%w %q: name too long for the filesystem", ErrBadPath, key.Path)
	case errors.As(err, &errno) && (errno == syscall.ENOSPC || errno == syscall.EDQUOT):
		return fmt.Errorf("%w: storing %q: %v", ErrNoSpace, key.Path, err)
	case errors.As(err, &pe) && pe.Err.Error() == "path escapes from parent",
		errors.As(err, &le) && le.Err.Error() == "path escapes from parent":
		// os.Root refused a symlink out of the storage root.
		return fmt.Errorf("%w %q: a symlink in the path leads out of the file storage", ErrBadPath, key.Path)
	}
	return fmt.Errorf("file storage %q: %w", key.Path, err)
}
