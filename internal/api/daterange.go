package api

import "github.com/trove-ml/trove/internal/apierr"

// DateRange is the time range of the statistics reads (queue metrics and
// worker statistics): dates in epoch seconds and a bucket width in seconds.
type DateRange struct {
	FromDate *float64 `json:"from_date" required:"true"`
	ToDate   *float64 `json:"to_date" required:"true"`
	Interval *int     `json:"interval" required:"true"`
}

// maxDate bounds dates (epoch seconds) so that milliseconds fit.
const maxDate = 1e12

// Validate refuses dates outside epoch seconds, an interval below one
// second and an empty range.
func (r *DateRange) Validate() error {
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
