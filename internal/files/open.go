package files

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/trove-ml/trove/internal/config"
)

// OpenStorage opens the configured storage and returns it with the spool
// directory uploads are received in: for local storage, a directory of
// <dataDir>/files itself (so a finished upload is only renamed); for S3,
// <dataDir>/files-spool. Leftovers of interrupted uploads are removed.
func OpenStorage(ctx context.Context, cfg config.Files, dataDir string) (Storage, string, error) {
	switch cfg.Storage {
	case "", "local":
		l, err := NewLocal(filepath.Join(dataDir, "files"), cfg.Fsync)
		if err != nil {
			return nil, "", err
		}
		return l, l.SpoolDir(), nil
	case "s3":
		spool := filepath.Join(dataDir, "files-spool")
		if err := os.MkdirAll(spool, 0o750); err != nil {
			return nil, "", fmt.Errorf("files spool: %w", err)
		}
		if err := clearSpool(spool); err != nil {
			return nil, "", err
		}
		s, err := NewS3(ctx, cfg.S3)
		if err != nil {
			return nil, "", err
		}
		return s, spool, nil
	}
	return nil, "", fmt.Errorf("files.storage must be local or s3, got %q", cfg.Storage)
}

// Close releases the storage when it holds resources (the local root).
func (s *Service) Close() error {
	if s == nil {
		return nil
	}
	if c, ok := s.store.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
