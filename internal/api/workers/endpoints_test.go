package workers_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestEndpointsRegistered checks that every workers operation of the seeds
// answers (a 404 would mean it is not registered).
func TestEndpointsRegistered(t *testing.T) {
	e := testenv.New(t, "sqlite")
	for _, op := range []string{"get_activity_report", "get_all", "get_count", "get_metric_keys", "get_stats",
		"register", "status_report", "unregister"} {
		if r := e.Call(t, "workers."+op, map[string]any{}); r.Status == 404 {
			t.Errorf("workers.%s is not registered: %s", op, r.Raw)
		}
	}
}
