package mlflow_test

import (
	"testing"
)

// server-info, which MLflow's 3.x client and UI ask first, answers under
// both 3.0 prefixes what Trove offers; any other 3.0 path is MLflow's
// ENDPOINT_NOT_FOUND (not the ClearML API's answer), and a 3.0 row is
// not reachable under the 2.0 prefixes. Credentials are needed as
// everywhere.
func TestServerInfoAndOther3Paths(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		for _, prefix := range []string{"/api/3.0/mlflow/", "/ajax-api/3.0/mlflow/"} {
			in := &client{e: c.e, auth: c.auth, prefix: prefix}
			body := in.get(t, "server-info", nil).ok(t)
			for _, k := range []string{"workspaces_enabled", "multipart_uploads_enabled", "multipart_downloads_enabled",
				"trace_archival_enabled", "presigned_upload_run_id_supported", "presigned_upload_model_id_supported"} {
				if v, ok := body[k]; !ok || v != false {
					t.Fatalf("%s server-info: %s = %v, want false: %v", prefix, k, v, body)
				}
			}
			if v, ok := body["store_type"]; !ok || v != nil {
				t.Fatalf("%s server-info: store_type %v", prefix, v)
			}
			if f, _ := body["features_enabled"].(map[string]any); f == nil || f["gateway"] != false {
				t.Fatalf("%s server-info: features_enabled %v", prefix, body["features_enabled"])
			}
			in.get(t, "assistant/config", nil).fails(t, 404, "ENDPOINT_NOT_FOUND", "assistant/config")
			in.post(t, "gateway/routes", map[string]any{}).fails(t, 404, "ENDPOINT_NOT_FOUND", "gateway/routes")
			in.post(t, "server-info", map[string]any{}).fails(t, 405, "BAD_REQUEST", "POST is not allowed")
			(&client{e: c.e, prefix: prefix}).get(t, "server-info", nil).fails(t, 401, "UNAUTHENTICATED", "")
			in.as(guestUser).get(t, "server-info", nil).ok(t)
		}
		c.get(t, "3.0/server-info", nil).ok(t)
		(&client{e: c.e, auth: c.auth, prefix: "/api/2.0/mlflow/"}).get(t, "3.0/server-info", nil).fails(t, 404, "ENDPOINT_NOT_FOUND", "3.0/server-info")
	})
}
