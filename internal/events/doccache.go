package events

import "sync"

// docCache keeps the task documents ingest last wrote, with their rows'
// versions, so that the next batch of a task prepares its summary from
// memory instead of reading the document back (on PostgreSQL a 15 KB jsonb
// turned into text and sent per batch). The version check inside the
// write transaction (lockTask) makes a stale entry harmless: a task
// written by anything else since is read again.
type docCache struct {
	mu    sync.Mutex
	m     map[string]cachedDoc
	bytes int
}

type cachedDoc struct {
	doc     []byte
	version string
}

// maxCachedDocBytes bounds the cache; past it the cache starts over
// (5,000 tasks with 50 metrics each take about 90 MB).
const maxCachedDocBytes = 128 << 20

func docKey(company, id string) string { return company + "\x00" + id }

func (c *docCache) get(company, id string) (cachedDoc, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.m[docKey(company, id)]
	return d, ok
}

// put records documents just committed.
func (c *docCache) put(written []writtenTask) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, w := range written {
		k := docKey(w.company, w.id)
		if old, ok := c.m[k]; ok {
			c.bytes -= len(old.doc) + len(old.version)
		}
		size := len(w.doc) + len(w.version)
		if c.m == nil || c.bytes+size > maxCachedDocBytes {
			c.m, c.bytes = map[string]cachedDoc{}, 0
		}
		c.m[k] = cachedDoc{doc: w.doc, version: w.version}
		c.bytes += size
	}
}

// writtenTask is a task document a transaction wrote, and its version.
type writtenTask struct {
	company, id string
	doc         []byte
	version     string
}
