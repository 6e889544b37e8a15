// Package mlflow holds the rules MLflow's tracking API brings to Trove
// (issue 38): experiments as projects, runs as tasks, MLflow's metric
// history, its search filter language and its limits. It is a domain
// package: no HTTP; internal/api/mlflow is its transport.
package mlflow

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/trove-ml/trove/internal/apierr"
)

// Entity kinds of a filter clause's left side.
const (
	KindMetric    = "metric"
	KindParam     = "param"
	KindTag       = "tag"
	KindAttribute = "attribute"
	KindDataset   = "dataset"
)

// Clause is one comparison of a search filter: kind.key op value(s).
type Clause struct {
	Kind string
	Key  string
	Op   string
	// Str holds the string value(s); Num the number of a numeric value.
	Str     []string
	Num     float64
	Numeric bool
}

var kindPrefixes = map[string]string{
	"metric": KindMetric, "metrics": KindMetric,
	"param": KindParam, "params": KindParam, "parameter": KindParam, "parameters": KindParam,
	"tag": KindTag, "tags": KindTag,
	"attribute": KindAttribute, "attributes": KindAttribute, "attr": KindAttribute, "run": KindAttribute,
	"dataset": KindDataset, "datasets": KindDataset,
}

type token struct {
	kind string // ident, str, num, op, lparen, rparen, comma, quoted (backtick)
	text string
}

func filterErr(format string, args ...any) error {
	return apierr.MLflowInvalidParameter(format, args...)
}

// lex splits a filter into tokens.
func lex(s string) ([]token, error) {
	var out []token
	rs := []rune(s)
	for i := 0; i < len(rs); {
		c := rs[i]
		switch {
		case unicode.IsSpace(c):
			i++
		case c == '(':
			out = append(out, token{"lparen", "("})
			i++
		case c == ')':
			out = append(out, token{"rparen", ")"})
			i++
		case c == ',':
			out = append(out, token{"comma", ","})
			i++
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			var sb strings.Builder
			closed := false
			for j < len(rs) {
				if rs[j] == '\\' && j+1 < len(rs) && rs[j+1] == c {
					sb.WriteRune(c)
					j += 2
					continue
				}
				if rs[j] == c {
					closed = true
					break
				}
				sb.WriteRune(rs[j])
				j++
			}
			if !closed {
				return nil, filterErr("Invalid filter '%s': unterminated quote at position %d", s, i)
			}
			k := "str"
			switch c {
			case '`':
				k = "quoted"
			case '"':
				k = "dquoted"
			}
			out = append(out, token{k, sb.String()})
			i = j + 1
		case c == '=' || c == '!' || c == '<' || c == '>':
			j := i + 1
			if j < len(rs) && rs[j] == '=' {
				j++
			}
			op := string(rs[i:j])
			if op == "!" {
				return nil, filterErr("Invalid filter '%s': '!' must be followed by '='", s)
			}
			if op == "==" {
				op = "="
			}
			out = append(out, token{"op", op})
			i = j
		case c == '-' || c == '+' || c == '.' || unicode.IsDigit(c):
			j := i + 1
			for j < len(rs) && (unicode.IsDigit(rs[j]) || rs[j] == '.' || rs[j] == 'e' || rs[j] == 'E' ||
				((rs[j] == '-' || rs[j] == '+') && (rs[j-1] == 'e' || rs[j-1] == 'E'))) {
				j++
			}
			out = append(out, token{"num", string(rs[i:j])})
			i = j
		case unicode.IsLetter(c) || c == '_':
			j := i + 1
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || strings.ContainsRune("_.-/:", rs[j])) {
				if rs[j] == '.' && j+1 < len(rs) && (rs[j+1] == '`' || rs[j+1] == '"') {
					j++ // prefix.`quoted key`
					break
				}
				j++
			}
			out = append(out, token{"ident", string(rs[i:j])})
			i = j
		default:
			return nil, filterErr("Invalid filter '%s': unexpected character %q at position %d", s, c, i)
		}
	}
	return out, nil
}

// ParseFilter parses a run search filter: clauses joined by AND.
func ParseFilter(s string) ([]Clause, error) {
	return clauses(s, func(toks []token) (Clause, int, error) { return parseClause(s, toks) })
}

