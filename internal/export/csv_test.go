package export

import "testing"

// TestSafeCell: every formula prefix gets a quote; other values and the
// empty cell are unchanged.
func TestSafeCell(t *testing.T) {
	for in, want := range map[string]string{
		"=1+1": "'=1+1", "+1": "'+1", "-1": "'-1", "@A1": "'@A1", "\tx": "'\tx", "\rx": "'\rx",
		"": "", "a=b": "a=b", " =x": " =x", "'=x": "'=x",
	} {
		if got := safeCell(in); got != want {
			t.Errorf("safeCell(%q) = %q, want %q", in, got, want)
		}
	}
}
