package transfer

import (
	"database/sql"
	"fmt"
)

// rowSource yields source rows converted to the target's column kinds.
type rowSource struct {
	rows *sql.Rows
	cols []catalogColumn
	vals []any
	ptrs []any
	err  error
}

// next advances to the following row; false at the end or on error.
func (s *rowSource) next() bool {
	if s.err != nil || !s.rows.Next() {
		return false
	}
	if s.vals == nil {
		s.vals = make([]any, len(s.cols))
		s.ptrs = make([]any, len(s.cols))
		for i := range s.vals {
			s.ptrs[i] = &s.vals[i]
		}
	}
	if s.err = s.rows.Scan(s.ptrs...); s.err != nil {
		return false
	}
	for i, c := range s.cols {
		if s.vals[i], s.err = convertValue(c.kind, s.vals[i]); s.err != nil {
			s.err = fmt.Errorf("column %s: %w", c.name, s.err)
			return false
		}
	}
	return true
}

// convertValue turns a value read from either backend into the Go type
// the target column of kind k takes.
func convertValue(k colKind, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch k {
	case kindInt:
		switch x := v.(type) {
		case int64:
			return x, nil
		case bool:
			if x {
				return int64(1), nil
			}
			return int64(0), nil
		case float64:
			return int64(x), nil
		}
	case kindFloat:
		switch x := v.(type) {
		case float64:
			return x, nil
		case int64:
			return float64(x), nil
		}
	case kindBool:
		switch x := v.(type) {
		case bool:
			return x, nil
		case int64:
			return x != 0, nil
		}
	case kindText, kindJSON:
		switch x := v.(type) {
		case string:
			return x, nil
		case []byte:
			return string(x), nil
		case int64, float64:
			return fmt.Sprint(x), nil
		}
	case kindBytes:
		switch x := v.(type) {
		case []byte:
			return x, nil
		case string:
			return []byte(x), nil
		}
	}
	return nil, fmt.Errorf("cannot carry a %T value", v)
}
