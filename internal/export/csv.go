package export

import (
	"io"
	"strings"
)

// writeRow writes one CSV record with every cell quoted (as the
// reference's files), quotes doubled, ended by CRLF.
func writeRow(w io.Writer, cells []string) error {
	var b strings.Builder
	for i, c := range cells {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		b.WriteString(strings.ReplaceAll(c, `"`, `""`))
		b.WriteByte('"')
	}
	b.WriteString("\r\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// formulaPrefixes start cells a spreadsheet would run as a formula.
const formulaPrefixes = "=+-@\t\r"

// safeCell keeps a data cell from being read as a spreadsheet formula: a
// value starting with = + - @ tab or carriage return gets a leading
// single quote (CSV injection; as the reference from 2.1).
func safeCell(v string) string {
	if v != "" && strings.ContainsRune(formulaPrefixes, rune(v[0])) {
		return "'" + v
	}
	return v
}
