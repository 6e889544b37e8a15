package events

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/rpc"
)

// addResponse is the answer of events.add and events.add_batch.
type addResponse struct {
	Added      int            `json:"added"`
	Errors     int            `json:"errors"`
	ErrorsInfo map[string]int `json:"errors_info"`
}

// add stores one event: the body is the event.
func (s *service) add(ctx context.Context, c *rpc.Call) (any, error) {
	return s.ingest(ctx, c, [][]byte{c.Body})
}

// addBatch stores the events of a JSON-lines body (or one plain object).
func (s *service) addBatch(ctx context.Context, c *rpc.Call) (any, error) {
	if len(c.Lines) == 0 {
		return nil, apierr.BatchNoItems()
	}
	return s.ingest(ctx, c, c.Lines)
}

func (s *service) ingest(ctx context.Context, c *rpc.Call, lines [][]byte) (*addResponse, error) {
	res, err := s.ing.Ingest(ctx, events.Batch{Company: c.Company(), User: c.User(), Worker: c.Header("Worker"), Lines: lines})
	if err != nil {
		return nil, err
	}
	out := &addResponse{Added: res.Added, Errors: res.ErrorCount(), ErrorsInfo: res.Errors}
	if res.Added == 0 {
		e := apierr.EventsNotAdded()
		for k, v := range res.Errors {
			e = e.With(k, v)
		}
		// clearml-agent reads `added` even from a refusal; without it
		// the agent re-sends the same lines forever
		e.Reply = out
		return nil, e
	}
	return out, nil
}
