package domain

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// Publicity says how one entity's make_public / make_private behaves.
type Publicity[P any] struct {
	// NotFound is the error naming the ids that do not qualify.
	NotFound func(ids ...string) error
	// Touch, when set, records the change on each record before it is
	// written (e.g. last_change).
	Touch func(rec P, now jsonx.Time)
	// Duplicate, when set, is the error of a write a unique constraint
	// refuses (e.g. a project name already public).
	Duplicate func(rec P) error
}

// SetPublic moves records to the public company ("") remembering their
// origin, or back to the origin, in one transaction. Every id must
// qualify (public: a record of company; private: a public record company
// published), else the call fails with NotFound naming the others and
// nothing changes. Store failures stay server errors. It returns the
// number of records written.
func SetPublic[S any, P interface {
	*S
	store.Owned
}](ctx context.Context, env *Env, table *store.Table[S, P], company string, ids []string, public bool, how Publicity[P]) (int, error) {
	n := 0
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		recs, notFound, err := table.GetEachForUpdate(ctx, q, ids, Visible(company)...)
		if err != nil {
			return err
		}
		bad := map[string]bool{}
		for _, id := range notFound {
			bad[id] = true
		}
		var qualified []P
		for _, rec := range recs {
			owner, origin := rec.Owner()
			if (public && owner != company) || (!public && (owner != "" || origin != company)) {
				bad[rec.RecordID()] = true
				continue
			}
			qualified = append(qualified, rec)
		}
		if len(bad) > 0 {
			var missing []string // in the order asked
			for _, id := range ids {
				if bad[id] {
					missing = append(missing, id)
				}
			}
			return how.NotFound(missing...)
		}
		now := env.Time()
		for _, rec := range qualified {
			owner, origin := rec.Owner()
			if public {
				rec.SetOwner("", owner)
			} else {
				rec.SetOwner(origin, "")
			}
			if how.Touch != nil {
				how.Touch(rec, now)
			}
			if err := table.Update(ctx, q, rec); err != nil {
				if how.Duplicate != nil && errors.Is(err, store.ErrDuplicate) {
					return how.Duplicate(rec)
				}
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// Readable is the list of companies whose records a list shows: the
// caller's own, plus the public ones when allowPublic.
func Readable(company string, allowPublic bool) []string {
	if allowPublic {
		return Visible(company)
	}
	return []string{company}
}
