package eventstore

import (
	"sync"

	"github.com/trove-ml/trove/internal/store"
)

// The series cache (SQLite only). Every ingest batch looks up the series
// of its task's metrics: at 2,000 experiments reporting 50 scalars each,
// that query and its scan were a quarter of the one writer's CPU. The
// cache keeps, per task and metric, the complete set of its series, and
// SeriesOf answers from it.
//
// It stays exact because SQLite has one write connection: no change to
// event_series can run while a transaction reads the cache. What the
// ingest writer learns or writes inside a transaction (series read,
// created, touched) reaches the cache only after that transaction
// commits (afterCommit), and only if nothing else changed event_series
// since the transaction read the cache's generation; every other change
// (the rollup job's marks, deletes, the purge) drops the entries it
// affects and moves the generation, inside its own transaction. So the
// cache holds committed rows only, and never a row someone else has
// changed since. PostgreSQL, with concurrent writers (and several nodes),
// has no cache: its SeriesOf also locks the rows.

// maxCachedSeries bounds the cache: the 250,000 series of 5,000
// experiments reporting 50 scalars fit (they took about 290 MB more
// resident memory in that fleet run, garbage collector's headroom
// included). Past it the cache starts over.
const maxCachedSeries = 300_000

type seriesCache struct {
	mu sync.Mutex
	// off: a change came from outside a transaction, where the cache
	// cannot order itself with the writer; it stays off from then on.
	off bool
	gen uint64
	// Entries are held by pointer in both maps, so a committed touch
	// updates its series through one lookup by id: at 5,000 experiments
	// the three string-keyed lookups per series it took before were a
	// twentieth of the writer's time. Callers only ever get copies.
	tasks map[string]map[string]map[string]*Series // task -> metric -> variant
	where map[int64]*Series                        // series id -> its entry
	count int
	limit int // maxCachedSeries
}

func newSeriesCache() *seriesCache {
	return &seriesCache{tasks: map[string]map[string]map[string]*Series{}, where: map[int64]*Series{}, limit: maxCachedSeries}
}

// usable is the cache of a transaction of DB.Tx on SQLite, nil when
// there is none or q is not such a transaction.
func (c *seriesCache) usable(q store.Querier) *seriesCache {
	if c == nil || !store.InTx(q) {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.off {
		return nil
	}
	return c
}

// changed is called by every change to event_series other than the
// ingest writer's, inside its transaction (before the commit): it drops
// what the change touches, the series ids and every series of the tasks.
func (c *seriesCache) changed(q store.Querier, ids []int64, tasks []string) {
	if c == nil {
		return
	}
	if !store.InTx(q) {
		c.mu.Lock()
		c.off = true
		c.gen++
		c.resetLocked()
		c.mu.Unlock()
		return
	}
	c.dropSeries(ids...)
	c.dropTasks(tasks...)
}

// lookup returns copies of the cached series of task in metrics, the
// metrics not cached, and the generation read.
func (c *seriesCache) lookup(task string, metrics []string, out map[[2]string]*Series) (missing []string, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	byMetric := c.tasks[task]
	n := 0
	for _, m := range metrics {
		n += len(byMetric[m])
	}
	copies := make([]Series, 0, n) // one allocation for the caller's copies
	for _, m := range metrics {
		set, ok := byMetric[m]
		if !ok {
			missing = append(missing, m)
			continue
		}
		for v, sr := range set {
			copies = append(copies, *sr)
			out[[2]string{m, v}] = &copies[len(copies)-1]
		}
	}
	return missing, c.gen
}

// put records complete metric sets read at generation gen (after the
// reading transaction committed).
func (c *seriesCache) put(gen uint64, task string, metrics []string, found []Series) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.count+len(found) > c.limit {
		c.resetLocked()
	}
	for _, m := range metrics {
		c.dropMetricLocked(task, m)
		c.setLocked(task, m, map[string]*Series{})
	}
	for _, sr := range found {
		c.addLocked(task, sr.Metric, sr)
	}
}

// created adds series a committed transaction created, to sets already
// cached (a set not cached stays unknown).
func (c *seriesCache) created(gen uint64, list []Series) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		c.dropSeriesLocked(list)
		return
	}
	if c.count+len(list) > c.limit {
		c.resetLocked()
		return
	}
	for _, sr := range list {
		if _, ok := c.tasks[sr.Task][sr.Metric]; ok {
			c.addLocked(sr.Task, sr.Metric, sr)
		}
	}
}

// touched applies a committed transaction's series updates.
func (c *seriesCache) touched(gen uint64, rows []SeriesTouch) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range rows {
		sr, ok := c.where[t.ID]
		if !ok {
			continue
		}
		if gen != c.gen {
			c.dropMetricLocked(sr.Task, sr.Metric)
			continue
		}
		sr.MaxIter, sr.RolledThrough, sr.LastWTS = t.MaxIter, t.RolledThrough, t.LastWTS
	}
}

// generation is the generation a transaction reads before it relies on
// the cache.
func (c *seriesCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// dropSeries forgets the sets holding these series ids (a change made
// outside the ingest writer).
func (c *seriesCache) dropSeries(ids ...int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for _, id := range ids {
		if sr, ok := c.where[id]; ok {
			c.dropMetricLocked(sr.Task, sr.Metric)
		}
	}
}

// dropTasks forgets every set of these tasks.
func (c *seriesCache) dropTasks(tasks ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for _, task := range tasks {
		for m := range c.tasks[task] {
			c.dropMetricLocked(task, m)
		}
	}
}

func (c *seriesCache) dropSeriesLocked(list []Series) {
	for _, sr := range list {
		c.dropMetricLocked(sr.Task, sr.Metric)
	}
}

func (c *seriesCache) setLocked(task, metric string, set map[string]*Series) {
	byMetric := c.tasks[task]
	if byMetric == nil {
		byMetric = map[string]map[string]*Series{}
		c.tasks[task] = byMetric
	}
	byMetric[metric] = set
}

// resetLocked empties the cache (its bound reached).
func (c *seriesCache) resetLocked() {
	c.tasks, c.where, c.count = map[string]map[string]map[string]*Series{}, map[int64]*Series{}, 0
}

// addLocked adds a series to its set (made if missing); the callers keep
// the bound.
func (c *seriesCache) addLocked(task, metric string, sr Series) {
	set, ok := c.tasks[task][metric]
	if !ok {
		set = map[string]*Series{}
		c.setLocked(task, metric, set)
	}
	if old, ok := set[sr.Variant]; ok {
		delete(c.where, old.ID)
		c.count--
	}
	// the names share the keys' memory; the entry is the cache's own copy
	sr.Task, sr.Metric = task, metric
	entry := &sr
	set[sr.Variant] = entry
	c.where[sr.ID] = entry
	c.count++
}

func (c *seriesCache) dropMetricLocked(task, metric string) {
	byMetric := c.tasks[task]
	set, ok := byMetric[metric]
	if !ok {
		return
	}
	for _, sr := range set {
		delete(c.where, sr.ID)
		c.count--
	}
	delete(byMetric, metric)
	if len(byMetric) == 0 {
		delete(c.tasks, task)
	}
}

// ForgetSeriesCache drops the series cache and keeps it off: for writers
// that change event_series beside DB.Tx (the copier's bulk load).
func (s *Store) ForgetSeriesCache() { s.series.changed(s.db.WritePool(), nil, nil) }
