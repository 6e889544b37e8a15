package events

import (
	"sync"

	"github.com/trove-ml/trove/internal/store"
)

// docCache keeps the tasks ingest last wrote, decoded, with their rows'
// versions, so that the next batch of a task prepares its summary from
// memory instead of reading the document back and decoding it again (a
// 15 KB JSON document per batch was the largest single cost of many small
// writers). The version check inside the write transaction (lockTask)
// makes a stale entry harmless: a task written by anything else since is
// read again.
//
// A cached task is shared and never changed: prepareUpkeep works on a
// summaryCopy of it.
type docCache struct {
	mu    sync.Mutex
	m     map[string]cachedDoc
	bytes int
}

type cachedDoc struct {
	task    *store.Task
	version string
	// memo is the task's encoding's, for the next (store.EncodeTask)
	memo *store.TaskMemo
	// size is the task's encoded length, the measure of the cache's bound
	size int
}

// maxCachedDocBytes bounds the cache by the encoded size of its tasks;
// past it the cache starts over (5,000 tasks with 50 metrics each encode
// to about 75 MB).
const maxCachedDocBytes = 128 << 20

func docKey(company, id string) string { return company + "\x00" + id }

func (c *docCache) get(company, id string) (cachedDoc, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.m[docKey(company, id)]
	return d, ok
}

// put records tasks just committed.
func (c *docCache) put(written []writtenTask) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, w := range written {
		k := docKey(w.company, w.id)
		if old, ok := c.m[k]; ok {
			c.bytes -= old.size
		}
		if c.m == nil || c.bytes+w.size > maxCachedDocBytes {
			c.m, c.bytes = map[string]cachedDoc{}, 0
		}
		c.m[k] = cachedDoc{task: w.task, version: w.version, memo: w.memo, size: w.size}
		c.bytes += w.size
	}
}

// writtenTask is a task a transaction wrote, its row's new version and
// its encoded size. The transaction hands the task over: nothing changes
// it afterwards.
type writtenTask struct {
	company, id string
	task        *store.Task
	version     string
	size        int
	memo        *store.TaskMemo
}
