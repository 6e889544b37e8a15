package mlflow

import (
	"regexp"
	"sort"
	"strings"
)

// The filters of the registry's and the logged models' searches: the run
// grammar (clauses joined by AND) over an entity's own attributes and
// tags, evaluated on the entities read (a company's registry is small).

// entityAttrs names an entity's filterable attributes: true for numeric.
type entityAttrs map[string]bool

// withMetrics, as a key of entityAttrs, lets the entity filter on
// metrics. (numbers).
const withMetrics = "metrics.*"

func (a entityAttrs) names() string {
	var out []string
	for k := range a {
		if k == withMetrics {
			continue
		}
		out = append(out, "'"+k+"'")
	}
	sort.Strings(out)
	return "[" + strings.Join(out, ", ") + "]"
}

// parseEntityFilter parses s over attrs and tags.
func parseEntityFilter(s string, attrs entityAttrs) ([]Clause, error) {
	return clauses(s, func(toks []token) (Clause, int, error) {
		kind, key, n, err := identifier(s, toks)
		if err != nil {
			return Clause{}, 0, err
		}
		c := Clause{Kind: kind, Key: key}
		numeric, known := attrs[key]
		switch {
		case kind == KindTag:
			numeric = false
		case kind == KindMetric && attrs[withMetrics]:
			numeric = true
		case kind == KindAttribute && known && key != withMetrics:
		default:
			return Clause{}, 0, filterErr("Invalid attribute key '%s' specified. Valid keys are '%s'", key, attrs.names())
		}
		op, j, err := comparison(s, toks, n, key)
		if err != nil {
			return Clause{}, 0, err
		}
		c.Op = op
		if done, err := tagNullTest(s, kind, op); err != nil || done {
			return c, j, err
		}
		if op == "IN" || op == "NOT IN" {
			if numeric {
				return Clause{}, 0, filterErr("Invalid comparator '%s' for attribute '%s'", op, key)
			}
			vals, m, err := list(s, toks[j:])
			if err != nil {
				return Clause{}, 0, err
			}
			c.Str = vals
			return c, j + m, nil
		}
		if j >= len(toks) {
			return Clause{}, 0, filterErr("Invalid filter '%s': '%s %s' has no value", s, key, op)
		}
		v := toks[j]
		if numeric {
			if op == "LIKE" || op == "ILIKE" {
				return Clause{}, 0, filterErr("Invalid comparator '%s' not one of '['=', '!=', '>', '>=', '<', '<=']'", op)
			}
			text := v.text
			if v.kind == "str" || v.kind == "dquoted" {
				text = strings.TrimSpace(text)
			} else if v.kind != "num" {
				return Clause{}, 0, filterErr("Expected numeric value type for attribute '%s', got '%s'", key, v.text)
			}
			f, perr := parseFloat(text)
			if perr != nil {
				return Clause{}, 0, perr
			}
			c.Num, c.Numeric = f, true
		} else {
			if v.kind != "str" && v.kind != "dquoted" {
				return Clause{}, 0, filterErr("Value '%s' for %s '%s' must be a quoted string", v.text, kind, key)
			}
			switch op {
			case "<", ">", "<=", ">=":
				return Clause{}, 0, filterErr("Invalid comparator '%s' not one of '['=', '!=', 'LIKE', 'ILIKE', 'IN', 'NOT IN']'", op)
			}
			c.Str = []string{v.text}
		}
		return c, j + 1, nil
	})
}

// likeRegexp turns a LIKE pattern (% and _) into an anchored regexp.
func likeRegexp(pattern string, fold bool) *regexp.Regexp {
	var sb strings.Builder
	if fold {
		sb.WriteString("(?is)^")
	} else {
		sb.WriteString("(?s)^")
	}
	for _, r := range pattern {
		switch r {
		case '%':
			sb.WriteString(".*")
		case '_':
			sb.WriteString(".")
		default:
			sb.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	sb.WriteString("$")
	return regexp.MustCompile(sb.String())
}

// matchString applies a string clause to have (present reports whether
// the entity has the value at all: a missing tag matches only IS NULL, !=
// and NOT IN, as MLflow's client relies on when it adds
// "tags.`mlflow.prompt.is_prompt` != 'true'" to every registry search).
func matchString(c Clause, have string, present bool) bool {
	switch c.Op {
	case OpIsNull:
		return !present
	case OpIsNotNull:
		return present
	}
	if !present {
		return c.Op == "!=" || c.Op == "NOT IN"
	}
	switch c.Op {
	case "=":
		return have == c.Str[0]
	case "!=":
		return have != c.Str[0]
	case "LIKE":
		return likeRegexp(c.Str[0], false).MatchString(have)
	case "ILIKE":
		return likeRegexp(c.Str[0], true).MatchString(have)
	case "IN":
		for _, v := range c.Str {
			if have == v {
				return true
			}
		}
		return false
	case "NOT IN":
		for _, v := range c.Str {
			if have == v {
				return false
			}
		}
		return true
	}
	return false
}

// matchNumber applies a numeric clause to have.
func matchNumber(c Clause, have float64) bool {
	switch c.Op {
	case "=":
		return have == c.Num
	case "!=":
		return have != c.Num
	case "<":
		return have < c.Num
	case "<=":
		return have <= c.Num
	case ">":
		return have > c.Num
	case ">=":
		return have >= c.Num
	}
	return false
}

// entityOrder is one order_by term of an entity search.
type entityOrder struct {
	Key  string
	Desc bool
}

// parseEntityOrder parses order_by terms "key [ASC|DESC]" over attrs.
func parseEntityOrder(terms []string, attrs map[string]bool) ([]entityOrder, error) {
	if len(terms) > MaxOrderByTerms {
		return nil, filterErr("Invalid order_by: %d terms, the limit is %d", len(terms), MaxOrderByTerms)
	}
	var out []entityOrder
	for _, term := range terms {
		fields := strings.Fields(term)
		if len(fields) == 0 || len(fields) > 2 {
			return nil, filterErr("Invalid order_by clause '%s'", term)
		}
		key := strings.TrimPrefix(fields[0], "attribute.")
		if !attrs[key] {
			return nil, filterErr("Invalid order by key '%s' specified. Valid keys are '%s'", key, entityAttrs(attrs).names())
		}
		o := entityOrder{Key: key}
		if len(fields) == 2 {
			switch strings.ToUpper(fields[1]) {
			case "ASC":
			case "DESC":
				o.Desc = true
			default:
				return nil, filterErr("Invalid order_by clause '%s'", term)
			}
		}
		out = append(out, o)
	}
	return out, nil
}
