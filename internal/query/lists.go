package query

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/limits"
	"github.com/trove-ml/trove/internal/store"
)

// listTerm is one value of a list filter; nil Value means JSON null.
type listTerm struct {
	Value *string
}

func parseListTerms(field string, raw json.RawMessage) ([]listTerm, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, nil
	}
	var items []json.RawMessage
	if raw[0] == '[' {
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, apierr.Validation(field, "expected a list of strings")
		}
	} else {
		items = []json.RawMessage{raw}
	}
	if len(items) > limits.FilterValues {
		return nil, limits.TooMany(field, len(items), limits.FilterValues)
	}
	out := make([]listTerm, 0, len(items))
	for _, it := range items {
		if bytes.Equal(bytes.TrimSpace(it), []byte("null")) {
			out = append(out, listTerm{})
			continue
		}
		var s string
		if err := json.Unmarshal(it, &s); err != nil {
			var n json.Number
			if err2 := json.Unmarshal(it, &n); err2 != nil {
				return nil, apierr.Validation(field, "list items must be strings, got %s", string(it))
			}
			s = n.String()
		}
		if err := limits.CheckNUL(field, s); err != nil {
			return nil, err
		}
		out = append(out, listTerm{Value: &s})
	}
	return out, nil
}

// listCondition implements the list operators: plain values are OR-ed;
// "-x" excludes (legacy, before the first operator or after __$nop);
// __$all/__$and make following values all required; __$any/__$or any;
// __$not (and the seeds' __Snot) excludes the next value; __$nop resets.
// The first operator also decides whether the groups are AND-ed or OR-ed.
func (e exprs) listCondition(field string, terms []listTerm) (frag, error) {
	var anyInc, allInc, excl []frag
	mode := "any"
	groupOp := ""
	legacy := true
	negateNext := false
	for _, t := range terms {
		if t.Value == nil {
			f := e.empty(field)
			if negateNext {
				excl = append(excl, f)
				negateNext = false
			} else if mode == "all" {
				allInc = append(allInc, f)
			} else {
				anyInc = append(anyInc, f)
			}
			continue
		}
		v := *t.Value
		if strings.HasPrefix(v, "__$") || v == "__Snot" {
			op := strings.TrimPrefix(v, "__$")
			if v == "__Snot" {
				op = "not"
			}
			switch op {
			case "all", "and":
				mode = "all"
				if groupOp == "" {
					groupOp = "AND"
				}
			case "any", "or":
				mode = "any"
				if groupOp == "" {
					groupOp = "OR"
				}
			case "not":
				negateNext = true
				if groupOp == "" {
					groupOp = "AND"
				}
			case "nop":
				mode, legacy, negateNext = "any", true, false
				continue
			default:
				return frag{}, apierr.FieldsValue("unsupported list operator %s in field %s", v, field)
			}
			legacy = false
			continue
		}
		if negateNext {
			excl = append(excl, e.has(field, v))
			negateNext = false
			continue
		}
		if legacy && strings.HasPrefix(v, "-") && len(v) > 1 {
			excl = append(excl, e.has(field, v[1:]))
			continue
		}
		if mode == "all" {
			allInc = append(allInc, e.has(field, v))
		} else {
			anyInc = append(anyInc, e.has(field, v))
		}
	}
	if groupOp == "" {
		groupOp = "AND"
	}
	var groups []frag
	if len(anyInc) > 0 {
		groups = append(groups, joinFrags(anyInc, "OR"))
	}
	if len(allInc) > 0 {
		groups = append(groups, joinFrags(allInc, "AND"))
	}
	for _, x := range excl {
		groups = append(groups, not(x))
	}
	return joinFrags(groups, groupOp), nil
}

// filterSpec is one entry of get_all_ex "filters".
type filterSpec struct {
	Any *filterPart `json:"any"`
	All *filterPart `json:"all"`
	Op  string      `json:"op"`
}

type filterPart struct {
	Include []*string `json:"include"`
	Exclude []*string `json:"exclude"`
}

func (e exprs) filterCondition(field string, raw json.RawMessage) (frag, error) {
	var spec filterSpec
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&spec); err != nil {
		return frag{}, apierr.Validation("filters."+field, "expected {any: {include, exclude}, all: {include, exclude}, op}: %s", err.Error())
	}
	op := strings.ToUpper(spec.Op)
	if op == "" {
		op = "AND"
	}
	if op != "AND" && op != "OR" {
		return frag{}, apierr.Validation("filters."+field+".op", "must be 'and' or 'or', got %q", spec.Op)
	}
	cond := func(v *string) frag {
		if v == nil {
			return e.empty(field)
		}
		return e.has(field, *v)
	}
	var anyParts, allParts []frag
	if spec.Any != nil {
		for _, v := range spec.Any.Include {
			anyParts = append(anyParts, cond(v))
		}
		for _, v := range spec.Any.Exclude {
			anyParts = append(anyParts, not(cond(v)))
		}
	}
	if spec.All != nil {
		for _, v := range spec.All.Include {
			allParts = append(allParts, cond(v))
		}
		for _, v := range spec.All.Exclude {
			allParts = append(allParts, not(cond(v)))
		}
	}
	return joinFrags([]frag{joinFrags(anyParts, "OR"), joinFrags(allParts, "AND")}, op), nil
}

// ListFilter compiles a list-filter value (plain values, "-x", __$ operators,
// null) on field into a SQL condition with ? placeholders.
func ListFilter(d store.Dialect, s *Schema, field string, raw json.RawMessage) (string, []any, error) {
	terms, err := parseListTerms(field, raw)
	if err != nil || len(terms) == 0 {
		return "", nil, err
	}
	f, err := exprs{s, d}.listCondition(field, terms)
	return f.sql, f.args, err
}

// FieldFilter compiles one get_all_ex "filters" entry ({any: {include,
// exclude}, all: {include, exclude}, op}) on field into a SQL condition
// with ? placeholders.
func FieldFilter(d store.Dialect, s *Schema, field string, raw json.RawMessage) (string, []any, error) {
	f, err := exprs{s, d}.filterCondition(field, raw)
	return f.sql, f.args, err
}
