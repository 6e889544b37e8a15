package transfer

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"sort"
	"strings"

	"github.com/trove-ml/trove/internal/store"
)

// CopyCount is one table's row count on both sides of a copy.
type CopyCount struct {
	Table          string
	Source, Target int64
}

// CopyCheck is what a copy's verification found.
type CopyCheck struct {
	Counts []CopyCount
	// Tasks is how many tasks' events were compared; TaskDiffs names the
	// tasks (or models) whose events differ, with the table.
	Tasks     int
	TaskDiffs []string
}

// OK reports a copy whose counts and event checksums all agree.
func (c *CopyCheck) OK() bool {
	for _, n := range c.Counts {
		if n.Source != n.Target {
			return false
		}
	}
	return len(c.TaskDiffs) == 0
}

// digestSeeds key the row hashes: both sides of a check are hashed in this
// process, so per-process seeds compare; two give 128 bits.
var digestSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// taskDigest is an order-independent checksum of a task's rows in one
// table: the sum of row hashes, and the row count.
type taskDigest struct {
	a, b uint64
	n    int64
}

// Verify compares the target with the source snapshot: row counts per
// table, and per task a checksum of the rows of every event table.
func (c *Copier) Verify(ctx context.Context) (*CopyCheck, error) {
	out := &CopyCheck{}
	dstQ := store.Rebound(c.dst.ReadPool(), c.dst.D)
	for _, t := range c.tables {
		n, err := countRows(ctx, dstQ, c.dst.D, t.Name)
		if err != nil {
			return nil, err
		}
		out.Counts = append(out.Counts, CopyCount{Table: t.Name, Source: t.Rows, Target: n})
	}
	tasks := map[string]bool{}
	for _, t := range c.tables {
		if !isEventTable(t) {
			continue
		}
		// Both sides are read at once: they are different databases.
		var src, dst map[string]*taskDigest
		var srcErr, dstErr error
		done := make(chan struct{})
		go func() {
			src, srcErr = digestTable(ctx, c.srcQ, c.src.D, &t)
			close(done)
		}()
		dst, dstErr = digestTable(ctx, dstQ, c.dst.D, &t)
		<-done
		if srcErr != nil {
			return nil, fmt.Errorf("verify: source %s: %w", t.Name, srcErr)
		}
		if dstErr != nil {
			return nil, fmt.Errorf("verify: target %s: %w", t.Name, dstErr)
		}
		for task := range src {
			tasks[task] = true
		}
		for task := range dst {
			tasks[task] = true
		}
		out.TaskDiffs = append(out.TaskDiffs, digestDiffs(t.Name, src, dst)...)
	}
	out.Tasks = len(tasks)
	sort.Strings(out.TaskDiffs)
	return out, nil
}

// isEventTable reports tables of events: named event_ and holding a task
// column or a series column (the series' task owns the row).
func isEventTable(p copyPlan) bool {
	return strings.HasPrefix(p.Name, "event_") && (hasColumn(p, "task") || hasColumn(p, "series"))
}

func hasColumn(p copyPlan, name string) bool {
	for _, c := range p.cols {
		if c.name == name {
			return true
		}
	}
	return false
}

// seriesTasks maps event series ids to their task.
func seriesTasks(ctx context.Context, q store.Querier) (map[int64]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, task FROM event_series`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var task string
		if err := rows.Scan(&id, &task); err != nil {
			return nil, err
		}
		out[id] = task
	}
	return out, rows.Err()
}

// digestTable sums the row hashes of an event table per task.
func digestTable(ctx context.Context, q store.Querier, d store.Dialect, p *copyPlan) (map[string]*taskDigest, error) {
	names := make([]string, len(p.cols))
	taskCol, seriesCol := -1, -1
	for i, c := range p.cols {
		names[i] = quoteIdent(c.name)
		switch c.name {
		case "task":
			taskCol = i
		case "series":
			seriesCol = i
		}
	}
	var series map[int64]string
	if taskCol < 0 {
		var err error
		if series, err = seriesTasks(ctx, q); err != nil {
			return nil, err
		}
	}
	rows, err := q.QueryContext(ctx, "SELECT "+strings.Join(names, ", ")+" FROM "+copyFrom(d, p.Name))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	vals := make([]any, len(p.cols))
	ptrs := make([]any, len(vals))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	out := map[string]*taskDigest{}
	var buf []byte
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		buf = buf[:0]
		for i, c := range p.cols {
			v, err := convertValue(c.kind, vals[i])
			if err != nil {
				return nil, fmt.Errorf("column %s: %w", c.name, err)
			}
			vals[i] = v
			buf = appendCanonical(buf, v)
		}
		var task string
		if taskCol >= 0 {
			task, _ = vals[taskCol].(string)
		} else {
			id, _ := vals[seriesCol].(int64)
			task = series[id]
		}
		d := out[task]
		if d == nil {
			d = &taskDigest{}
			out[task] = d
		}
		d.a += maphash.Bytes(digestSeeds[0], buf)
		d.b += maphash.Bytes(digestSeeds[1], buf)
		d.n++
	}
	return out, rows.Err()
}

// appendCanonical encodes a converted value unambiguously.
func appendCanonical(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, 'n')
	case int64:
		b = append(b, 'i')
		return binary.LittleEndian.AppendUint64(b, uint64(x))
	case bool:
		if x {
			return append(b, 'i', 1, 0, 0, 0, 0, 0, 0, 0)
		}
		return append(b, 'i', 0, 0, 0, 0, 0, 0, 0, 0)
	case float64:
		b = append(b, 'f')
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	case string:
		b = append(b, 's')
		b = binary.LittleEndian.AppendUint64(b, uint64(len(x)))
		return append(b, x...)
	case []byte:
		b = append(b, 'b')
		b = binary.LittleEndian.AppendUint64(b, uint64(len(x)))
		return append(b, x...)
	}
	return append(b, fmt.Sprintf("?%v", v)...)
}

func digestDiffs(table string, src, dst map[string]*taskDigest) []string {
	var out []string
	for task, s := range src {
		d := dst[task]
		switch {
		case d == nil:
			out = append(out, fmt.Sprintf("%s: task %s has %d rows in the source and none in the target", table, task, s.n))
		case *d != *s:
			out = append(out, fmt.Sprintf("%s: task %s differs (%d rows in the source, %d in the target)", table, task, s.n, d.n))
		}
	}
	for task, d := range dst {
		if src[task] == nil {
			out = append(out, fmt.Sprintf("%s: task %s has %d rows in the target and none in the source", table, task, d.n))
		}
	}
	return out
}
