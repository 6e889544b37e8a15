package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// peerServer is an MLflow-API tracking server started from the venv.
type peerServer struct {
	name string
	// label names the system and version in the table.
	label func(venv string) string
	// command is the server's command line on a SQLite file in dir.
	command func(venv, dir string, port int) []string
}

func peerServers() []peerServer {
	return []peerServer{
		{
			name:  "fasttrackml",
			label: func(v string) string { return "FastTrackML " + versionOf(filepath.Join(v, "bin", "fml"), "--version") },
			command: func(v, dir string, port int) []string {
				return []string{filepath.Join(v, "bin", "fml"), "server", "--listen-address", fmt.Sprintf("127.0.0.1:%d", port),
					"--database-uri", "sqlite://" + filepath.Join(dir, "fasttrackml.db"), "--default-artifact-root", filepath.Join(dir, "artifacts")}
			},
		},
		{
			name: "mlflow",
			label: func(v string) string {
				return "MLflow " + versionOf(filepath.Join(v, "bin", "python"), "-c", "import mlflow; print(mlflow.__version__)") + " server"
			},
			command: func(v, dir string, port int) []string {
				return []string{filepath.Join(v, "bin", "mlflow"), "server", "--host", "127.0.0.1", "--port", strconv.Itoa(port),
					"--backend-store-uri", "sqlite:///" + filepath.Join(dir, "mlflow.db"), "--default-artifact-root", filepath.Join(dir, "artifacts"),
					// a worker importing mlflow on a busy machine misses
					// uvicorn's 5 s health check and is restarted forever
					"--uvicorn-opts", "--timeout-worker-healthcheck 120"}
			},
		},
	}
}

// measurePeer starts the server on a fresh SQLite file, gives each client
// its own run and sends runs/log-batch requests of `batch` metrics (4
// series, as Trove's load) for d.
func measurePeer(p peerServer, venv string, d time.Duration, workers, batch int) (peerRow, error) {
	dir, err := os.MkdirTemp("", "trove-bench-"+p.name+"-")
	if err != nil {
		return peerRow{}, err
	}
	defer os.RemoveAll(dir)
	port, err := freePort()
	if err != nil {
		return peerRow{}, err
	}
	argv := p.command(venv, dir, port)
	cmd := exec.Command(argv[0], argv[1:]...)
	logf, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return peerRow{}, err
	}
	defer logf.Close()
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // mlflow forks workers: stop the group
	if err := cmd.Start(); err != nil {
		return peerRow{}, err
	}
	defer func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		_ = cmd.Wait()
	}()
	base := fmt.Sprintf("http://127.0.0.1:%d/api/2.0/mlflow/", port)
	// a busy machine takes minutes to import mlflow in every worker
	if err := waitMLflow(base, 10*time.Minute); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
		return peerRow{}, fmt.Errorf("%w\n%s", err, tail(log, 2000))
	}
	runs := make([]string, workers)
	for i := range runs {
		if runs[i], err = createRun(base, ""); err != nil {
			return peerRow{}, err
		}
	}
	steps := make([]int64, workers)
	mk := func(w int) *http.Request {
		return postJSON(base+"runs/log-batch", "", logBatchBody(runs[w], batch, &steps[w]))
	}
	if err := warmUp(workers, mk); err != nil {
		return peerRow{}, err
	}
	res := runLoad(d, workers, mk)
	label := p.label(venv)
	fmt.Printf("%s runs/log-batch: %s\n", label, res)
	return okRow(label, "peer", res, batch), nil
}

// logBatchBody is one runs/log-batch request: n metrics over 4 keys,
// steps from *step on.
func logBatchBody(run string, n int, step *int64) []byte {
	type metric struct {
		Key       string  `json:"key"`
		Value     float64 `json:"value"`
		Timestamp int64   `json:"timestamp"`
		Step      int64   `json:"step"`
	}
	ts := time.Now().UnixMilli()
	ms := make([]metric, n)
	for i := range ms {
		st := *step + int64(i/4)
		ms[i] = metric{Key: "series" + strconv.Itoa(i%4), Value: float64(st%1000) / 997, Timestamp: ts, Step: st}
	}
	*step += int64((n + 3) / 4)
	b, _ := json.Marshal(map[string]any{"run_id": run, "metrics": ms})
	return b
}

// warmUp sends one request per client, unmeasured: a server's first
// writes (a worker's lazy set-up) can take seconds on a busy machine.
func warmUp(workers int, mk func(w int) *http.Request) error {
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		go func(w int) {
			resp, err := http.DefaultClient.Do(mk(w))
			if err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					err = fmt.Errorf("warm-up request: status %d", resp.StatusCode)
				}
			}
			errs <- err
		}(w)
	}
	for w := 0; w < workers; w++ {
		if err := <-errs; err != nil {
			return err
		}
	}
	return nil
}

// waitMLflow polls the default experiment until the server answers.
func waitMLflow(base string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		resp, err := http.Get(base + "experiments/get?experiment_id=0")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("server not ready after %s", limit)
}

// createRun starts a run in the default experiment (token: a bearer
// token, or "" for none).
func createRun(base, token string) (string, error) {
	body, _ := json.Marshal(map[string]any{"experiment_id": "0", "start_time": time.Now().UnixMilli()})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := postJSON(base+"runs/create", token, body).WithContext(ctx)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var out struct {
		Run struct {
			Info struct {
				RunID string `json:"run_id"`
			} `json:"info"`
		} `json:"run"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Run.Info.RunID == "" {
		return "", fmt.Errorf("runs/create: status %d, %v", resp.StatusCode, err)
	}
	return out.Run.Info.RunID, nil
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
