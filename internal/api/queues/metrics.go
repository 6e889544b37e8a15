package queues

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

type getQueueMetricsRequest struct {
	QueueIDs []string `json:"queue_ids"`
	// FromDate and ToDate are epoch seconds.
	FromDate *float64 `json:"from_date" required:"true"`
	ToDate   *float64 `json:"to_date" required:"true"`
	// Interval is the bucket width in seconds.
	Interval *int `json:"interval" required:"true"`
	// Refresh takes a sample of the queues before reading.
	Refresh bool `json:"refresh"`
}

// maxDate bounds dates (epoch seconds) so that milliseconds fit.
const maxDate = 1e12

func (r *getQueueMetricsRequest) Validate() error {
	switch {
	case *r.FromDate < 0 || *r.FromDate > maxDate:
		return apierr.Validation("from_date", "must be epoch seconds, got %v", *r.FromDate)
	case *r.ToDate < 0 || *r.ToDate > maxDate:
		return apierr.Validation("to_date", "must be epoch seconds, got %v", *r.ToDate)
	case *r.Interval < 1:
		return apierr.Validation("interval", "must be at least 1, got %d", *r.Interval)
	case *r.FromDate >= *r.ToDate:
		return apierr.FieldsValue("from_date must be less than to_date")
	}
	return nil
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
