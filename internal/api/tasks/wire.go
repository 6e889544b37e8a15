package tasks

import "github.com/trove-ml/trove/internal/store"

// A task answers as its stored row: store.Task has the answer's shape. The
// one thing an answer adds is below.

// withDisplayData answers display_data [] for every artifact of t stored
// without it, as the reference does (it stores the list's default): the
// web app walks it for every artifact it compares. t is the caller's own
// copy of the stored task.
func withDisplayData(t *store.Task) *store.Task {
	for _, a := range t.Execution.Artifacts {
		if a != nil && a.DisplayData == nil {
			a.DisplayData = [][]any{}
		}
	}
	return t
}

// withArtifactDisplayData does for a listed task document what
// withDisplayData does for a single read.
func withArtifactDisplayData(item map[string]any) {
	exec, _ := item["execution"].(map[string]any)
	arts, _ := exec["artifacts"].([]any)
	for _, a := range arts {
		if m, ok := a.(map[string]any); ok && m["display_data"] == nil {
			m["display_data"] = []any{}
		}
	}
}