// clauses reads a filter of clauses joined by AND, each read by one
// (which returns the clause and the tokens it took): the one grammar of
// run, experiment, registry and logged-model filters, with its bounds.
func clauses(s string, one func(toks []token) (Clause, int, error)) ([]Clause, error) {
	if len(s) > MaxFilterLen {
		return nil, filterErr("Invalid filter: %d characters, the limit is %d", len(s), MaxFilterLen)
	}
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	var out []Clause
	for i := 0; i < len(toks); {
		if len(out) > 0 {
			if toks[i].kind != "ident" || !strings.EqualFold(toks[i].text, "and") {
				return nil, filterErr("Invalid filter '%s': expected AND between clauses, got '%s'", s, toks[i].text)
			}
			i++
		}
		if len(out) == MaxFilterTerms {
			return nil, filterErr("Invalid filter: more than %d clauses", MaxFilterTerms)
		}
		c, n, err := one(toks[i:])
		if err != nil {
			return nil, err
		}
		out = append(out, c)
		i += n
	}
	return out, nil
}

// identifier reads kind.key from toks: prefix.key, prefix.`key`,
// prefix."key", or a bare attribute name.
func identifier(s string, toks []token) (kind, key string, n int, err error) {
	if len(toks) == 0 {
		return "", "", 0, filterErr("Invalid filter '%s': expected an identifier at the end", s)
	}
	t := toks[0]
	if t.kind != "ident" {
		return "", "", 0, filterErr("Invalid filter '%s': expected an identifier, got '%s'", s, t.text)
	}
	prefix, rest, dotted := strings.Cut(t.text, ".")
	if !dotted {
		if strings.EqualFold(t.text, "and") {
			return "", "", 0, filterErr("Invalid filter '%s': expected an identifier, got 'AND'", s)
		}
		return KindAttribute, t.text, 1, nil
	}
	k, ok := kindPrefixes[strings.ToLower(prefix)]
	if !ok {
		return "", "", 0, filterErr("Invalid entity type '%s'. Valid values are ['metric', 'parameter', 'tag', 'attribute', 'dataset']", prefix)
	}
	if rest == "" {
		if len(toks) > 1 && (toks[1].kind == "quoted" || toks[1].kind == "dquoted") {
			return k, toks[1].text, 2, nil
		}
		return "", "", 0, filterErr("Invalid filter '%s': '%s' names no key", s, t.text)
	}
	return k, rest, 1, nil
}

var attrString = map[string]bool{"run_id": true, "run_name": true, "status": true, "user_id": true, "artifact_uri": true, "lifecycle_stage": true}
var attrNumeric = map[string]bool{"start_time": true, "end_time": true, "created": true, "Created": true}
var datasetKeys = map[string]bool{"name": true, "digest": true, "context": true}

func parseClause(s string, toks []token) (Clause, int, error) {
	kind, key, n, err := identifier(s, toks)
	if err != nil {
		return Clause{}, 0, err
	}
	c := Clause{Kind: kind, Key: key}
	if c.Kind == KindAttribute {
		if key == "run_name" || key == "runName" {
			c.Key = "run_name"
		}
		if key == "Created" {
			c.Key = "created"
		}
		if !attrString[c.Key] && !attrNumeric[c.Key] {
			return Clause{}, 0, filterErr("Invalid attribute key '%s' specified. Valid keys are '%s'", key,
				"['run_id', 'run_name', 'status', 'user_id', 'artifact_uri', 'lifecycle_stage', 'start_time', 'end_time', 'created']")
		}
	}
	if c.Kind == KindDataset && !datasetKeys[key] {
		return Clause{}, 0, filterErr("Invalid dataset key '%s' specified. Valid keys are '['name', 'digest', 'context']'", key)
	}
	op, n, err := comparison(s, toks, n, key)
	if err != nil {
		return Clause{}, 0, err
	}
	c.Op = op
	if nullOp(op) {
		return Clause{}, 0, filterErr("Invalid filter '%s': '%s' is supported on experiment, registry and logged model tags only, not on runs", s, op)
	}
	numericKind := c.Kind == KindMetric || (c.Kind == KindAttribute && attrNumeric[c.Key])
	if op == "IN" || op == "NOT IN" {
		if numericKind {
			return Clause{}, 0, filterErr("Invalid comparator '%s' for %s '%s'", op, c.Kind, key)
		}
		vals, m, err := list(s, toks[n:])
		if err != nil {
			return Clause{}, 0, err
		}
		c.Str = vals
		return c, n + m, nil
	}
	if n >= len(toks) {
		return Clause{}, 0, filterErr("Invalid filter '%s': '%s %s' has no value", s, key, op)
	}
	v := toks[n]
	if numericKind {
		if op == "LIKE" || op == "ILIKE" {
			return Clause{}, 0, filterErr("Invalid comparator '%s' not one of '['=', '!=', '>', '>=', '<', '<=']'", op)
		}
		if v.kind != "num" {
			return Clause{}, 0, filterErr("Expected numeric value type for %s '%s', got '%s'", c.Kind, key, v.text)
		}
		f, perr := strconv.ParseFloat(v.text, 64)
		if perr != nil {
			return Clause{}, 0, filterErr("Invalid numeric value '%s' for %s '%s'", v.text, c.Kind, key)
		}
		c.Num, c.Numeric = f, true
		return c, n + 1, nil
	}
	if v.kind != "str" && v.kind != "dquoted" {
		return Clause{}, 0, filterErr("Value '%s' for %s '%s' must be a quoted string", v.text, c.Kind, key)
	}
	switch op {
	case "<", ">", "<=", ">=":
		return Clause{}, 0, filterErr("Invalid comparator '%s' not one of '['=', '!=', 'LIKE', 'ILIKE', 'IN', 'NOT IN']'", op)
	}
	c.Str = []string{v.text}
	return c, n + 1, nil
}

