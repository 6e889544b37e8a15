package api

import (
	"bytes"
	"sort"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// Metadata is metadata (models, queues) as clients send it: a list of
// {key, type, value} items (the seeds and the SDK) or a map keyed by key
// (the reference's read shape). Items need all three members; a map entry
// may leave out key, which the map key then supplies. A repeated key keeps
// its last item.
type Metadata struct {
	Items map[string]*store.MetadataItem
	// Set is true when the field was present in the request.
	Set bool
}

type metadataEntry struct {
	Key   *string `json:"key"`
	Type  *string `json:"type"`
	Value *string `json:"value"`
}

// UnmarshalJSON accepts a list of items or a map of items; null is "no items".
func (m *Metadata) UnmarshalJSON(b []byte) error {
	m.Set, m.Items = true, map[string]*store.MetadataItem{}
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		return nil
	case len(b) > 0 && b[0] == '[':
		var list []metadataEntry
		if err := jsonx.Unmarshal(b, &list); err != nil {
			return apierr.Validation("metadata", "expected a list of {key, type, value} items of strings")
		}
		for _, e := range list {
			it, err := e.item("")
			if err != nil {
				return err
			}
			m.Items[it.Key] = it
		}
	case len(b) > 0 && b[0] == '{':
		var byKey map[string]metadataEntry
		if err := jsonx.Unmarshal(b, &byKey); err != nil {
			return apierr.Validation("metadata", "expected a map of {key, type, value} items of strings")
		}
		for k, e := range byKey {
			it, err := e.item(k)
			if err != nil {
				return err
			}
			m.Items[k] = it
		}
	default:
		return apierr.Validation("metadata", "expected a list or a map of metadata items")
	}
	return nil
}

func (e metadataEntry) item(mapKey string) (*store.MetadataItem, error) {
	key := mapKey
	if e.Key != nil && mapKey == "" {
		key = *e.Key
	}
	switch {
	case key == "":
		return nil, apierr.Required("metadata.key")
	case e.Type == nil:
		return nil, apierr.Required("metadata.type").With("key", key)
	case e.Value == nil:
		return nil, apierr.Required("metadata.value").With("key", key)
	}
	return &store.MetadataItem{Key: key, Type: *e.Type, Value: *e.Value}, nil
}

// listMetadataVersion is the last version whose clients read metadata as a list.
var listMetadataVersion = rpc.MustVersion("2.16")

// ShapeMetadata rewrites the metadata of read items as the seeds' list
// (sorted by key) for clients of API 2.16 and older, whose schemas say list.
func ShapeMetadata(c *rpc.Call, items []map[string]any) {
	if listMetadataVersion.Less(c.Version) {
		return
	}
	for _, it := range items {
		md, ok := it["metadata"].(map[string]any)
		if !ok {
			continue
		}
		keys := make([]string, 0, len(md))
		for k := range md {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		list := make([]any, 0, len(keys))
		for _, k := range keys {
			list = append(list, md[k])
		}
		it["metadata"] = list
	}
}

// MetadataAdd is the body of an add_or_update_metadata call (models,
// queues) less the id of the record.
type MetadataAdd struct {
	Metadata        Metadata `json:"metadata"`
	ReplaceMetadata bool     `json:"replace_metadata"`
}

// Validate refuses a call without items.
func (r *MetadataAdd) Validate() error {
	if len(r.Metadata.Items) == 0 {
		return apierr.Validation("metadata", "at least one metadata item is required")
	}
	return nil
}

// MetadataKeys is the body of a delete_metadata call (models, queues) less
// the id of the record.
type MetadataKeys struct {
	Keys []string `json:"keys" required:"true"`
}

// Validate refuses a call without keys.
func (r *MetadataKeys) Validate() error {
	if len(r.Keys) == 0 {
		return apierr.Validation("keys", "at least one key is required")
	}
	return nil
}
