package limits

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestReadmeListsEveryLimit: the README's Limits table states each bound
// with the value the code enforces.
func TestReadmeListsEveryLimit(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "## Limits")
	if i < 0 {
		t.Fatal("README has no Limits section")
	}
	table := s[i:]
	if j := strings.Index(table[3:], "\n## "); j >= 0 {
		table = table[:j+3]
	}
	for name, v := range map[string]int{
		"ListItems": ListItems, "FilterValues": FilterValues, "Pattern": Pattern, "PatternInsts": PatternInsts,
		"SearchText": SearchText, "SearchWords": SearchWords, "Name": Name, "Tag": Tag, "Message": Message,
		"Comment": Comment, "Lines": Lines, "EventKeys": EventKeys,
		"LoginFailures": LoginFailures, "LoginRefillPerSecond": LoginRefillPerSecond,
	} {
		if !strings.Contains(table, "| "+strconv.Itoa(v)) && !strings.Contains(table, ", "+strconv.Itoa(v)+" ") {
			t.Errorf("README Limits table does not state %s = %d", name, v)
		}
	}
}
