package store

import (
	"testing"

	"github.com/trove-ml/trove/internal/jsonx"
)

// TestDecodeDocRepairsUnreadableDates: a document an older version stored
// with a year it cannot read back still decodes, with the date moved to
// the nearest expressible one; other decode errors stay errors.
func TestDecodeDocRepairsUnreadableDates(t *testing.T) {
	var task Task
	doc := []byte(`{"id": "t1", "name": "poisoned", "created": "10000-01-01T00:00:00+00:00",
		"started": "-292277022657-01-27T08:29:52+00:00", "last_update": "2024-05-01T00:00:00+00:00"}`)
	if err := decodeDoc(doc, &task); err != nil {
		t.Fatalf("decode: %v", err)
	}
	if task.ID != "t1" || !task.Created.Equal(jsonx.MaxTime.Time) || task.Started == nil || !task.Started.Equal(jsonx.MinTime.Time) {
		t.Fatalf("repaired task: %+v", task)
	}
	if task.LastUpdate.Year() != 2024 {
		t.Fatalf("a readable date changed: %v", task.LastUpdate)
	}
	if err := decodeDoc([]byte(`{"id": 5}`), &task); err == nil {
		t.Fatal("a document of the wrong shape decoded")
	}
}
