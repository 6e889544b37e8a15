package projects_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestProjectAnswersPinned pins, byte for byte on both backends, the
// answers that carry whole projects: get_by_id of a nested project with
// every member set and of a public one, and get_all_ex and get_all items
// (the list path). Timestamps and ids are masked (testenv.Pinned).
func TestProjectAnswersPinned(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		full := e.Call(t, "projects.create", map[string]any{"name": "pinned/a/full", "description": "d", "tags": []string{"t2", "t1"},
			"system_tags": []string{"s"}, "default_output_destination": "s3://out"}).OK(t).Str("id")
		plain := e.Call(t, "projects.create", map[string]any{"name": "pinned plain"}).OK(t).Str("id")
		e.Call(t, "projects.make_public", map[string]any{"ids": []string{plain}}).OK(t)
		got := e.Call(t, "projects.get_by_id", map[string]any{"project": full}).OK(t)
		path := got.List("project.path")
		if len(path) != 2 {
			t.Fatalf("path: %v", path)
		}
		names := map[string]string{"<full>": full, "<plain>": plain, "<root>": path[0].(string), "<mid>": path[1].(string),
			"<company>": got.Str("project.company"), "<user>": got.Str("project.user")}
		testenv.CheckPinned(t, names, []testenv.PinnedCase{
			{Name: "full", Got: got, Want: pinnedFullProject},
			{Name: "public", Got: e.Call(t, "projects.get_by_id", map[string]any{"project": plain}).OK(t), Want: pinnedPublicProject},
			{Name: "get_all_ex", Got: e.Call(t, "projects.get_all_ex", map[string]any{"id": []string{full, plain}, "order_by": []string{"name"}}).OK(t), Want: pinnedProjectList},
			{Name: "get_all", Got: e.Call(t, "projects.get_all", map[string]any{"id": []string{full}}).OK(t), Want: pinnedProjectListOne},
		})
	})
}

const (
	pinnedFullProject    = `{"project":{"id":"<full>","company":"<company>","user":"<user>","name":"pinned/a/full","basename":"full","description":"d","created":"<time>","tags":["t1","t2"],"system_tags":["s"],"last_update":"<time>","featured":9999,"default_output_destination":"s3://out","parent":"<mid>","path":["<root>","<mid>"]}}`
	pinnedPublicProject  = `{"project":{"id":"<plain>","company":"","user":"<user>","name":"pinned plain","basename":"pinned plain","description":"","created":"<time>","tags":[],"system_tags":[],"last_update":"<time>","featured":9999,"path":[],"company_origin":"<company>"}}`
	pinnedProjectList    = `{"projects":[{"basename":"pinned plain","company":{},"created":"<time>","description":"","featured":9999,"id":"<plain>","last_update":"<time>","name":"pinned plain","system_tags":[],"tags":[],"user":{"id":"<user>"}},{"basename":"full","company":{"id":"<company>"},"created":"<time>","default_output_destination":"s3://out","description":"d","featured":9999,"id":"<full>","last_update":"<time>","name":"pinned/a/full","parent":{"id":"<mid>"},"system_tags":["s"],"tags":["t1","t2"],"user":{"id":"<user>"}}]}`
	pinnedProjectListOne = `{"projects":[{"basename":"full","company":"<company>","created":"<time>","default_output_destination":"s3://out","description":"d","featured":9999,"id":"<full>","last_update":"<time>","name":"pinned/a/full","parent":"<mid>","system_tags":["s"],"tags":["t1","t2"],"user":"<user>"}]}`
)
