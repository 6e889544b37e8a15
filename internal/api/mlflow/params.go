package mlflow

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/jsonx"
)

// The parameter readers: a JSON body's member or a query-string value
// (always a string there), with MLflow's messages naming the field.

func badType(name, want string, raw json.RawMessage) error {
	v := string(raw)
	if len(v) > 100 {
		v = v[:100] + "..."
	}
	return apierr.MLflowInvalidParameter("Invalid value %s for parameter '%s' supplied: expected %s", v, name, want)
}

func missing(name string) error {
	return apierr.MLflowInvalidParameter("Missing value for required parameter '%s'. See the API docs for more information about request parameters.", name)
}

// path is a value the row's path carries ("{name}", router.go): always
// there once the row matched.
func (c *call) path(name string) string {
	var v string
	_ = json.Unmarshal(c.params[name], &v)
	return v
}

func (c *call) has(name string) bool {
	v, ok := c.params[name]
	return ok && len(v) > 0 && string(v) != "null"
}

// str reads a string parameter ("" when absent).
func (c *call) str(name string) (string, error) {
	v, ok := c.params[name]
	if !ok || len(v) == 0 || string(v) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", badType(name, "a string", v)
	}
	return s, nil
}

// required reads a string parameter that must be given and not empty.
func (c *call) required(name string) (string, error) {
	s, err := c.str(name)
	if err != nil {
		return "", err
	}
	if s == "" {
		return "", missing(name)
	}
	return s, nil
}

// strs reads a list of strings (a single string is a list of one).
func (c *call) strs(name string) ([]string, error) {
	v, ok := c.params[name]
	if !ok || len(v) == 0 || string(v) == "null" {
		return nil, nil
	}
	var list []string
	if err := json.Unmarshal(v, &list); err == nil {
		return list, nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return nil, badType(name, "a list of strings", v)
	}
	return []string{s}, nil
}

// int64p reads an integer parameter (a JSON number or a numeric string).
func (c *call) int64p(name string) (*int64, error) {
	return rawInt64(name, c.params[name])
}

// rawInt64 reads an integer member's raw value v (nil: absent).
func rawInt64(name string, v json.RawMessage) (*int64, error) {
	if len(v) == 0 || string(v) == "null" {
		return nil, nil
	}
	s := strings.Trim(string(v), `"`)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != float64(int64(f)) {
			return nil, badType(name, "an integer", v)
		}
		n = int64(f)
	}
	return &n, nil
}

// rawNumber reads a metric value's raw member v (nil: absent): a JSON
// number, or a string spelling one ("NaN", "Infinity" and "-Infinity"
// included), returned as its text.
func rawNumber(name string, v json.RawMessage) (string, bool, error) {
	if len(v) == 0 || string(v) == "null" {
		return "", false, nil
	}
	s := strings.Trim(string(v), `"`)
	if _, err := strconv.ParseFloat(s, 64); err != nil {
		switch s {
		case "NaN", "Infinity", "-Infinity", "inf", "-inf", "nan":
		default:
			return "", false, badType(name, "a number", v)
		}
	}
	return s, true, nil
}

// objects walks a list-of-objects parameter without encoding/json's
// reflection (log-batch carries up to 1,000 points): fn gets each
// object's members in order, name decoded (it aliases the body unless
// escaped: no copy per member) and value raw. A null element is an
// object without members, as encoding/json decodes it.
func (c *call) objects(name string, fn func(i int, key, val []byte) error) (int, error) {
	v, ok := c.params[name]
	if !ok || len(v) == 0 || string(v) == "null" {
		return 0, nil
	}
	n := 0
	err := jsonx.WalkArray(v, func(i int, el []byte) error {
		n = i + 1
		if string(el) == "null" {
			return nil
		}
		return jsonx.WalkObject(el, func(key []byte, escaped bool, val []byte) error {
			if escaped {
				k, ok := jsonx.MemberName(key, escaped)
				if !ok {
					return jsonx.ErrSyntax
				}
				key = []byte(k)
			}
			return fn(i, key, val)
		})
	})
	if errors.Is(err, jsonx.ErrSyntax) {
		return 0, badType(name, "a list of objects", v)
	}
	return n, err
}

// rawString reads a string member's raw value (null: ""), as
// encoding/json fills a string field; ok is false for any other type.
func rawString(v []byte) (string, bool) {
	if string(v) == "null" {
		return "", true
	}
	return jsonx.Unquote(v)
}

// list decodes a list-of-objects parameter into out.
func (c *call) list(name string, out any) error {
	v, ok := c.params[name]
	if !ok || len(v) == 0 || string(v) == "null" {
		return nil
	}
	if err := json.Unmarshal(v, out); err != nil {
		return badType(name, "a list of objects", v)
	}
	return nil
}
