package query

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/store"
)

// Typed conditions, for list queries written in a language other than
// ClearML's (MLflow's search filter, internal/mlflow): a caller parses its
// own language into Conds and OrderKeys; the plan turns them into SQL with
// every value bound as an argument.

// Operators of a Cond.
const (
	OpEq    = "="
	OpNe    = "!="
	OpLt    = "<"
	OpGt    = ">"
	OpLe    = "<="
	OpGe    = ">="
	OpLike  = "LIKE"
	OpILike = "ILIKE"
	OpIn    = "IN"
	OpNotIn = "NOT IN"
	// OpExists: the path holds a value (Values unused); OpMissing: it
	// holds none.
	OpExists  = "EXISTS"
	OpMissing = "MISSING"
	// OpHas and OpHasNot: a JSON array column holds (lacks) the value.
	OpHas    = "HAS"
	OpHasNot = "HAS NOT"
)

// Cond is one comparison: a schema column (Column) or a path inside the
// document (Path), an operator and its values (strings, or float64 for
// Numeric comparisons).
type Cond struct {
	Column  string
	Path    []string
	Op      string
	Values  []any
	Numeric bool
	// Elem, when set, makes Path a JSON array of objects: the condition
	// holds when some element's value at Elem compares (Column unused).
	Elem []string
	// Expr, when set, is the left side instead of a column or path.
	Expr *Expr
}

// OrderKey is one sort key: a column, a document path or an expression,
// compared as a number when Numeric. Rows without the value sort last
// either way.
type OrderKey struct {
	Column  string
	Path    []string
	Numeric bool
	Desc    bool
	Expr    *Expr
}

// Expr is a value of the row that the store writes as SQL (a lookup in a
// table kept beside the documents, store.MLflowLatestMetric), NULL when
// the row has none; it is used as it is (Numeric does not convert it).
type Expr struct {
	SQL  string
	Args []any
	// Driver, when set, is the indexed side table that holds the value:
	// DocsLate walks it in order when the Expr is the first sort key.
	Driver *store.Driver
}

// NewPlan is an empty plan over schema s reading limit rows from offset,
// in insertion order until OrderBy says otherwise.
func NewPlan(d store.Dialect, s *Schema, limit, offset int) *Plan {
	return &Plan{schema: s, e: exprs{s, d}, limit: limit, offset: offset, order: frag{sql: store.InsertOrderKey}}
}

// operand is the SQL text of a Cond's left side.
func (p *Plan) operand(column string, path []string, numeric bool, expr *Expr) (frag, error) {
	var f frag
	switch {
	case expr != nil:
		return frag{"(" + expr.SQL + ")", expr.Args}, nil
	case column != "":
		c, ok := p.schema.Columns[column]
		if !ok {
			return frag{}, fmt.Errorf("query: %q is not a column of %s", column, p.schema.Entity)
		}
		f = frag{sql: c.Name}
	case len(path) > 0:
		f = frag{p.e.d.JSONText("doc"), []any{p.e.d.JSONPathArg(path)}}
	default:
		return frag{}, fmt.Errorf("query: a condition names neither a column nor a path")
	}
	if numeric && column == "" {
		f.sql = p.e.d.Num(f.sql)
	}
	return f, nil
}

// WhereCond adds c to the plan's conditions.
func (p *Plan) WhereCond(c Cond) error {
	f, err := p.condFrag(c)
	if err != nil {
		return err
	}
	p.conds = append(p.conds, f)
	return nil
}

func (p *Plan) condFrag(c Cond) (frag, error) {
	if len(c.Elem) > 0 {
		return p.elemFrag(c)
	}
	left, err := p.operand(c.Column, c.Path, c.Numeric, c.Expr)
	if err != nil {
		return frag{}, err
	}
	return p.compare(left, c)
}

