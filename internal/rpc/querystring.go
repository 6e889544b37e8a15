package rpc

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

var numericRe = regexp.MustCompile(`^\d+(\.\d*)?$|^\.\d+$`)

// convertQueryValue applies the reference's query-string typing: digits with
// at most one dot become numbers, true/false spellings become booleans.
func convertQueryValue(s string) any {
	switch s {
	case "true", "True", "TRUE":
		return true
	case "false", "False", "FALSE":
		return false
	}
	if numericRe.MatchString(s) {
		if !strings.Contains(s, ".") {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				return n
			}
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
	}
	return s
}

// mergeQuery writes query values into the body object: dotted keys nest,
// repeated keys or keys ending in [] become lists. It returns the new body.
func mergeQuery(body []byte, q url.Values) ([]byte, error) {
	obj := map[string]any{}
	if len(body) > 0 {
		dec := json.NewDecoder(strings.NewReader(string(body)))
		dec.UseNumber()
		if err := dec.Decode(&obj); err != nil {
			return nil, err
		}
		if obj == nil {
			obj = map[string]any{}
		}
	}
	for key, vals := range q {
		list := strings.HasSuffix(key, "[]")
		key = strings.TrimSuffix(key, "[]")
		var v any
		if list || len(vals) > 1 {
			items := make([]any, len(vals))
			for i, s := range vals {
				items[i] = convertQueryValue(s)
			}
			v = items
		} else {
			v = convertQueryValue(vals[0])
		}
		setPath(obj, strings.Split(key, "."), v)
	}
	return json.Marshal(obj)
}

func setPath(obj map[string]any, path []string, v any) {
	for i, p := range path {
		if i == len(path)-1 {
			obj[p] = v
			return
		}
		next, ok := obj[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			obj[p] = next
		}
		obj = next
	}
}
