package mlflow

import (
	"strings"
	"testing"
)

func TestPageSize(t *testing.T) {
	for _, c := range []struct {
		n, want int
		w       sizeWording
		err     string
	}{
		{0, 7, trackingWording, ""},
		{-3, 7, registryWording, ""},
		{5, 5, trackingWording, ""},
		{10, 10, registryWording, ""},
		{11, 0, trackingWording, "Invalid value 11 for parameter 'max_results' supplied. It must be at most 10"},
		{11, 0, registryWording, "It must be at most 10, but got value 11"},
	} {
		got, err := pageSize(c.n, 7, 10, c.w)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("pageSize(%d): error %v, want %q", c.n, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("pageSize(%d) = %d, %v; want %d", c.n, got, err, c.want)
		}
	}
}

func TestPageWalksAList(t *testing.T) {
	list := []int{1, 2, 3, 4, 5}
	var seen []int
	tok := ""
	for i := 0; i < 10; i++ {
		pg, next, err := page(list, tok, 2)
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, pg...)
		if next == "" {
			break
		}
		tok = next
	}
	if len(seen) != 5 || seen[0] != 1 || seen[4] != 5 {
		t.Fatalf("pages gave %v", seen)
	}
	if pg, next, err := page(list, PageToken(9), 2); err != nil || pg != nil || next != "" {
		t.Fatalf("past the end: %v %q %v", pg, next, err)
	}
	if _, _, err := page(list, "not-a-token!", 2); err == nil {
		t.Fatal("a bad token is refused")
	}
}

func TestCutPageGivesATokenOnlyWhenMoreRemain(t *testing.T) {
	// read from offset 4 with one more than a page of 3
	out, next := cutPage([]string{"a", "b", "c", "d"}, 4, 3)
	if len(out) != 3 || next != PageToken(7) {
		t.Fatalf("got %v %q", out, next)
	}
	if out, next := cutPage([]string{"a", "b"}, 4, 3); len(out) != 2 || next != "" {
		t.Fatalf("last page: %v %q", out, next)
	}
}
