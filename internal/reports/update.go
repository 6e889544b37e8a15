package reports

import (
	"context"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

// UpdateInput is a partial edit of a report; nil fields are not given.
type UpdateInput struct {
	Company, User, Task string
	Name                *string
	Tags                *[]string
	Comment             *string
	Report              *string
	ReportAssets        *[]string
}

// contentGiven reports whether the edit touches more than the name, tags
// and comment (which a published report still accepts).
func (in UpdateInput) contentGiven() bool { return in.Report != nil || in.ReportAssets != nil }

func (in UpdateInput) empty() bool {
	return in.Name == nil && in.Tags == nil && in.Comment == nil && !in.contentGiven()
}

// reportPreviewLen bounds the report text echoed in an update's fields.
const reportPreviewLen = 100

// Update edits a report. Content (report, report_assets) changes only on
// a draft; name, tags and comment change in any status; every edit sets
// last_update. The answer's fields echo the changes (tags sorted, the report
// text shortened).
func Update(ctx context.Context, env *domain.Env, in UpdateInput) (*domain.Update, error) {
	if in.Name != nil && strings.TrimSpace(*in.Name) == "" {
		return nil, apierr.Validation("name", "must not be empty")
	}
	var res *domain.Update
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		t, err := load(ctx, env, q, in.Company, in.Task)
		if err != nil {
			return err
		}
		if in.empty() {
			res = &domain.Update{Updated: 0, Fields: map[string]any{}}
			return nil
		}
		if in.contentGiven() && t.Status != tasks.Created {
			return apierr.InvalidTaskStatus("").With("expected", tasks.Created, "status", t.Status)
		}
		fields := map[string]any{}
		if in.Name != nil {
			t.Name = strings.TrimSpace(*in.Name)
			fields["name"] = t.Name
		}
		if in.Tags != nil {
			t.Tags = domain.SortedTags(*in.Tags)
			fields["tags"] = t.Tags
		}
		if in.Comment != nil {
			t.Comment = in.Comment
			fields["comment"] = *in.Comment
		}
		if in.Report != nil {
			t.Report = in.Report
			fields["report"] = preview(*in.Report, reportPreviewLen)
		}
		if in.ReportAssets != nil {
			t.ReportAssets = append([]string{}, *in.ReportAssets...)
			fields["report_assets"] = t.ReportAssets
		}
		now := env.Time()
		// Any edit, a rename or new tags included, sets last_update (as
		// the reference from 2.1; the report list sorts by it).
		t.LastChange, t.LastChangedBy, t.LastUpdate = now, in.User, now
		t.Normalize()
		if err := env.DB.Tasks().Update(ctx, q, t); err != nil {
			return err
		}
		res = &domain.Update{Updated: 1, Fields: fields}
		return nil
	})
	return res, err
}

// preview collapses the whitespace of text and, when it is longer than
// width, cuts it at a word boundary and marks the cut with " [...]".
func preview(text string, width int) string {
	words := strings.Fields(text)
	full := strings.Join(words, " ")
	if len(full) <= width {
		return full
	}
	const mark = " [...]"
	out := ""
	for _, w := range words {
		next := w
		if out != "" {
			next = out + " " + w
		}
		if len(next)+len(mark) > width {
			break
		}
		out = next
	}
	return strings.TrimPrefix(out+mark, " ")
}