// compare is c's comparison with left as its left side.
func (p *Plan) compare(left frag, c Cond) (frag, error) {
	args := func(vals ...any) []any { return append(append([]any{}, left.args...), vals...) }
	switch c.Op {
	case OpHas, OpHasNot:
		if len(c.Values) != 1 {
			return frag{}, fmt.Errorf("query: %s takes one value", c.Op)
		}
		f := frag{p.e.d.ArrayHas(left.sql), args(c.Values[0])}
		if c.Op == OpHasNot {
			f = not(f)
		}
		return f, nil
	case OpExists:
		return frag{left.sql + " IS NOT NULL", args()}, nil
	case OpMissing:
		return frag{left.sql + " IS NULL", args()}, nil
	case OpEq, OpNe, OpLt, OpGt, OpLe, OpGe:
		if len(c.Values) != 1 {
			return frag{}, fmt.Errorf("query: %s takes one value", c.Op)
		}
		op := c.Op
		if op == OpNe {
			op = "<>"
		}
		if c.Expr != nil {
			// a missing value is NULL, which no comparison selects: the
			// expression (a lookup) is evaluated once
			return frag{left.sql + " " + op + " ?", args(c.Values[0])}, nil
		}
		return frag{"(" + left.sql + " IS NOT NULL AND " + left.sql + " " + op + " ?)", append(args(), append(left.args, c.Values[0])...)}, nil
	case OpIn, OpNotIn:
		if len(c.Values) == 0 {
			return frag{}, fmt.Errorf("query: %s takes values", c.Op)
		}
		sql := left.sql + " IN (" + store.Placeholders(len(c.Values)) + ")"
		if c.Op == OpNotIn {
			sql = "(" + left.sql + " IS NOT NULL AND " + left.sql + " NOT IN (" + store.Placeholders(len(c.Values)) + "))"
			return frag{sql, append(args(), append(left.args, c.Values...)...)}, nil
		}
		return frag{sql, args(c.Values...)}, nil
	case OpLike, OpILike:
		if len(c.Values) != 1 {
			return frag{}, fmt.Errorf("query: %s takes one value", c.Op)
		}
		pat, ok := c.Values[0].(string)
		if !ok {
			return frag{}, fmt.Errorf("query: %s takes a string", c.Op)
		}
		// A LIKE pattern is matched as the anchored regular expression it
		// spells: the dialects' LIKE differ in case (SQLite ignores it).
		ci := c.Op == OpILike
		if p.budget == nil {
			p.budget = &store.PatternBudget{}
		}
		name := strings.Join(append([]string{c.Column}, c.Path...), ".")
		arg, err := p.e.d.RegexArg(LikeRegex(pat), name, ci, p.budget)
		if err != nil {
			return frag{}, apierr.InvalidRegex(name, err.Error())
		}
		if _, token := arg.(string); token && arg != LikeRegex(pat) {
			ci = false // the token carries the case flag (SQLite)
		}
		return frag{p.e.d.Regex(left.sql, ci), args(arg)}, nil
	}
	return frag{}, fmt.Errorf("query: unknown operator %q", c.Op)
}

// elemFrag is c over the elements of the array at c.Path: EXISTS over
// them, the comparison built as for a scalar with the element's value as
// its left side.
func (p *Plan) elemFrag(c Cond) (frag, error) {
	if len(c.Path) == 0 || c.Column != "" || c.Numeric {
		return frag{}, fmt.Errorf("query: an element condition takes a document path and compares text")
	}
	from, val := p.e.d.ArrayObjEach("doc", "qe")
	f, err := p.compare(frag{val, []any{p.e.d.JSONPathArg(c.Elem)}}, c)
	if err != nil {
		return frag{}, err
	}
	return frag{"EXISTS (SELECT 1 FROM " + from + " WHERE " + f.sql + ")", append([]any{p.e.d.JSONPathArg(c.Path)}, f.args...)}, nil
}

// WhereAny adds the disjunction of conds (one condition true).
func (p *Plan) WhereAny(conds []Cond) error {
	fs := make([]frag, 0, len(conds))
	for _, c := range conds {
		f, err := p.condFrag(c)
		if err != nil {
			return err
		}
		fs = append(fs, f)
	}
	if f := joinFrags(fs, "OR"); f.sql != "" {
		p.conds = append(p.conds, f)
	}
	return nil
}

// LikeRegex is the anchored regular expression of a SQL LIKE pattern:
// % is any run of characters, _ any one character, everything else
// itself.
func LikeRegex(pattern string) string {
	var sb strings.Builder
	sb.WriteString("^")
	for _, r := range pattern {
		switch r {
		case '%':
			sb.WriteString("(?:.|\\n)*")
		case '_':
			sb.WriteString("(?:.|\\n)")
		default:
			sb.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	sb.WriteString("$")
	return sb.String()
}

// OrderBy sets the plan's order: keys in turn, rows missing a key's value
// after the others, then insertion order.
func (p *Plan) OrderBy(keys []OrderKey) error {
	f, err := p.orderFrag(keys, frag{})
	if err != nil {
		return err
	}
	p.order, p.orderKeys = f, keys
	return nil
}

// orderFrag is the ORDER BY of keys, after first when it is set.
func (p *Plan) orderFrag(keys []OrderKey, first frag) (frag, error) {
	var parts []string
	var args []any
	if first.sql != "" {
		parts, args = append(parts, first.sql), append(args, first.args...)
	}
	for _, k := range keys {
		f, err := p.operand(k.Column, k.Path, k.Numeric, k.Expr)
		if err != nil {
			return frag{}, err
		}
		if k.Expr != nil {
			// both dialects say NULLS LAST: the expression (a lookup) is
			// evaluated once a row
			parts = append(parts, f.sql+dirOf(k.Desc)+" NULLS LAST")
			args = append(args, f.args...)
			continue
		}
		parts = append(parts, "(CASE WHEN "+f.sql+" IS NULL THEN 1 ELSE 0 END) ASC", f.sql+dirOf(k.Desc))
		args = append(args, f.args...)
		args = append(args, f.args...)
	}
	if len(parts) == 0 {
		return frag{sql: store.InsertOrderKey}, nil
	}
	parts = append(parts, p.e.d.InsertOrder()+" ASC")
	return frag{strings.Join(parts, ", "), args}, nil
}

// Docs runs the plan on table and hands fn each stored document, in
// order.
func (p *Plan) Docs(ctx context.Context, db *store.DB, table string, fn func(doc []byte) error) error {
	where, args := p.whereSQL()
	err := Budgeted(ctx, func(ctx context.Context) error {
		return db.ListDocs(ctx, table, where, args, p.order.sql, p.order.args, p.limit, p.offset, fn)
	})
	return p.queryError(db, err)
}
