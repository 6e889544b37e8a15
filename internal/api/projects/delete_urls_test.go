package projects_test

import (
	"encoding/json"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestDeleteContentsAnswersFileURLs: projects.delete with delete_contents
// answers the output artifacts of the deleted tasks (input artifacts are
// other tasks' files) and no event files (removed, not answered), as the
// reference answers.
func TestDeleteContentsAnswersFileURLs(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := create(t, e, map[string]any{"name": "delete with urls"})
		id := e.Call(t, "tasks.create", map[string]any{"name": "project task", "type": "training", "project": p,
			"execution": map[string]any{"artifacts": []map[string]any{
				{"key": "in", "type": "x", "mode": "input", "uri": "http://files/p/in"},
				{"key": "out", "type": "x", "uri": "http://files/p/out"}}}}).OK(t).Str("id")
		e.Call(t, "events.add", map[string]any{"type": "training_debug_image", "task": id, "metric": "m", "variant": "v",
			"iter": 1, "url": "http://files/p/image.png"}).OK(t)
		r := e.Call(t, "projects.delete", map[string]any{"project": p, "force": true, "delete_contents": true}).OK(t)
		arts, _ := json.Marshal(r.List("urls.artifact_urls"))
		if r.Num("deleted_tasks") != 1 || string(arts) != `["http://files/p/out"]` || len(r.List("urls.event_urls")) != 0 {
			t.Fatalf("projects.delete answer: %s", r.Raw)
		}
	})
}
