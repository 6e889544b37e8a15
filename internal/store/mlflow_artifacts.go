package store

import (
	"context"
	"strings"
)

// The index of files stored through MLflow's artifact proxy (issue 38),
// table mlflow_artifacts: the storage backends cannot list a folder, so
// MLflow's list calls read this.

// ArtifactFile is one stored artifact: its path under the company's
// MLflow root, its size and its time of writing (epoch ms).
type ArtifactFile struct {
	Path     string
	Size     int64
	Modified int64
}

// PutArtifact records (or re-records) a stored artifact.
func (db *DB) PutArtifact(ctx context.Context, company string, f ArtifactFile) error {
	_, err := db.Write().ExecContext(ctx, `INSERT INTO mlflow_artifacts (company, path, size, modified) VALUES (?, ?, ?, ?)
		ON CONFLICT (company, path) DO UPDATE SET size = excluded.size, modified = excluded.modified`,
		company, f.Path, f.Size, f.Modified)
	return err
}

// ArtifactPrefixEnd is the smallest string above every path under
// prefix+"/" ("/" + 1 is "0").
func artifactRange(prefix string) (string, string) {
	if prefix == "" {
		return "", "\U0010FFFF"
	}
	return prefix + "/", prefix + "0"
}

// ListArtifacts returns the artifacts under folder prefix ("" for all),
// in path order, at most limit of them.
func (db *DB) ListArtifacts(ctx context.Context, company, prefix string, limit int) ([]ArtifactFile, error) {
	lo, hi := artifactRange(strings.TrimSuffix(prefix, "/"))
	rows, err := db.Read().QueryContext(ctx, `SELECT path, size, modified FROM mlflow_artifacts
		WHERE company = ? AND path >= ? AND path < ? ORDER BY path LIMIT ?`, company, lo, hi, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ArtifactFile
	for rows.Next() {
		var f ArtifactFile
		if err := rows.Scan(&f.Path, &f.Size, &f.Modified); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// GetArtifact reads one artifact's entry (ErrNotFound when none).
func (db *DB) GetArtifact(ctx context.Context, company, path string) (*ArtifactFile, error) {
	f := &ArtifactFile{}
	err := db.Read().QueryRowContext(ctx, `SELECT path, size, modified FROM mlflow_artifacts WHERE company = ? AND path = ?`,
		company, path).Scan(&f.Path, &f.Size, &f.Modified)
	if err != nil {
		return nil, NoRow(err, "artifact")
	}
	return f, nil
}

// DeleteArtifact removes one artifact's entry.
func (db *DB) DeleteArtifact(ctx context.Context, company, path string) error {
	_, err := db.Write().ExecContext(ctx, `DELETE FROM mlflow_artifacts WHERE company = ? AND path = ?`, company, path)
	return err
}
