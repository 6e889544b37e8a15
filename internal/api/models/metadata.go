package models

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// Metadata is metadata as clients send it: a list of {key, type, value}
// items (the seeds and the SDK) or a map keyed by key (the reference's
// read shape). Items need all three members; a map entry may leave out
// key, which the map key then supplies.
type Metadata struct {
	Items map[string]*store.MetadataItem
	// Set is true when the field was present in the request.
	Set bool
}

// metadataEntry keeps track of which members an item carried.
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
		if err := json.Unmarshal(b, &list); err != nil {
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
		if err := json.Unmarshal(b, &byKey); err != nil {
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
		return nil, apierr.Validation("metadata.key", "field is required")
	case e.Type == nil:
		return nil, apierr.Validation("metadata.type", "field is required (key %s)", key)
	case e.Value == nil:
		return nil, apierr.Validation("metadata.value", "field is required (key %s)", key)
	}
	return &store.MetadataItem{Key: key, Type: *e.Type, Value: *e.Value}, nil
}

// metadataList is the seeds' list shape of stored metadata, sorted by key,
// returned to clients of API versions up to 2.16 (their schemas say list).
func metadataList(m map[string]any) []any {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]any, 0, len(keys))
	for _, k := range keys {
		out = append(out, m[k])
	}
	return out
}

// listMetadataVersion is the last version whose clients read metadata as a list.
var listMetadataVersion = rpc.MustVersion("2.16")

// shapeMetadata rewrites the metadata of read items for old clients.
func shapeMetadata(c *rpc.Call, items []map[string]any) {
	if listMetadataVersion.Less(c.Version) {
		return
	}
	for _, it := range items {
		if md, ok := it["metadata"].(map[string]any); ok {
			it["metadata"] = metadataList(md)
		}
	}
}

type addMetadataRequest struct {
	Model           string   `json:"model" required:"true"`
	Metadata        Metadata `json:"metadata"`
	ReplaceMetadata bool     `json:"replace_metadata"`
}

func (r *addMetadataRequest) Validate() error {
	if !r.Metadata.Set || len(r.Metadata.Items) == 0 {
		return apierr.Validation("metadata", "at least one metadata item is required")
	}
	return nil
}

type updatedResponse struct {
	Updated int `json:"updated"`
}

func (s *service) addOrUpdateMetadata(ctx context.Context, c *rpc.Call, req *addMetadataRequest) (*updatedResponse, error) {
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		m, err := s.loadWritable(ctx, q, c.Company(), req.Model)
		if err != nil {
			return err
		}
		if req.ReplaceMetadata {
			m.Metadata = map[string]*store.MetadataItem{}
		}
		for k, it := range req.Metadata.Items {
			m.Metadata[k] = it
		}
		s.touch(m, c.User(), true)
		return s.d.DB.Models().Update(ctx, q, m)
	})
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: 1}, nil
}

type deleteMetadataRequest struct {
	Model string   `json:"model" required:"true"`
	Keys  []string `json:"keys" required:"true"`
}

func (r *deleteMetadataRequest) Validate() error {
	if len(r.Keys) == 0 {
		return apierr.Validation("keys", "at least one key is required")
	}
	return nil
}

func (s *service) deleteMetadata(ctx context.Context, c *rpc.Call, req *deleteMetadataRequest) (*updatedResponse, error) {
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		m, err := s.loadWritable(ctx, q, c.Company(), req.Model)
		if err != nil {
			return err
		}
		for _, k := range req.Keys {
			delete(m.Metadata, k)
		}
		s.touch(m, c.User(), true)
		return s.d.DB.Models().Update(ctx, q, m)
	})
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: 1}, nil
}
