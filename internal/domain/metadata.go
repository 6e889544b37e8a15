package domain

import "github.com/trove-ml/trove/internal/store"

// PutMetadata is the add_or_update_metadata rule of models and queues:
// items are added to md, replacing items of the same key, or replace all
// of md when replace. It returns the new metadata.
func PutMetadata(md, items map[string]*store.MetadataItem, replace bool) map[string]*store.MetadataItem {
	if replace || md == nil {
		md = map[string]*store.MetadataItem{}
	}
	for k, it := range items {
		md[k] = it
	}
	return md
}

// DropMetadata is the delete_metadata rule of models and queues: the keys
// are removed from md. It reports whether any was there.
func DropMetadata(md map[string]*store.MetadataItem, keys []string) bool {
	removed := false
	for _, k := range keys {
		if _, ok := md[k]; ok {
			delete(md, k)
			removed = true
		}
	}
	return removed
}
