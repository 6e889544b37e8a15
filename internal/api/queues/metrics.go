package queues

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

type getQueueMetricsRequest struct {
	QueueIDs []string `json:"queue_ids"`
	api.DateRange
	// Refresh takes a sample of the queues before reading.
	Refresh bool `json:"refresh"`
}

type getQueueMetricsResponse struct {
	Queues []*queues.Series `json:"queues"`
}

// getQueueMetrics reads queue length and waiting time in time buckets,
// per queue, or as one series named "all" when no queue is named.
func (s *service) getQueueMetrics(ctx context.Context, c *rpc.Call, req *getQueueMetricsRequest) (*getQueueMetricsResponse, error) {
	ids := req.QueueIDs
	for _, id := range ids {
		if _, err := queues.Get(ctx, s.d.DB, s.d.DB.Read(), c.Company(), id); err != nil {
			return nil, err
		}
	}
	if req.Refresh {
		if err := s.refresh(ctx, c.Company(), ids); err != nil {
			return nil, err
		}
	}
	series, err := s.metrics.Read(ctx, queues.SeriesRequest{Company: c.Company(), From: *req.FromDate, To: *req.ToDate,
		Interval: *req.Interval, Queues: ids})
	if err != nil {
		return nil, err
	}
	return &getQueueMetricsResponse{Queues: series}, nil
}

// refresh samples the named queues (all of the company's when none).
func (s *service) refresh(ctx context.Context, company string, ids []string) error {
	if len(ids) == 0 {
		var err error
		ids, err = store.IDs(ctx, s.d.DB.Read(), "SELECT id FROM queues WHERE company = ? ORDER BY id", company)
		if err != nil {
			return err
		}
	}
	return s.d.DB.Tx(ctx, func(q store.Querier) error {
		for _, id := range ids {
			if err := s.metrics.Record(ctx, q, company, id); err != nil {
				return err
			}
		}
		return nil
	})
}
