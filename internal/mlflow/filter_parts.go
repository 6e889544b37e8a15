package mlflow

import "strings"

// Pieces every filter and order_by grammar shares (runs, traces,
// experiments, the registry, logged models), so each reads its
// comparison and its direction the same way.

// comparison reads the operator after a clause's key (toks[n:]); next is
// where its value starts.
func comparison(s string, toks []token, n int, key string) (op string, next int, err error) {
	if n >= len(toks) {
		return "", 0, filterErr("Invalid filter '%s': '%s' has no comparison", s, key)
	}
	op, m, err := operator(s, toks[n:])
	return op, n + m, err
}

// tagNullTest: IS NULL / IS NOT NULL ends a tag clause (done) and is
// refused on any other kind.
func tagNullTest(s, kind, op string) (done bool, err error) {
	if !nullOp(op) {
		return false, nil
	}
	if kind != KindTag {
		return true, filterErr("Invalid filter '%s': '%s' applies to tags only", s, op)
	}
	return true, nil
}

// checkOrderTerms bounds the terms of one order_by.
func checkOrderTerms(terms []string) error {
	if len(terms) > MaxOrderByTerms {
		return filterErr("Invalid order_by: %d terms, the limit is %d", len(terms), MaxOrderByTerms)
	}
	return nil
}

// lexOrderTerm bounds and lexes one order_by term.
func lexOrderTerm(term string) ([]token, error) {
	if len(term) > MaxFilterLen {
		return nil, filterErr("Invalid order_by clause: longer than %d characters", MaxFilterLen)
	}
	toks, err := lex(term)
	if err != nil {
		return nil, filterErr("Invalid order_by clause '%s'", term)
	}
	return toks, nil
}

// orderDesc reads what follows an order_by term's key: nothing or ASC
// (false), DESC (true).
func orderDesc(term string, rest []token) (bool, error) {
	switch {
	case len(rest) == 0:
		return false, nil
	case len(rest) == 1 && rest[0].kind == "ident" && strings.EqualFold(rest[0].text, "asc"):
		return false, nil
	case len(rest) == 1 && rest[0].kind == "ident" && strings.EqualFold(rest[0].text, "desc"):
		return true, nil
	}
	return false, filterErr("Invalid order_by clause '%s'", term)
}
