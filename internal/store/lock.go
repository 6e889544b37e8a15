package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// fileLock is an exclusive flock on a file that also records the pid of
// its holder, so a second server on the same data names the first. The
// lock keeps other processes out; opens within one process share it (a
// test may run two servers on one file), counted in held.
type fileLock struct {
	path string
	f    *os.File
	refs int
}

var (
	heldMu sync.Mutex
	held   = map[string]*fileLock{}
)

// ErrInUse is wrapped by the error of a store that another process holds.
var ErrInUse = errors.New("is in use by another Trove")

// lockFile takes the lock at path or says which process holds it.
func lockFile(path string) (*fileLock, error) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	heldMu.Lock()
	defer heldMu.Unlock()
	if l := held[path]; l != nil {
		l.refs++
		return l, nil
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, DBFileMode)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, causeOf(err))
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b, _ := os.ReadFile(path)
		f.Close()
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		what := strings.TrimSuffix(path, ".lock")
		if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil {
			return nil, fmt.Errorf("%s %w: process %d holds the lock %s; stop it first", what, ErrInUse, pid, path)
		}
		return nil, fmt.Errorf("%s %w: the lock %s is held; stop it first", what, ErrInUse, path)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	l := &fileLock{path: path, f: f, refs: 1}
	held[path] = l
	return l, nil
}

// release drops one hold; the last one unlocks. The file stays: removing
// it would race a process about to lock it.
func (l *fileLock) release() error {
	if l == nil {
		return nil
	}
	heldMu.Lock()
	defer heldMu.Unlock()
	if l.refs--; l.refs > 0 {
		return nil
	}
	delete(held, l.path)
	_ = l.f.Truncate(0)
	return l.f.Close()
}

// causeOf unwraps a path error to its cause (the caller names the path).
func causeOf(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
