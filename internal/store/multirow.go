package store

import "context"

// MultiRowChunks are the row counts of multi-row statements: a few fixed
// shapes, so each is prepared once and kept in the statement cache
// (compiling a new 500-row INSERT for every batch was an eighth of
// MLflow log-batch's CPU).
var MultiRowChunks = []int{512, 128, 64, 32, 16, 8, 4, 2, 1}

// InsertRows writes n rows with multi-row statements "head VALUES row,
// ... tail" of the sizes in MultiRowChunks; add appends the cols
// arguments of row i.
func InsertRows(ctx context.Context, q Querier, d Dialect, head, row string, cols int, tail string, n int, add func(args []any, i int) []any) error {
	if n == 0 {
		return nil
	}
	i := 0
	// sized for the largest statement this call runs (one 512-row buffer
	// for every call was most of a small batch's allocations)
	args := make([]any, 0, min(n, MultiRowChunks[0])*cols)
	for _, size := range MultiRowChunks {
		for n-i >= size {
			args = args[:0]
			for j := 0; j < size; j++ {
				args = add(args, i+j)
			}
			if _, err := q.ExecContext(ctx, MultiRowSQL(d, head, row, tail, size), args...); err != nil {
				return err
			}
			i += size
		}
	}
	return nil
}
