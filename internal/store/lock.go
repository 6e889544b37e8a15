package store

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// fileLock is an exclusive flock on a file that also records the pid of
// its holder, so a second server on the same data names the first.
type fileLock struct {
	f *os.File
}

// lockFile takes the lock at path or says which process holds it.
func lockFile(path string) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, causeOf(err))
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b, _ := os.ReadFile(path)
		f.Close()
		holder := strings.TrimSpace(string(b))
		if errors.Is(err, syscall.EWOULDBLOCK) {
			if _, perr := strconv.Atoi(holder); perr == nil {
				return nil, fmt.Errorf("%s is in use by another Trove (process %s holds the lock %s); stop it first", strings.TrimSuffix(path, ".lock"), holder, path)
			}
			return nil, fmt.Errorf("%s is in use by another Trove (lock %s is held); stop it first", strings.TrimSuffix(path, ".lock"), path)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &fileLock{f: f}, nil
}

// release drops the lock; the file stays (removing it would race a
// process about to lock it).
func (l *fileLock) release() error {
	if l == nil {
		return nil
	}
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
