package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// With -api mlflow the fleet reports through Trove's MLflow API, as
// mlflow's client does: each experiment is an MLflow experiment with one
// run, created through the API, and each batch a runs/log-batch of its
// scalars (keys metricM/vV, the step the iteration) with HTTP Basic (the
// admin's access key and secret) on a new connection. Basic costs a
// bcrypt comparison unless the server's verified-secret cache
// (internal/auth/keycache.go) knows the pair: the set-up's calls fill it.

// the admin credential of the bench servers (newBenchApp, startChild)
const adminKey, adminSecret = "BENCHKEY", "bench-secret"

func basicAuth(key, secret string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(key+":"+secret))
}

// mlflowExperiments creates n MLflow experiments, each with a running
// run, through the MLflow API of the server at url.
func mlflowExperiments(url string, n int) ([]experiment, error) {
	base := url + "/api/2.0/mlflow/"
	auth := basicAuth(adminKey, adminSecret)
	stamp := strconv.FormatInt(time.Now().UnixNano(), 36)
	out := make([]experiment, n)
	for i := range out {
		var exp struct {
			ID string `json:"experiment_id"`
		}
		body := fmt.Sprintf(`{"name":"fleet %s %d"}`, stamp, i)
		if err := mlflowCall(base+"experiments/create", auth, []byte(body), &exp); err != nil || exp.ID == "" {
			return nil, fmt.Errorf("experiments/create: %v", err)
		}
		var run struct {
			Run struct {
				Info struct {
					RunID string `json:"run_id"`
				} `json:"info"`
			} `json:"run"`
		}
		body = fmt.Sprintf(`{"experiment_id":%q,"start_time":%d,"run_name":"fleet %d"}`, exp.ID, time.Now().UnixMilli(), i)
		if err := mlflowCall(base+"runs/create", auth, []byte(body), &run); err != nil || run.Run.Info.RunID == "" {
			return nil, fmt.Errorf("runs/create: %v", err)
		}
		out[i] = experiment{task: run.Run.Info.RunID, basic: auth}
	}
	return out, nil
}

// sendOK sends req and fails unless it answers 200.
func sendOK(req *http.Request) error {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: status %d: %.200s", req.URL.Path, resp.StatusCode, raw)
	}
	return nil
}

// mlflowCall posts body with the Authorization header auth and decodes
// a 200 answer into out. A server still starting (503) is asked again.
func mlflowCall(url, auth string, body []byte, out any) error {
	var raw []byte
	var status int
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", auth)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		raw, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		status = resp.StatusCode
		if status != http.StatusServiceUnavailable || time.Now().After(deadline) {
			break
		}
	}
	if status != http.StatusOK {
		return fmt.Errorf("status %d: %.200s", status, raw)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(raw, out)
}

// mlflowBatchRequest is a runs/log-batch of iterations [from, to) of an
// experiment's run, scalars metrics each.
func (f *fleetServer) mlflowBatchRequest(e experiment, from, to int64, scalars int) *http.Request {
	buf := make([]byte, 0, 64+int(to-from)*scalars*80)
	buf = append(buf, `{"run_id":"`...)
	buf = append(buf, e.task...)
	buf = append(buf, `","metrics":[`...)
	ts := time.Now().UnixMilli()
	for it := from; it < to; it++ {
		for i := 0; i < scalars; i++ {
			if it > from || i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, `{"key":"metric`...)
			buf = strconv.AppendInt(buf, int64(i%5), 10)
			buf = append(buf, `/v`...)
			buf = strconv.AppendInt(buf, int64(i/5), 10)
			buf = append(buf, `","value":`...)
			buf = strconv.AppendFloat(buf, float64((it*31+int64(i))%1000)/997, 'g', -1, 64)
			buf = append(buf, `,"timestamp":`...)
			buf = strconv.AppendInt(buf, ts, 10)
			buf = append(buf, `,"step":`...)
			buf = strconv.AppendInt(buf, it, 10)
			buf = append(buf, '}')
		}
	}
	buf = append(buf, "]}"...)
	req, _ := http.NewRequest(http.MethodPost, f.url+"/api/2.0/mlflow/runs/log-batch", bytes.NewReader(buf))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", e.basic)
	return req
}
