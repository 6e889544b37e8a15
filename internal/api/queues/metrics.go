package queues

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/rpc"
)

type getQueueMetricsRequest struct {
	QueueIDs []string `json:"queue_ids"`
	api.DateRange
	// Refresh takes a sample of the queues before reading.
	Refresh bool `json:"refresh"`
}

// queueMetrics is one series as the wire carries it.
type queueMetrics struct {
	Queue string `json:"queue"`
	// Dates are bucket starts in epoch milliseconds.
	Dates           []int64   `json:"dates"`
	AvgWaitingTimes []float64 `json:"avg_waiting_times"`
	QueueLengths    []int     `json:"queue_lengths"`
}

type getQueueMetricsResponse struct {
	Queues []*queueMetrics `json:"queues"`
}

// getQueueMetrics reads queue length and waiting time in time buckets,
// per queue, or as one series named "all" when no queue is named.
func (s *service) getQueueMetrics(ctx context.Context, c *rpc.Call, req *getQueueMetricsRequest) (*getQueueMetricsResponse, error) {
	series, err := s.metrics.Report(ctx, queues.SeriesRequest{Company: c.Company(), From: *req.FromDate, To: *req.ToDate,
		Interval: *req.Interval, Queues: req.QueueIDs}, req.Refresh)
	if err != nil {
		return nil, err
	}
	resp := &getQueueMetricsResponse{Queues: make([]*queueMetrics, len(series))}
	for i, se := range series {
		resp.Queues[i] = (*queueMetrics)(se)
	}
	return resp, nil
}
