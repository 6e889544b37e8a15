package main

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"
)

// fleetConfig is what a fleet run sends.
type fleetConfig struct {
	n             int
	dur, interval time.Duration
	scalars       int
	timeout       time.Duration
	history       int64
	api           string
}

func (c fleetConfig) String() string {
	s := fmt.Sprintf("%d experiments x %d scalars every %s for %s through the %s API", c.n, c.scalars, c.interval, c.dur, c.api)
	if c.history > 0 {
		s += fmt.Sprintf(", after %d iterations of history each", c.history)
	}
	return s
}

// historyIters is the iterations of one history request (with 50
// scalars, a batch of 5,000 events).
const historyIters = 100

// fillHistory reports iterations [0, cfg.history) of every experiment
// before the measured phase, from 4 clients, so that the measured batches
// append to long series. A 20-s run from iteration 0 measures series of a
// few points, whose tails share pages; an experiment that has trained for
// minutes has a page of its own at the end of each series.
func (f *fleetServer) fillHistory(exps []experiment, cfg fleetConfig) error {
	if cfg.history <= 0 {
		return nil
	}
	start := time.Now()
	g, ctx := errgroup.WithContext(context.Background())
	g.SetLimit(4)
	for i, e := range exps {
		g.Go(func() error {
			step := int64(historyIters)
			if f.api == "mlflow" {
				step = int64(max(1, 1000/cfg.scalars)) // MLflow's 1,000 metrics a batch
			}
			for from := int64(0); from < cfg.history && ctx.Err() == nil; from += step {
				var err error
				if f.api == "mlflow" {
					err = sendOK(f.mlflowBatchRequest(e, from, min(cfg.history, from+step), cfg.scalars))
				} else {
					err = f.post(e, historyLines(e.task, from, min(cfg.history, from+step), cfg.scalars))
				}
				if err != nil {
					return fmt.Errorf("history of experiment %d: %w", i, err)
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	points := int64(len(exps)) * cfg.history * int64(cfg.scalars)
	fmt.Printf("history: %d points in %.1f s\n", points, time.Since(start).Seconds())
	return nil
}

// historyLines is iterations [from, to) of an experiment as one batch.
func historyLines(task string, from, to int64, scalars int) []byte {
	var buf []byte
	for it := from; it < to; it++ {
		if it > from {
			buf = append(buf, '\n')
		}
		buf = append(buf, fleetLines(task, it, scalars)...)
	}
	return buf
}

// post sends one add_batch of an experiment and checks that every event
// was taken.
func (f *fleetServer) post(e experiment, body []byte) error {
	var env struct {
		Data struct {
			Errors int `json:"errors"`
		} `json:"data"`
	}
	if err := doJSON(f.batchRequest(e, body), &env); err != nil {
		return err
	}
	if env.Data.Errors > 0 {
		return fmt.Errorf("add_batch answered \"errors\":%d", env.Data.Errors)
	}
	return nil
}

// settle waits, after a history, until the server's background work
// (checkpoints, rollups, PostgreSQL's packing of the history's points)
// is done: until Trove and the database together use less than a tenth
// of a core over settleWindow, or settleLimit has passed. Otherwise the
// measured phase would pay for the history.
func settle(trove func() time.Duration, db cpuMeter) {
	const settleWindow, settleLimit = 3 * time.Second, 10 * time.Minute
	start := time.Now()
	busy := func() time.Duration { return trove() + db.serverCPU() }
	for time.Since(start) < settleLimit {
		before := busy()
		time.Sleep(settleWindow)
		if used := busy() - before; used < settleWindow/10 {
			fmt.Printf("settled: the server was idle after %.0f s\n", time.Since(start).Seconds())
			return
		}
	}
	fmt.Printf("settle: the server was still busy after %s; measuring anyway\n", settleLimit)
}
