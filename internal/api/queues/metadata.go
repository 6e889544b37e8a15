package queues

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// metadataInput accepts metadata as a list of {key, type, value} items
// (the seeds) or as a map keyed by key (the reference); reads return the map.
type metadataInput struct {
	Items []*store.MetadataItem
	// Set is true when the field was present (even empty).
	Set bool
}

type metadataItemInput struct {
	Key   *string `json:"key"`
	Type  *string `json:"type"`
	Value *string `json:"value"`
}

// UnmarshalJSON implements json.Unmarshaler.
func (m *metadataInput) UnmarshalJSON(b []byte) error {
	m.Set = true
	m.Items = nil
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	var list []metadataItemInput
	keys := []string{}
	switch {
	case len(b) > 0 && b[0] == '[':
		if err := json.Unmarshal(b, &list); err != nil {
			return apierr.Validation("metadata", "expected a list of {key, type, value} items with string values")
		}
		for range list {
			keys = append(keys, "")
		}
	case len(b) > 0 && b[0] == '{':
		var byKey map[string]metadataItemInput
		if err := json.Unmarshal(b, &byKey); err != nil {
			return apierr.Validation("metadata", "expected a map of {key, type, value} items with string values")
		}
		for k := range byKey {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			list = append(list, byKey[k])
		}
	default:
		return apierr.Validation("metadata", "expected a list or a map of metadata items")
	}
	for i, it := range list {
		key := keys[i]
		if key == "" && it.Key != nil {
			key = *it.Key
		}
		switch {
		case key == "":
			return apierr.Validation("metadata.key", "field is required")
		case it.Type == nil:
			return apierr.Validation("metadata.type", "field is required: key=%s", key)
		case it.Value == nil:
			return apierr.Validation("metadata.value", "field is required: key=%s", key)
		}
		m.Items = append(m.Items, &store.MetadataItem{Key: key, Type: *it.Type, Value: *it.Value})
	}
	return nil
}

// Map returns the items keyed by key (the last of a repeated key wins).
func (m *metadataInput) Map() map[string]*store.MetadataItem {
	out := map[string]*store.MetadataItem{}
	for _, it := range m.Items {
		out[it.Key] = it
	}
	return out
}

type addOrUpdateMetadataRequest struct {
	Queue           string        `json:"queue" required:"true"`
	Metadata        metadataInput `json:"metadata"`
	ReplaceMetadata bool          `json:"replace_metadata"`
}

func (r *addOrUpdateMetadataRequest) Validate() error {
	if len(r.Metadata.Items) == 0 {
		return apierr.Validation("metadata", "at least one item is required")
	}
	return nil
}

type updatedResponse struct {
	Updated int `json:"updated"`
}

func (s *service) addOrUpdateMetadata(ctx context.Context, c *rpc.Call, req *addOrUpdateMetadataRequest) (*updatedResponse, error) {
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		qu, err := queues.GetForUpdate(ctx, s.d.DB, q, c.Company(), req.Queue)
		if err != nil {
			return err
		}
		if req.ReplaceMetadata {
			qu.Metadata = map[string]*store.MetadataItem{}
		}
		for k, it := range req.Metadata.Map() {
			qu.Metadata[k] = it
		}
		qu.LastUpdate = s.d.Time()
		return s.d.DB.Queues().Update(ctx, q, qu)
	})
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: 1}, nil
}

type deleteMetadataRequest struct {
	Queue string   `json:"queue" required:"true"`
	Keys  []string `json:"keys" required:"true"`
}

func (r *deleteMetadataRequest) Validate() error {
	if len(r.Keys) == 0 {
		return apierr.Validation("keys", "at least one key is required")
	}
	return nil
}

func (s *service) deleteMetadata(ctx context.Context, c *rpc.Call, req *deleteMetadataRequest) (*updatedResponse, error) {
	updated := 0
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		qu, err := queues.GetForUpdate(ctx, s.d.DB, q, c.Company(), req.Queue)
		if err != nil {
			return err
		}
		for _, k := range req.Keys {
			if _, ok := qu.Metadata[k]; ok {
				delete(qu.Metadata, k)
				updated = 1
			}
		}
		if updated == 0 {
			return nil
		}
		qu.LastUpdate = s.d.Time()
		return s.d.DB.Queues().Update(ctx, q, qu)
	})
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: updated}, nil
}