// The operators that take no value: a tag is absent, or present.
const (
	OpIsNull    = "IS NULL"
	OpIsNotNull = "IS NOT NULL"
)

// nullOp tells whether op is IS NULL or IS NOT NULL.
func nullOp(op string) bool { return op == OpIsNull || op == OpIsNotNull }

// operator reads a clause's comparison.
func operator(s string, toks []token) (string, int, error) {
	t := toks[0]
	if t.kind == "op" {
		return t.text, 1, nil
	}
	if t.kind == "ident" {
		switch strings.ToUpper(t.text) {
		case "LIKE", "ILIKE", "IN":
			return strings.ToUpper(t.text), 1, nil
		case "NOT":
			if len(toks) > 1 && toks[1].kind == "ident" && strings.EqualFold(toks[1].text, "in") {
				return "NOT IN", 2, nil
			}
		case "IS":
			// "IS NULL" and "IS NOT NULL" (MLflow 3's UI filters experiments by a tag's absence)
			if len(toks) > 1 && toks[1].kind == "ident" && strings.EqualFold(toks[1].text, "null") {
				return OpIsNull, 2, nil
			}
			if len(toks) > 2 && toks[1].kind == "ident" && strings.EqualFold(toks[1].text, "not") &&
				toks[2].kind == "ident" && strings.EqualFold(toks[2].text, "null") {
				return OpIsNotNull, 3, nil
			}
		}
	}
	return "", 0, filterErr("Invalid filter '%s': '%s' is not a comparison operator", s, t.text)
}

func list(s string, toks []token) ([]string, int, error) {
	if len(toks) == 0 || toks[0].kind != "lparen" {
		return nil, 0, filterErr("Invalid filter '%s': IN takes a parenthesised list of strings", s)
	}
	var vals []string
	i := 1
	for {
		if i >= len(toks) {
			return nil, 0, filterErr("Invalid filter '%s': unclosed list", s)
		}
		t := toks[i]
		if t.kind != "str" && t.kind != "dquoted" {
			return nil, 0, filterErr("Invalid filter '%s': list values must be quoted strings, got '%s'", s, t.text)
		}
		vals = append(vals, t.text)
		if len(vals) > MaxFilterTerms {
			return nil, 0, filterErr("Invalid filter: a list of more than %d values", MaxFilterTerms)
		}
		i++
		if i >= len(toks) {
			return nil, 0, filterErr("Invalid filter '%s': unclosed list", s)
		}
		if toks[i].kind == "rparen" {
			return vals, i + 1, nil
		}
		if toks[i].kind != "comma" {
			return nil, 0, filterErr("Invalid filter '%s': expected ',' or ')' in a list, got '%s'", s, toks[i].text)
		}
		i++
	}
}

// OrderKey is one order_by term.
type OrderKey struct {
	Kind string
	Key  string
	Desc bool
}

// ParseOrderBy parses order_by terms: "[kind.]key [ASC|DESC]".
func ParseOrderBy(terms []string) ([]OrderKey, error) {
	if err := checkOrderTerms(terms); err != nil {
		return nil, err
	}
	var out []OrderKey
	for _, term := range terms {
		toks, err := lexOrderTerm(term)
		if err != nil {
			return nil, err
		}
		kind, key, n, err := identifier(term, toks)
		if err != nil {
			return nil, filterErr("Invalid order_by clause '%s'", term)
		}
		k := OrderKey{Kind: kind, Key: key}
		if kind == KindAttribute {
			if key == "run_name" || key == "runName" {
				k.Key = "run_name"
			}
			if !attrString[k.Key] && !attrNumeric[k.Key] {
				return nil, filterErr("Invalid order_by clause '%s': unknown attribute '%s'", term, key)
			}
		}
		if kind == KindDataset {
			return nil, filterErr("Invalid order_by clause '%s': datasets do not order", term)
		}
		if k.Desc, err = orderDesc(term, toks[n:]); err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}
