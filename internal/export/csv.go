package export

import (
	"io"
	"strings"
)

// formulaStarts are the first characters that make a spreadsheet read a
// cell as a formula (or a command, through DDE): =, +, -, @, tab and
// carriage return as the reference lists them, and the fullwidth =, +, -
// and @ that some locales' spreadsheets read the same way.
var formulaStarts = []rune{'=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'}

// asText keeps a cell's text from being run as a formula: one that begins
// with a formula character gets a leading single quote, which
// spreadsheets read as "this cell is text" (the reference's escape).
// Only cells of text go through it: a value that is a number in the data
// (a metric, say -0.5) is written as the number, which cannot be a
// formula and stays a number in the spreadsheet.
func asText(s string) string {
	for _, r := range formulaStarts {
		if strings.HasPrefix(s, string(r)) {
			return "'" + s
		}
	}
	return s
}

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
