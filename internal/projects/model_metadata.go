package projects

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/domain"
)

// MetadataKeys is one page of the metadata keys of models.
type MetadataKeys struct {
	Keys             []string
	Remaining, Total int
}

// ModelMetadataKeys lists the distinct metadata keys of the scope's own
// and public models, sorted, one page.
func ModelMetadataKeys(ctx context.Context, env *domain.Env, s Scope, page Page) (*MetadataKeys, error) {
	ds, err := s.docScan(ctx, env, "models", true)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	ds.Member = []string{"metadata"}
	err = env.DB.ScanDocs(ctx, ds, func(doc []byte) error {
		var md map[string]json.RawMessage
		if err := json.Unmarshal(doc, &md); err != nil {
			return err
		}
		for k := range md {
			seen[k] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	keys, total, remaining := sortedPage(seen, func(a, b string) bool { return a < b }, page)
	return &MetadataKeys{Keys: keys, Total: total, Remaining: remaining}, nil
}

// ModelMetadataValues lists the distinct values of one metadata key of the
// scope's models (and public ones when public), numbers in numeric order
// before other strings. It returns the total and one page.
func ModelMetadataValues(ctx context.Context, env *domain.Env, s Scope, public bool, key string, page Page) (int, []string, error) {
	ds, err := s.docScan(ctx, env, "models", public)
	if err != nil {
		return 0, nil, err
	}
	seen := map[string]bool{}
	ds.Member = []string{"metadata", key}
	err = env.DB.ScanDocs(ctx, ds, func(doc []byte) error {
		var item *struct {
			Value *string `json:"value"`
		}
		if err := json.Unmarshal(doc, &item); err != nil {
			return err
		}
		if item != nil && item.Value != nil {
			seen[*item.Value] = true
		}
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	values, total, _ := sortedPage(seen, numericLess, page)
	return total, values, nil
}
