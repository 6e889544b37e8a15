package export

import "testing"

// TestAsText: every formula prefix, the fullwidth ones included, gets a
// quote; other values and the empty cell are unchanged.
func TestAsText(t *testing.T) {
	for in, want := range map[string]string{
		"=1+1": "'=1+1", "+1": "'+1", "-1": "'-1", "@A1": "'@A1", "\tx": "'\tx", "\rx": "'\rx",
		"\uFF1Dx": "'\uFF1Dx", "": "", "a=b": "a=b", " =x": " =x", "'=x": "'=x",
	} {
		if got := asText(in); got != want {
			t.Errorf("asText(%q) = %q, want %q", in, got, want)
		}
	}
}
