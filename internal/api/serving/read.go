package serving

import (
	"context"
	"slices"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"
	servingdom "github.com/trove-ml/trove/internal/serving"
)

type empty struct{}

type endpointsResponse struct {
	Endpoints []servingdom.Endpoint `json:"endpoints"`
}

func (s *service) getEndpoints(ctx context.Context, c *rpc.Call, _ *empty) (*endpointsResponse, error) {
	eps, err := servingdom.Endpoints(ctx, &s.d.Env, c.Company())
	if err != nil {
		return nil, err
	}
	return &endpointsResponse{Endpoints: eps}, nil
}

type instancesResponse struct {
	Instances []servingdom.Instance `json:"instances"`
}

func (s *service) getLoadingInstances(ctx context.Context, c *rpc.Call, _ *empty) (*instancesResponse, error) {
	in, err := servingdom.LoadingInstances(ctx, &s.d.Env, c.Company())
	if err != nil {
		return nil, err
	}
	return &instancesResponse{Instances: in}, nil
}

type detailsRequest struct {
	EndpointURL string `json:"endpoint_url" required:"true"`
}

func (s *service) getEndpointDetails(ctx context.Context, c *rpc.Call, req *detailsRequest) (*servingdom.Details, error) {
	return servingdom.EndpointDetails(ctx, &s.d.Env, c.Company(), req.EndpointURL)
}

type metricsRequest struct {
	EndpointURL    string   `json:"endpoint_url" required:"true"`
	FromDate       *float64 `json:"from_date" required:"true"`
	ToDate         *float64 `json:"to_date" required:"true"`
	Interval       *int64   `json:"interval" required:"true"`
	MetricType     *string  `json:"metric_type"`
	InstanceCharts *bool    `json:"instance_charts"`
}

func (r *metricsRequest) Validate() error {
	switch {
	case *r.FromDate < 0:
		return apierr.Validation("from_date", "must not be negative")
	case *r.ToDate < 0:
		return apierr.Validation("to_date", "must not be negative")
	case *r.Interval < 1:
		return apierr.Validation("interval", "must be at least 1")
	case r.MetricType != nil && !slices.Contains(servingdom.MetricTypes(), *r.MetricType):
		return apierr.Validation("metric_type", "must be one of %v", servingdom.MetricTypes())
	}
	return nil
}

func (s *service) getMetricsHistory(ctx context.Context, c *rpc.Call, req *metricsRequest) (*servingdom.Chart, error) {
	q := servingdom.ChartQuery{Company: c.Company(), URL: req.EndpointURL, From: *req.FromDate, To: *req.ToDate,
		Interval: *req.Interval, MetricType: "requests", InstanceChart: req.InstanceCharts == nil || *req.InstanceCharts}
	if req.MetricType != nil {
		q.MetricType = *req.MetricType
	}
	return servingdom.MetricsHistory(ctx, &s.d.Env, q)
}
