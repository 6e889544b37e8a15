package store

import (
	"fmt"
	"io/fs"
	"os"
)

// The data dir and the SQLite database hold the token signing secret (when
// it is not given from outside), the hashes of every key and password and
// every record: only the user Trove runs as may read them.
const (
	// DataDirMode is the mode a data dir is created with, or tightened to.
	DataDirMode fs.FileMode = 0o700
	// DBFileMode is the mode of the database file, its -wal and -shm, its
	// lock file and the backups of it.
	DBFileMode fs.FileMode = 0o600
)

// Tightened is a path whose mode let group or others in and was
// narrowed, or could not be (Err: Trove is not its owner); DB.Tightened
// lists them, for the log. A mode that cannot be narrowed does not stop
// the start: the operator may have set the directory up so on purpose.
type Tightened struct {
	Path     string
	Was, Now fs.FileMode
	Err      error
}

func (t Tightened) String() string {
	if t.Err != nil {
		return fmt.Sprintf("%s has mode %04o, open to other users, and cannot be narrowed to %04o: %v", t.Path, t.Was.Perm(), t.Now.Perm(), t.Err)
	}
	return fmt.Sprintf("%s had mode %04o, open to other users: narrowed to %04o", t.Path, t.Was.Perm(), t.Now.Perm())
}

// SecureDir creates dir with DataDirMode, or narrows an existing one
// whose mode lets group or others in to DataDirMode. It reports what it
// narrowed.
func SecureDir(dir string) (*Tightened, error) {
	if err := os.MkdirAll(dir, DataDirMode); err != nil {
		return nil, err
	}
	return tighten(dir, DataDirMode)
}

// secureFile narrows an existing file's mode to DBFileMode when group or
// others may use it; a missing file is left alone.
func secureFile(path string) (*Tightened, error) {
	t, err := tighten(path, DBFileMode)
	if os.IsNotExist(err) {
		return nil, nil
	}
	return t, err
}

func tighten(path string, mode fs.FileMode) (*Tightened, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Mode().Perm()&0o077 == 0 {
		return nil, nil
	}
	t := &Tightened{Path: path, Was: st.Mode().Perm(), Now: mode}
	if err := os.Chmod(path, mode); err != nil {
		t.Err = causeOf(err)
	}
	return t, nil
}

// createPrivate creates path empty with DBFileMode unless it exists: SQLite
// then gives the -wal and -shm files it creates the database file's mode.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, DBFileMode)
	if os.IsExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// secureSQLiteFiles narrows the modes of the database file and its
// companions, returning what it narrowed.
func secureSQLiteFiles(path string) ([]Tightened, error) {
	var out []Tightened
	for _, p := range []string{path, path + "-wal", path + "-shm", path + ".lock"} {
		t, err := secureFile(p)
		if err != nil {
			return out, err
		}
		if t != nil {
			out = append(out, *t)
		}
	}
	return out, nil
}
