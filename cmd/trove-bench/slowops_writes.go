package main

import (
	"fmt"
	"net/http"
	"sync"
	"time"
)

// timeWrites times the writes that index upkeep makes dearer, with 4
// clients: tasks.create (tags and hyper parameters), tasks.update of the
// tags (the indexed members change) and of the comment (none changes), and
// events.add_batch of 100 scalars (each batch updates its task's
// last_metrics).
func timeWrites(url, tok string, projects []string) error {
	const workers, perWorker = 4, 250
	created := make([][]string, workers)
	var mu sync.Mutex
	var firstErr error
	phase := func(name string, each func(w, i int) (*http.Request, func(map[string]any))) {
		var wg sync.WaitGroup
		start := time.Now()
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for i := 0; i < perWorker; i++ {
					req, got := each(w, i)
					var env struct {
						Data map[string]any `json:"data"`
					}
					if err := doJSON(req, &env); err != nil {
						mu.Lock()
						if firstErr == nil {
							firstErr = fmt.Errorf("%s: %w", name, err)
						}
						mu.Unlock()
						return
					}
					if got != nil {
						got(env.Data)
					}
				}
			}(w)
		}
		wg.Wait()
		el := time.Since(start)
		fmt.Printf("%-44s %5d calls in %6.1fs: %7.1f calls/s\n", name, workers*perWorker, el.Seconds(), float64(workers*perWorker)/el.Seconds())
	}
	phase("tasks.create (tags, hyper parameters)", func(w, i int) (*http.Request, func(map[string]any)) {
		body := fmt.Sprintf(`{"name":"write %d-%d","type":"training","project":%q,"tags":["common","w%d"],`+
			`"hyperparams":{"Args":{"lr":{"section":"Args","name":"lr","value":"%d"}}}}`, w, i, projects[i%len(projects)], i%10, i)
		return postJSON(url+"/tasks.create", tok, []byte(body)), func(d map[string]any) {
			id, _ := d["id"].(string)
			created[w] = append(created[w], id)
		}
	})
	if firstErr != nil {
		return firstErr
	}
	phase("tasks.update (tags change)", func(w, i int) (*http.Request, func(map[string]any)) {
		body := fmt.Sprintf(`{"task":%q,"tags":["common","u%d"]}`, created[w][i], i%7)
		return postJSON(url+"/tasks.update", tok, []byte(body)), nil
	})
	phase("tasks.update (comment only)", func(w, i int) (*http.Request, func(map[string]any)) {
		body := fmt.Sprintf(`{"task":%q,"comment":"c%d"}`, created[w][i], i)
		return postJSON(url+"/tasks.update", tok, []byte(body)), nil
	})
	if firstErr != nil {
		return firstErr
	}
	iters := make([]int64, workers)
	res := runLoad(10*time.Second, workers, func(w int) *http.Request {
		body := scalarLines(make([]byte, 0, 100*170), created[w][0], 100, &iters[w])
		req := postJSON(url+"/events.add_batch", tok, body)
		req.Header.Set("Content-Type", "application/json-lines")
		return req
	})
	fmt.Printf("%-44s %s: %.0f events/s\n", "events.add_batch (100 scalars, 4 tasks)", res, res.PerSecond*100)
	return nil
}
