package queues

import (
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/store"
)

// entry is a queue entry as reads return it.
type entry struct {
	Task  string     `json:"task"`
	Added jsonx.Time `json:"added"`
}

// queueOut is the stored queue answered with its entries; its own type
// only because the entries live in another table and the resources (which
// only project usages read) are not answered.
type queueOut struct {
	store.Queue
	Entries []entry `json:"entries"`
}

// toWire is the one conversion of a stored queue (and its entries) to the
// wire.
func toWire(qu *store.Queue, entries []store.QueueEntry) *queueOut {
	out := &queueOut{Queue: *qu, Entries: make([]entry, len(entries))}
	out.Resources = nil
	for i, e := range entries {
		out.Entries[i] = toEntry(e)
	}
	return out
}

func toEntry(e store.QueueEntry) entry { return entry{Task: e.Task, Added: jsonx.FromMillis(e.Added)} }

// listToWire completes the listed queues: never-null tag lists, and the
// entries and workers the read added.
func listToWire(l *queues.Listing) []map[string]any {
	for _, it := range l.Items {
		// Lists are never null: the agent reads tags of every queue.
		for _, f := range []string{"tags", "system_tags"} {
			if v, ok := it[f]; ok && v == nil {
				it[f] = []any{}
			}
		}
		id, _ := it["id"].(string)
		if l.Entries != nil {
			it["entries"] = listedEntries(l.Entries[id], l.TaskNames)
		}
		if l.Workers != nil {
			it["workers"] = listedWorkers(l.Workers[id])
		}
	}
	return l.Items
}

// listedEntries shapes entries; with names (ex reads) tasks are {id, name}.
func listedEntries(list []store.QueueEntry, names map[string]string) []map[string]any {
	out := make([]map[string]any, len(list))
	for i, e := range list {
		var task any = e.Task
		if names != nil {
			task = map[string]any{"id": e.Task, "name": names[e.Task]}
		}
		out[i] = map[string]any{"task": task, "added": toEntry(e).Added}
	}
	return out
}

// listedWorkers shapes the workers listening on a queue.
func listedWorkers(list []*store.Worker) []map[string]any {
	out := make([]map[string]any, len(list))
	for i, w := range list {
		var task any
		if w.Task != nil {
			task = map[string]any{"id": w.Task.ID, "name": w.Task.Name}
		}
		out[i] = map[string]any{"name": w.ID, "ip": w.IP, "key": w.Key, "task": task}
	}
	return out
}
