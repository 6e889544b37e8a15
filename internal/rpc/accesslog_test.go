package rpc

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestAccessLogLevels: a call is logged at debug unless the access log is
// on or it took at least SlowCall; failures stay errors.
func TestAccessLogLevels(t *testing.T) {
	for _, tc := range []struct {
		name      string
		accessLog bool
		slowCall  time.Duration
		op        string
		want      []string // substrings of the log at info level and above
		not       []string
	}{
		{"quiet by default", false, time.Hour, "test.echo", nil, []string{"msg=call", "slow call"}},
		{"access log on", true, time.Hour, "test.echo", []string{"level=INFO msg=call endpoint=test.echo status=200"}, []string{"slow call"}},
		{"slow call", false, time.Nanosecond, "test.echo", []string{"level=INFO msg=\"slow call\" endpoint=test.echo"}, nil},
		{"slow log off", false, 0, "test.echo", nil, []string{"call"}},
		{"failure is an error", false, time.Hour, "test.fail", []string{"level=ERROR msg=\"call failed\" endpoint=test.fail"}, []string{"msg=call"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			srv := testServer(t)
			s := srv.Config.Handler.(*Server)
			s.Log = slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
			s.AccessLog, s.SlowCall = tc.accessLog, tc.slowCall
			req, _ := http.NewRequest("POST", srv.URL+"/"+tc.op, strings.NewReader(`{"name":"x"}`))
			req.Header.Set("Authorization", "Bearer good")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			got := buf.String()
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("log lacks %q:\n%s", w, got)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("log has %q:\n%s", n, got)
				}
			}
		})
	}
	// At debug level every call shows without the access log.
	var buf bytes.Buffer
	srv := testServer(t)
	s := srv.Config.Handler.(*Server)
	s.Log = slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	s.SlowCall = time.Hour
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/test.echo", strings.NewReader(`{"name":"x"}`))
	req.Header.Set("Authorization", "Bearer good")
	s.ServeHTTP(rec, req.WithContext(context.Background()))
	if !strings.Contains(buf.String(), "level=DEBUG msg=call endpoint=test.echo") {
		t.Errorf("debug level does not show the call:\n%s", buf.String())
	}
}
