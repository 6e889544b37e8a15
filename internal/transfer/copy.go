package transfer

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/trove-ml/trove/internal/store"
)

// CopyResult is what a copy did and what its check found.
type CopyResult struct {
	Rows    int64
	Elapsed time.Duration
	Check   *CopyCheck
}

// Copy moves every table of src into the empty store dst, table by table
// with a progress bar on progress, then compares both stores. It returns
// an error when the target is not empty or the comparison finds a
// difference (the result still describes the check).
func Copy(ctx context.Context, src, dst *store.DB, progress io.Writer) (*CopyResult, error) {
	c, err := NewCopier(ctx, src, dst)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var total int64
	for _, t := range c.Tables() {
		total += t.Rows
	}
	bar := NewProgress(progress, total)
	start := time.Now()
	for _, t := range c.Tables() {
		bar.Label(t.Name)
		if err := c.CopyTable(ctx, t.Name, bar.Add); err != nil {
			bar.Finish()
			return nil, err
		}
	}
	bar.Finish()
	res := &CopyResult{Rows: total, Elapsed: time.Since(start)}
	fmt.Fprintf(progress, "copied %d rows in %s; checking...\n", total, res.Elapsed.Round(time.Millisecond))
	if res.Check, err = c.Verify(ctx); err != nil {
		return res, err
	}
	if !res.Check.OK() {
		return res, fmt.Errorf("copy: the target differs from the source:\n%s", Differences(res.Check))
	}
	return res, nil
}

// Differences describes every mismatch of a check, one per line.
func Differences(c *CopyCheck) string {
	var b strings.Builder
	for _, n := range c.Counts {
		if n.Source != n.Target {
			fmt.Fprintf(&b, "  table %s: %d rows in the source, %d in the target\n", n.Table, n.Source, n.Target)
		}
	}
	for _, d := range c.TaskDiffs {
		fmt.Fprintf(&b, "  %s\n", d)
	}
	return b.String()
}

// Summary is a short account of a successful check.
func Summary(c *CopyCheck) string {
	var rows int64
	for _, n := range c.Counts {
		rows += n.Target
	}
	return fmt.Sprintf("check passed: %d tables, %d rows, events of %d tasks match", len(c.Counts), rows, c.Tasks)
}
