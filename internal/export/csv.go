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
