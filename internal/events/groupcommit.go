package events

import (
	"context"
	"hash/maphash"
	"sync"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// Group commit: concurrent batches are written by one writer per lane in
// shared transactions, and each caller is answered once the transaction
// holding its rows has committed. Many small batches (hundreds of training
// runs reporting a few scalars every few seconds) then share the cost of a
// transaction instead of queueing one by one for the database's writer.
// SQLite has one lane (it has one writer); PostgreSQL several, chosen by
// task, so that its concurrent writers are used.

const (
	// maxGroupBatches and maxGroupEvents bound one group's transaction.
	maxGroupBatches = 512
	maxGroupEvents  = 20000
	// lanesPerWriteConn: PostgreSQL runs one lane per this many
	// connections of its pool (the rest serve reads and other writes).
	lanesPerWriteConn = 4
	maxLanes          = 8
)

// pendingBatch is a parsed batch waiting for its group's commit.
type pendingBatch struct {
	ctx           context.Context
	company, user string
	now           time.Time
	wts           int64
	parseErrs     map[string]int
	parts         []*entityPart
	tasks, models map[string]bool
	events        int
	upkeep        map[string]*taskUpkeep
	edit          *TaskEdit

	res  *Result
	err  error
	done chan struct{}
}

// write writes the batch inside q, setting its result; its tasks are
// written when held is flushed.
func (p *pendingBatch) write(ctx context.Context, in *Ingester, q store.Querier, held *txTasks, points *txPoints) error {
	p.res = &Result{Errors: make(map[string]int, len(p.parseErrs))}
	for k, v := range p.parseErrs {
		p.res.Errors[k] = v
	}
	w := &batchWriter{in: in, q: q, company: p.company, user: p.user, now: p.now, res: p.res, upkeep: p.upkeep, held: held, points: points, edit: p.edit}
	return w.write(ctx, p.parts, p.tasks, p.models, p.wts)
}

// writeTx writes batches, then the points and series updates they left
// to the end (txPoints), then their tasks, in one transaction, and
// keeps the task documents it committed for the next batches.
func (in *Ingester) writeTx(ctx context.Context, batches []*pendingBatch) error {
	var written []writtenTask
	err := in.DB.GroupTx(ctx, func(q store.Querier) error {
		held, points := newTxTasks(), newTxPoints()
		for _, p := range batches {
			if err := p.write(ctx, in, q, held, points); err != nil {
				return err
			}
		}
		if err := points.flush(ctx, eventstore.Of(in.DB), q); err != nil {
			return err
		}
		var err error
		written, err = held.flush(ctx, in.DB, q)
		return err
	})
	if err == nil {
		in.docs.put(written)
	}
	return err
}

// lane is a queue of batches and whether its writer is running. The
// writer is started by the first batch and ends when the queue is empty,
// so an idle Ingester holds no goroutine.
type lane struct {
	mu      sync.Mutex
	queue   []*pendingBatch
	running bool
}

type groupCommit struct {
	once  sync.Once
	seed  maphash.Seed
	lanes []*lane
}

func (g *groupCommit) init(db *store.DB) {
	g.once.Do(func() {
		n := 1
		if c := db.WriteConcurrency(); c > 1 {
			n = min(maxLanes, max(1, c/lanesPerWriteConn))
		}
		g.seed = maphash.MakeSeed()
		g.lanes = make([]*lane, n)
		for i := range g.lanes {
			g.lanes[i] = &lane{}
		}
	})
}

// laneOf is the lane of a batch: the lane of its first task. A batch
// adding metric names needs no other: its name counts go to rows no other
// transaction touches (store.WriteTasksCountingNames), not to the count
// rows all the tasks of its project share.
func (g *groupCommit) laneOf(p *pendingBatch) *lane {
	if len(g.lanes) == 1 {
		return g.lanes[0]
	}
	id := ""
	if len(p.parts) > 0 {
		id = p.parts[0].id
	} else if p.edit != nil {
		id = p.edit.Task
	}
	return g.lanes[maphash.String(g.seed, id)%uint64(len(g.lanes))]
}

// commit queues p on its lane and waits for its group's commit (or the
// caller's end).
func (in *Ingester) commit(p *pendingBatch) (*Result, error) {
	g := &in.group
	g.init(in.DB)
	l := g.laneOf(p)
	p.done = make(chan struct{})
	l.mu.Lock()
	l.queue = append(l.queue, p)
	start := !l.running
	l.running = true
	l.mu.Unlock()
	if start {
		go in.drain(l)
	}
	select {
	case <-p.done:
		return p.res, p.err
	case <-p.ctx.Done():
		// the batch may still be written; it is not acknowledged
		return nil, p.ctx.Err()
	}
}

// drain writes the lane's batches, group after group, until none waits.
func (in *Ingester) drain(l *lane) {
	for {
		l.mu.Lock()
		n, events := 0, 0
		for n < len(l.queue) && n < maxGroupBatches && (n == 0 || events+l.queue[n].events <= maxGroupEvents) {
			events += l.queue[n].events
			n++
		}
		if n == 0 {
			l.running = false
			l.queue = nil
			l.mu.Unlock()
			return
		}
		group := make([]*pendingBatch, n)
		copy(group, l.queue)
		l.queue = l.queue[n:]
		l.mu.Unlock()
		in.writeGroup(group)
	}
}

// writeGroup writes a group in one transaction and answers its callers
// after the commit. When the transaction fails, each batch is written in
// a transaction of its own, so that one batch's failure is its alone.
func (in *Ingester) writeGroup(group []*pendingBatch) {
	live := group[:0:0]
	for _, p := range group {
		if err := p.ctx.Err(); err != nil {
			// the caller has gone: its batch is not written
			p.err = err
			close(p.done)
			continue
		}
		live = append(live, p)
	}
	if len(live) == 0 {
		return
	}
	ctx := context.Background()
	err := in.writeTx(ctx, live)
	if err != nil && len(live) > 1 {
		for _, p := range live {
			p.err = in.writeTx(ctx, []*pendingBatch{p})
			close(p.done)
		}
		return
	}
	for _, p := range live {
		p.err = err
		close(p.done)
	}
}
