package events

import (
	"errors"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/trove-ml/trove/internal/store/eventstore"
)

// DefaultLineFormat is the default line of a text log download.
const DefaultLineFormat = "{asctime} {worker} {level} {msg}"

// logFields are the placeholders a line format may use.
var logFields = map[string]bool{"asctime": true, "timestamp": true, "level": true, "worker": true, "msg": true}

// ErrLineFormat is a malformed line format.
var ErrLineFormat = errors.New("invalid line format")

// UndefinedPlaceholders is a line format naming unknown fields.
type UndefinedPlaceholders []string

func (u UndefinedPlaceholders) Error() string {
	return "undefined placeholders in line format: " + strings.Join(u, ", ")
}

// LineFormat renders log events with a Python str.format style template:
// {name}, {name:spec} with an optional fill, alignment and width, and
// doubled braces for literal ones.
type LineFormat struct {
	parts []formatPart
}

type formatPart struct {
	literal string
	field   string
	fill    rune
	align   byte
	width   int
}

var specRe = regexp.MustCompile(`^(?:(.)?([<>^]))?(\d*)$`)

// ParseLineFormat checks a template; unknown names give
// UndefinedPlaceholders, bad syntax ErrLineFormat.
func ParseLineFormat(s string) (*LineFormat, error) {
	s = strings.TrimRight(s, "\n") + "\n"
	f := &LineFormat{}
	var lit strings.Builder
	var undefined []string
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{' && i+1 < len(s) && s[i+1] == '{':
			lit.WriteByte('{')
			i++
		case c == '}' && i+1 < len(s) && s[i+1] == '}':
			lit.WriteByte('}')
			i++
		case c == '}':
			return nil, ErrLineFormat
		case c == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return nil, ErrLineFormat
			}
			p, err := parseField(s[i+1 : i+end])
			if err != nil {
				return nil, err
			}
			if !logFields[p.field] {
				undefined = append(undefined, p.field)
			}
			if lit.Len() > 0 {
				f.parts = append(f.parts, formatPart{literal: lit.String()})
				lit.Reset()
			}
			f.parts = append(f.parts, p)
			i += end
		default:
			lit.WriteByte(c)
		}
	}
	if len(undefined) > 0 {
		sort.Strings(undefined)
		return nil, UndefinedPlaceholders(undefined)
	}
	if lit.Len() > 0 {
		f.parts = append(f.parts, formatPart{literal: lit.String()})
	}
	return f, nil
}

func parseField(body string) (formatPart, error) {
	name, spec, _ := strings.Cut(body, ":")
	name, conv, hasConv := strings.Cut(name, "!")
	if name == "" || strings.ContainsAny(name, "{[.") || (hasConv && conv != "s" && conv != "r") {
		return formatPart{}, ErrLineFormat
	}
	p := formatPart{field: name, fill: ' '}
	m := specRe.FindStringSubmatch(spec)
	if m == nil {
		return formatPart{}, ErrLineFormat
	}
	if m[1] != "" {
		p.fill, _ = utf8.DecodeRuneInString(m[1])
	}
	if m[2] != "" {
		p.align = m[2][0]
	}
	if m[3] != "" {
		p.width, _ = strconv.Atoi(m[3])
	}
	return p, nil
}

// Line renders one log event.
func (f *LineFormat) Line(r *eventstore.LogRow) string {
	var b strings.Builder
	for _, p := range f.parts {
		if p.field == "" {
			b.WriteString(p.literal)
			continue
		}
		v := "None"
		switch p.field {
		case "asctime", "timestamp":
			v = strconv.FormatInt(r.TS, 10)
		case "level":
			v = deref(r.Level)
		case "worker":
			v = deref(r.Worker)
		case "msg":
			v = deref(r.Msg)
		}
		pad(&b, v, p)
	}
	return b.String()
}

func deref(s *string) string {
	if s == nil {
		return "None"
	}
	return *s
}

func pad(b *strings.Builder, v string, p formatPart) {
	n := p.width - utf8.RuneCountInString(v)
	if n <= 0 {
		b.WriteString(v)
		return
	}
	fill := strings.Repeat(string(p.fill), n)
	switch p.align {
	case '>':
		b.WriteString(fill + v)
	case '^':
		left := strings.Repeat(string(p.fill), n/2)
		b.WriteString(left + v + fill[len(left):])
	default:
		b.WriteString(v + fill)
	}
}
