package main

import (
	"fmt"
)

// makeFixtures creates, as the ordinary user, the entities whose ids the
// hostile stream uses: its own tasks (some queued), models, queues and a
// worker, plus a page of the bulk-loaded tasks and projects.
func makeFixtures(url, tok string) (*fixtures, error) {
	fx := &fixtures{}
	call := func(op, body string) (map[string]any, error) {
		var env struct {
			Data map[string]any `json:"data"`
		}
		err := doJSON(postJSON(url+"/"+op, tok, []byte(body)), &env)
		return env.Data, err
	}
	ids := func(data map[string]any, list string) []string {
		var out []string
		items, _ := data[list].([]any)
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				if id, ok := m["id"].(string); ok {
					out = append(out, id)
				}
			}
		}
		return out
	}
	d, err := call("projects.get_all", `{"only_fields":["id"]}`)
	if err != nil {
		return nil, err
	}
	fx.Projects = ids(d, "projects")
	if len(fx.Projects) == 0 {
		return nil, fmt.Errorf("no projects")
	}
	d, err = call("tasks.get_all", `{"only_fields":["id"],"page":0,"page_size":100}`)
	if err != nil {
		return nil, err
	}
	fx.Tasks = ids(d, "tasks")
	for i := 0; i < 3; i++ {
		d, err := call("queues.create", fmt.Sprintf(`{"name":"hostile queue %d"}`, i))
		if err != nil {
			return nil, err
		}
		fx.Queues = append(fx.Queues, d["id"].(string))
	}
	for i := 0; i < 20; i++ {
		d, err := call("tasks.create", fmt.Sprintf(`{"name":"hostile task %d","type":"training","project":%q,"script":{"repository":"https://example.com/r.git","entry_point":"train.py"}}`, i, fx.Projects[i%len(fx.Projects)]))
		if err != nil {
			return nil, err
		}
		id := d["id"].(string)
		fx.Tasks = append(fx.Tasks, id)
		if i%2 == 0 {
			// Queued tasks, a lone one in its queue among them.
			if _, err := call("tasks.enqueue", fmt.Sprintf(`{"task":%q,"queue":%q}`, id, fx.Queues[i%3])); err != nil {
				return nil, err
			}
		}
		if i < 5 {
			d, err := call("models.create", fmt.Sprintf(`{"name":"hostile model %d","uri":"file:///tmp/m%d","project":%q,"task":%q}`, i, i, fx.Projects[0], id))
			if err != nil {
				return nil, err
			}
			fx.Models = append(fx.Models, d["id"].(string))
		}
	}
	fx.Workers = []string{"hostile-worker"}
	if _, err := call("workers.register", fmt.Sprintf(`{"worker":"hostile-worker","queues":[%q]}`, fx.Queues[0])); err != nil {
		return nil, err
	}
	return fx, nil
}
