package ids

import (
	"regexp"
	"testing"
)

func TestNewShapeAndUniqueness(t *testing.T) {
	shape := regexp.MustCompile(`^[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$`)
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		id := New()
		if !shape.MatchString(id) {
			t.Fatalf("id %q is not a version-4 UUID in 32 hex digits", id)
		}
		if seen[id] {
			t.Fatalf("id %q repeated", id)
		}
		seen[id] = true
	}
}
