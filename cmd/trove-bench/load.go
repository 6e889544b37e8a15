package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"time"
)

// loadResult summarises one closed-loop load run.
type loadResult struct {
	Requests  int
	Errors    int
	Duration  time.Duration
	P50, P99  time.Duration
	PerSecond float64
}

func (r loadResult) String() string {
	return fmt.Sprintf("%8.0f req/s  p50 %7.3f ms  p99 %7.3f ms  (%d requests, %d errors)",
		r.PerSecond, ms(r.P50), ms(r.P99), r.Requests, r.Errors)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// runLoad sends the requests built by mk (given the client number) from
// `workers` goroutines for d.
func runLoad(d time.Duration, workers int, mk func(w int) *http.Request) loadResult {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers * 2}}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var mu sync.Mutex
	var lat []time.Duration
	errs := 0
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var local []time.Duration
			bad := 0
			for ctx.Err() == nil {
				t0 := time.Now()
				resp, err := client.Do(mk(w))
				if err != nil {
					bad++
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					bad++
				}
				local = append(local, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, local...)
			errs += bad
			mu.Unlock()
		}(w)
	}
	wg.Wait()
	el := time.Since(start)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	r := loadResult{Requests: len(lat), Errors: errs, Duration: el}
	if len(lat) > 0 {
		r.P50, r.P99 = lat[len(lat)/2], lat[len(lat)*99/100]
		r.PerSecond = float64(len(lat)) / el.Seconds()
	}
	return r
}

// postJSON builds a POST with a JSON body and optional bearer token.
func postJSON(url, token string, body []byte) *http.Request {
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req
}
