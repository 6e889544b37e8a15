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

// queueOut is a queue as get_by_id returns it, with its entries.
type queueOut struct {
	ID          string                         `json:"id"`
	Company     string                         `json:"company"`
	User        string                         `json:"user,omitempty"`
	Name        string                         `json:"name"`
	DisplayName string                         `json:"display_name,omitempty"`
	Created     jsonx.Time                     `json:"created"`
	LastUpdate  jsonx.Time                     `json:"last_update"`
	Tags        []string                       `json:"tags"`
	SystemTags  []string                       `json:"system_tags"`
	Metadata    map[string]*store.MetadataItem `json:"metadata"`
	Entries     []entry                        `json:"entries"`
}

// toWire is the one conversion of a stored queue (and its entries) to the
// wire.
func toWire(qu *store.Queue, entries []store.QueueEntry) *queueOut {
	out := &queueOut{ID: qu.ID, Company: qu.Company, User: qu.User, Name: qu.Name, DisplayName: qu.DisplayName,
		Created: qu.Created, LastUpdate: qu.LastUpdate, Tags: qu.Tags, SystemTags: qu.SystemTags, Metadata: qu.Metadata,
		Entries: make([]entry, len(entries))}
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
		if l.Sizes != nil {
			it["entries_count"] = l.Sizes[id]
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
