package main

import (
	"fmt"
	"net/http"
	"os"
	"runtime/pprof"
	"time"
)

// troveMLflowRow measures Trove's own MLflow API on the same server as
// its events.add_batch row: each client logs `batch` metrics a request to
// its own run with runs/log-batch, the body FastTrackML and MLflow get.
func troveMLflowRow(srv *benchServer, d time.Duration, workers, batch int, profile string) (peerRow, error) {
	base := srv.URL + "/api/2.0/mlflow/"
	runs := make([]string, workers)
	for i := range runs {
		var err error
		if runs[i], err = createRun(base, srv.Token); err != nil {
			return peerRow{}, err
		}
	}
	steps := make([]int64, workers)
	mk := func(w int) *http.Request {
		return postJSON(base+"runs/log-batch", srv.Token, logBatchBody(runs[w], batch, &steps[w]))
	}
	if err := warmUp(workers, mk); err != nil {
		return peerRow{}, err
	}
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return peerRow{}, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return peerRow{}, err
		}
		defer pprof.StopCPUProfile()
	}
	res := runLoad(d, workers, mk)
	fmt.Printf("trove runs/log-batch: %s\n", res)
	return okRow("Trove, MLflow API (runs/log-batch)", "trove-mlflow", res, batch), nil
}
