package mlflow

import (
	"context"
	"errors"
	"mime"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// A file uploaded through the artifact proxy under a run's artifact
// folder (<experiment>/<run>/artifacts/<name>) is also an artifact of the
// task in ClearML's form (execution.artifacts: key <name>, mode output,
// a file server URL), so Trove's UI and the clearml SDK list and download
// it. The bytes are stored once; both URLs name the same stored file.

// ArtifactType is the ClearML artifact type of a run's file.
const ArtifactType = "custom"

// RunArtifactOf splits an artifact path into the run whose artifact
// folder holds it and the file's name in that folder.
func RunArtifactOf(p string) (run, name string, ok bool) {
	parts := strings.SplitN(p, "/", 4)
	if len(parts) != 4 || parts[2] != "artifacts" || parts[0] == "" || parts[1] == "" || parts[3] == "" {
		return "", "", false
	}
	return parts[1], parts[3], true
}

// FileURL is the file server URL of the stored file at storage path p
// (percent-encoded by segment, as the clearml SDK quotes its URLs).
func FileURL(filesURL, p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.TrimRight(filesURL, "/") + "/" + strings.Join(segs, "/")
}

// runOfArtifact loads the run artifact path p belongs to: a task of
// company whose artifact folder is p's; nil when there is none.
func runOfArtifact(ctx context.Context, env *domain.Env, q store.Querier, company, p string) (*store.Task, string, error) {
	run, name, ok := RunArtifactOf(p)
	if !ok {
		return nil, "", nil
	}
	t, err := env.DB.Tasks().Get(ctx, q, run, company)
	if errors.Is(err, store.ErrNotFound) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	uri := "mlflow-artifacts:/" + strings.SplitN(p, "/", 2)[0] + "/" + run + "/artifacts"
	if t.MLflow != nil && t.MLflow.ArtifactURI != "" && t.MLflow.ArtifactURI != uri {
		return nil, "", nil
	}
	return t, name, nil
}

// NoteRunArtifact records the file stored at artifact path p (of size
// bytes, its file server URL fileURL) as an output artifact of its run's
// task; a path outside every run's folder is left alone.
func NoteRunArtifact(ctx context.Context, env *domain.Env, company, user, p, fileURL string, size int64) error {
	t, name, err := runOfArtifact(ctx, env, env.DB.Read(), company, p)
	if err != nil || t == nil {
		return err
	}
	_, err = editRun(ctx, env, company, user, t.ID, true, func(_ store.Querier, t *store.Task) error {
		ts := env.Time().Unix()
		ct := mime.TypeByExtension(path.Ext(name))
		if ct == "" {
			ct = "application/octet-stream"
		}
		art := &store.Artifact{Key: name, Type: ArtifactType, Mode: "output", URI: &fileURL, ContentSize: &size,
			Timestamp: &ts, TypeData: map[string]any{"content_type": ct}}
		for i, a := range t.Execution.Artifacts {
			if a.Key == name && (a.Mode == "" || a.Mode == "output") {
				t.Execution.Artifacts[i] = art
				return nil
			}
		}
		if len(t.Execution.Artifacts) >= MaxTaskArtifacts {
			return nil
		}
		t.Execution.Artifacts = append(t.Execution.Artifacts, art)
		// kept in (key, mode) order, as the ClearML API writes them
		sort.SliceStable(t.Execution.Artifacts, func(i, j int) bool {
			a, b := t.Execution.Artifacts[i], t.Execution.Artifacts[j]
			if a.Key != b.Key {
				return a.Key < b.Key
			}
			return a.Mode < b.Mode
		})
		return nil
	})
	return err
}

// DropRunArtifacts removes the task artifacts of deleted artifact paths.
func DropRunArtifacts(ctx context.Context, env *domain.Env, company, user string, paths []string) error {
	byRun := map[string]map[string]bool{}
	for _, p := range paths {
		t, name, err := runOfArtifact(ctx, env, env.DB.Read(), company, p)
		if err != nil {
			return err
		}
		if t == nil {
			continue
		}
		if byRun[t.ID] == nil {
			byRun[t.ID] = map[string]bool{}
		}
		byRun[t.ID][name] = true
	}
	for run, names := range byRun {
		_, err := editRun(ctx, env, company, user, run, true, func(_ store.Querier, t *store.Task) error {
			kept := t.Execution.Artifacts[:0]
			for _, a := range t.Execution.Artifacts {
				if !(names[a.Key] && (a.Mode == "" || a.Mode == "output") && a.Type == ArtifactType) {
					kept = append(kept, a)
				}
			}
			t.Execution.Artifacts = kept
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}
