package rpc

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestCallDeadline: a call that outlives the server's deadline ends with
// a 503 naming the limit, its context canceled; a streaming endpoint is
// exempt and a quick call is untouched.
func TestCallDeadline(t *testing.T) {
	stopped := make(chan struct{}, 1)
	wait := func(ctx context.Context, _ *Call) (any, error) {
		select {
		case <-ctx.Done():
			stopped <- struct{}{}
			return nil, ctx.Err()
		case <-time.After(2 * time.Second):
			return map[string]bool{"waited": true}, nil
		}
	}
	reg := NewRegistry()
	reg.Add(
		Endpoint{Name: "test.wait", Access: Read, Handler: wait},
		Endpoint{Name: "test.stream", Streaming: true, Access: Read, Handler: wait},
		Endpoint{Name: "test.quick", Access: Read, Handler: func(context.Context, *Call) (any, error) { return map[string]int{"n": 1}, nil }},
	)
	s := &Server{Registry: reg, Auth: fixedAuth{}, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBody: 1024, Timeout: 100 * time.Millisecond}
	srv := httptest.NewServer(s)
	defer srv.Close()
	call := func(op string) (int, map[string]any) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/"+op, strings.NewReader("{}"))
		req.Header.Set("Authorization", "Bearer good")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var env map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&env)
		return resp.StatusCode, env
	}
	// a 503 (not the handler's answer after 2 s) is the deadline's
	status, env := call("test.wait")
	if status != 503 || !strings.Contains(env["meta"].(map[string]any)["result_msg"].(string), "100ms") {
		t.Fatalf("past the deadline: %d %v", status, env)
	}
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler's context was not canceled")
	}
	if status, _ := call("test.stream"); status != 200 {
		t.Fatalf("streaming endpoint: %d, want 200 (exempt from the deadline)", status)
	}
	if status, _ := call("test.quick"); status != 200 {
		t.Fatalf("quick call: %d", status)
	}
}
