package importer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// eventBatch is the page size of the source's event scroll;
// eventBatchMax the largest the reference serves.
const (
	eventBatch    = 1000
	eventBatchMax = 10000
)

// errScrollRestarts says the source's scroll started over before its end.
var errScrollRestarts = errors.New("the source's event scroll starts over after iteration 0")

// copyEvents reads every event of a task (or model) through the source's
// events.get_task_events scroll (every type: scalars, plots, logs, debug
// images) and ingests them as reported events, with their original
// timestamps, iterations and workers; debug image files are copied. It
// returns the count written.
//
// The reference takes a scroll cursor at iteration 0 for no cursor and
// starts over; its pages also hold every event of their last iteration.
// So when more than a page of events sit at iteration 0, the scroll
// cannot pass them: the events written are deleted and the read is made
// again with the largest page, which passes them when they fit.
func (r *run) copyEvents(ctx context.Context, id string, model bool, user string) (int, error) {
	n, err := r.scrollEvents(ctx, id, model, user, eventBatch)
	if !errors.Is(err, errScrollRestarts) {
		return n, err
	}
	if err := r.deleteEvents(ctx, id); err != nil {
		return 0, err
	}
	n, err = r.scrollEvents(ctx, id, model, user, eventBatchMax)
	if errors.Is(err, errScrollRestarts) {
		err = fmt.Errorf("%w: more than %d events at iteration 0; %d events imported", err, eventBatchMax, n)
	}
	return n, err
}

// scrollEvents is one pass of copyEvents with pages of batch events.
func (r *run) scrollEvents(ctx context.Context, id string, model bool, user string, batch int) (int, error) {
	written, scroll, total := 0, "", -1
	var first json.RawMessage
	for {
		body := map[string]any{"task": id, "batch_size": batch, "model_events": model}
		if scroll != "" {
			body["scroll_id"] = scroll
		}
		var ans struct {
			Events   []json.RawMessage `json:"events"`
			Total    *int              `json:"total"`
			ScrollID string            `json:"scroll_id"`
		}
		if err := r.o.Source.Call(ctx, "events.get_task_events", body, &ans); err != nil {
			return written, err
		}
		if len(ans.Events) == 0 {
			return written, nil
		}
		if first == nil {
			first = ans.Events[0]
			if ans.Total != nil {
				total = *ans.Total
			}
		} else if bytes.Equal(first, ans.Events[0]) {
			// started over: harmless once every event was read
			if written >= total && total >= 0 {
				return written, nil
			}
			return written, errScrollRestarts
		}
		groups, err := r.eventGroups(ctx, ans.Events, id, model)
		if err != nil {
			return written, err
		}
		for _, g := range groups {
			n, err := r.ingest(ctx, g, user)
			written += n
			if err != nil {
				return written, err
			}
		}
		if ans.ScrollID == "" {
			return written, nil
		}
		scroll = ans.ScrollID
	}
}

// deleteEvents removes the events of a task or model from the store.
func (r *run) deleteEvents(ctx context.Context, id string) error {
	return r.o.DB.Tx(ctx, func(q store.Querier) error {
		_, err := eventstore.Of(r.o.DB).DeleteFor(ctx, q, []string{id})
		return err
	})
}

// eventGroup are events the source stored at one time.
type eventGroup struct {
	stored time.Time
	lines  [][]byte
}

// eventGroups turns a page of source events into lines to ingest, grouped
// by the time the source stored them ("@timestamp"), so that the target
// records the same storage times.
func (r *run) eventGroups(ctx context.Context, evs []json.RawMessage, id string, model bool) ([]*eventGroup, error) {
	var out []*eventGroup
	for _, raw := range evs {
		ln, stored, err := r.eventLine(ctx, raw, id, model)
		if err != nil {
			return nil, err
		}
		if len(out) == 0 || !out[len(out)-1].stored.Equal(stored) {
			out = append(out, &eventGroup{stored: stored})
		}
		g := out[len(out)-1]
		g.lines = append(g.lines, ln)
	}
	return out, nil
}

// ingest writes one group as a reported batch stored at the group's time.
func (r *run) ingest(ctx context.Context, g *eventGroup, user string) (int, error) {
	in := &events.Ingester{DB: r.o.DB, Now: func() time.Time { return g.stored }}
	res, err := in.Ingest(ctx, events.Batch{Company: r.o.Company, User: user, Lines: g.lines})
	if err != nil {
		return 0, err
	}
	if len(res.Errors) > 0 {
		return res.Added, fmt.Errorf("%d events refused: %s", res.ErrorCount(), describe(res.Errors))
	}
	return res.Added, nil
}

// eventLine turns an event as the source answers it into an event line to
// ingest: numbers keep their text, a debug image's file is copied and its
// URL rewritten, and the event may go to a published task.
func (r *run) eventLine(ctx context.Context, raw json.RawMessage, id string, model bool) ([]byte, time.Time, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var ev map[string]any
	if err := dec.Decode(&ev); err != nil {
		return nil, time.Time{}, fmt.Errorf("an event of %s is not an object: %w", id, err)
	}
	stored := r.o.Now()
	if s, ok := ev["@timestamp"].(string); ok {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			stored = t
		}
	}
	ev["task"] = id
	ev["allow_locked"] = true
	if model {
		ev["model_event"] = true
	}
	if u, ok := ev["url"].(string); ok && u != "" {
		ev["url"] = r.files.Rewrite(ctx, u)
	}
	b, err := json.Marshal(ev)
	return b, stored, err
}

// describe lists ingestion refusals, most frequent first.
func describe(errs map[string]int) string {
	keys := make([]string, 0, len(errs))
	for k := range errs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return errs[keys[i]] > errs[keys[j]] })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s (%d)", k, errs[k])
	}
	return strings.Join(parts, "; ")
}

// withEvents imports one task or model with its events. A record the
// store holds unchanged is skipped. A new record is first written marked
// as unfinished (mark), its events follow, and the source's document is
// written last, so an interrupted import leaves a record that differs
// and a rerun imports it again: its events are deleted and copied anew,
// as for a record that changed at the source.
func withEvents[S any, P interface {
	*S
	store.Record
}](ctx context.Context, r *run, t *store.Table[S, P], rec P, model bool, user string, mark func(P)) (bool, int, error) {
	db := r.o.DB
	id := rec.RecordID()
	old, err := t.Get(ctx, db.Read(), id)
	switch {
	case err == nil && same(old, rec):
		return false, 0, nil
	case err == nil:
		err = r.deleteEvents(ctx, id)
	case errors.Is(err, store.ErrNotFound):
		pending := P(new(S))
		*pending = *rec
		mark(pending)
		err = db.Tx(ctx, func(q store.Querier) error { return t.Insert(ctx, q, pending) })
	}
	if err != nil {
		return false, 0, err
	}
	n, err := r.copyEvents(ctx, id, model, user)
	if err != nil {
		return false, n, err
	}
	return true, n, db.Tx(ctx, func(q store.Querier) error { return t.Update(ctx, q, rec) })
}
