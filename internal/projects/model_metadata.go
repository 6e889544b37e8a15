package projects

import (
	"context"
	"encoding/json"
	"sort"

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
	all := make([]string, 0, len(seen))
	for k := range seen {
		all = append(all, k)
	}
	sort.Strings(all)
	keys := pageOf(all, page)
	return &MetadataKeys{Keys: keys, Total: len(all), Remaining: max(0, len(all)-page.Number*page.Size-len(keys))}, nil
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
	values := make([]string, 0, len(seen))
	for v := range seen {
		values = append(values, v)
	}
	sort.Slice(values, func(i, j int) bool { return numericLess(values[i], values[j]) })
	return len(values), pageOf(values, page), nil
}
