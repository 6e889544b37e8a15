package main

import (
	"fmt"
	"math/rand"
	"net/url"
	"strconv"
	"strings"
)

// hostileFields are request member names used across the services' request
// types (from their json tags); a body mixes them at random, whatever the
// operation, so each operation also sees members it does not expect.
var hostileFields = strings.Fields(`task tasks id ids project projects name tags system_tags created
	last_update started completed status status_reason status_message queue queues model models
	metrics metric variant variants iteration iters events scroll_id page page_size order_by
	only_fields search_text include_subprojects parent user type comment description hyperparams
	configuration execution script framework uri labels ready force metadata key value worker
	timestamp section new_status delete_output_models delete_external_artifacts return_file_urls
	navigate_earlier no_scroll batch_size allow_locked count max_iterations samples interval
	from_date to_date from_timestamp refresh move_to_trash delete_contents new_location
	project_name queue_name names keys items input output container runtime models_events
	model_events event_type tasks_state _allow_extra_fields_ __$all __$any __$and __$or
	last_iteration last_metrics position to task_name key_name design ui_cache parents
	get_task_info worker_pattern include_system stats_for_state non_public active_users
	replace_hyperparams replace_metadata update_task_status params hash`)

// fixtures are real ids of the store, so hostile values reach the code
// past the "unknown id" checks.
type fixtures struct {
	Tasks, Projects, Models, Queues, Workers []string
}

// idFields are members whose value is an id of an entity kind.
var idFields = map[string]func(f *fixtures) []string{
	"task": func(f *fixtures) []string { return f.Tasks }, "tasks": func(f *fixtures) []string { return f.Tasks },
	"id": func(f *fixtures) []string { return f.Tasks }, "ids": func(f *fixtures) []string { return f.Tasks },
	"project": func(f *fixtures) []string { return f.Projects }, "projects": func(f *fixtures) []string { return f.Projects },
	"model": func(f *fixtures) []string { return f.Models }, "models": func(f *fixtures) []string { return f.Models },
	"queue": func(f *fixtures) []string { return f.Queues }, "queues": func(f *fixtures) []string { return f.Queues },
	"worker": func(f *fixtures) []string { return f.Workers }, "parent": func(f *fixtures) []string { return f.Tasks },
}

// idFieldNames is idFields' keys in a fixed order, so a seed always
// gives the same stream.
var idFieldNames = []string{"id", "ids", "model", "models", "parent", "project", "projects", "queue", "queues", "task", "tasks", "worker"}

// hostileBody is one generated request.
type hostileBody struct {
	Op    string
	Query string // raw query string, or ""
	Body  []byte
	Kind  string
}

// generator builds hostile requests from one seeded source.
type generator struct {
	r   *rand.Rand
	fx  *fixtures
	ops []string
}

// next returns one request for a random operation.
func (g *generator) next() hostileBody {
	op := g.ops[g.r.Intn(len(g.ops))]
	switch k := g.r.Intn(100); {
	case k < 70:
		return hostileBody{Op: op, Body: g.object(0), Kind: "object"}
	case k < 80:
		return hostileBody{Op: op, Body: g.malformed(0), Kind: "malformed"}
	case k < 88:
		return hostileBody{Op: op, Body: g.jsonLines(), Kind: "json-lines"}
	default:
		return hostileBody{Op: op, Query: g.query(), Body: g.maybeEmpty(), Kind: "query-string"}
	}
}

// object is a JSON object of 1-5 members, each a hostile value (or, for an
// id member, often a real id), with a chance of the real ids alone.
func (g *generator) object(depth int) []byte {
	var b strings.Builder
	b.WriteByte('{')
	n := 1 + g.r.Intn(5)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		f := hostileFields[g.r.Intn(len(hostileFields))]
		if i == 0 && g.r.Intn(3) != 0 {
			// Lead with a real id most of the time.
			f = idFieldNames[g.r.Intn(len(idFieldNames))]
			if ids := idFields[f](g.fx); len(ids) > 0 && g.r.Intn(4) != 0 {
				id := strconv.Quote(ids[g.r.Intn(len(ids))])
				if strings.HasSuffix(f, "s") {
					id = "[" + id + "]"
				}
				b.WriteString(strconv.Quote(f) + ":" + id)
				continue
			}
		}
		b.WriteString(strconv.Quote(f) + ":")
		b.Write(g.value(f, depth))
	}
	b.WriteByte('}')
	return []byte(b.String())
}

// hugeNumbers are literals past what the store columns or the wire date
// format hold.
var hugeNumbers = []string{"1e308", "-1e308", "1180591620717411303424", "-1180591620717411303424",
	"-1000000000000000000", "253402300800000", "-62135596801000", "9223372036854775807",
	"-9223372036854775808", "18446744073709551616", "0", "-1", "1.5", "1e-320", "4294967296", "2147483648"}

// hostileStrings are short strings that mean something to a parser, a
// filter or the database.
var hostileStrings = []string{"", " ", "null", "NaN", "Infinity", "-Infinity", "__$all", "__$any", "__$not",
	"__$and", "__$or", "-", "-tag", "__$", "*", "%", "_", "\\", "'", `"`, "'; DROP TABLE tasks; --",
	"(a+)+$", "^(a|aa)*$", "(.*){1,1000}x", ".*.*.*.*.*.*.*.*.*.*x", "[", "(?P<", "\\1", "(?=x)",
	"9999-12-31T23:59:59", "10000-01-01T00:00:00", "0000-00-00", "2024-02-30T25:61:61Z", "1e308",
	"\u0000", "\uffff", "é" + strings.Repeat("\u0301", 50), "../../etc/passwd", "file:///etc/passwd",
	"-last_update", "-name", "project.name", "execution.queue", "hyperparams.Args.lr", "last_metrics.x.y.value",
	"metrics.*", "$regex", "completed", "published", "in_progress", "training", "nonexistent-id-000"}

// value is a hostile JSON value for member f.
func (g *generator) value(f string, depth int) []byte {
	if depth > 3 {
		return []byte(`null`)
	}
	if depth == 0 && g.r.Intn(25) == 0 {
		return g.heavy(f)
	}
	switch g.r.Intn(11) {
	case 0:
		return []byte(`null`)
	case 1:
		return []byte([]string{"true", "false"}[g.r.Intn(2)])
	case 2, 3:
		return []byte(hugeNumbers[g.r.Intn(len(hugeNumbers))])
	case 4, 5:
		return []byte(strconv.Quote(hostileStrings[g.r.Intn(len(hostileStrings))]))
	case 6:
		return g.list(f, depth)
	case 7:
		return g.object(depth + 1)
	case 8:
		return []byte(strconv.Quote(strings.Repeat("a", 1025+g.r.Intn(5000))))
	case 9:
		if pick := idFields[f]; pick != nil && len(pick(g.fx)) > 0 {
			ids := pick(g.fx)
			return []byte(strconv.Quote(ids[g.r.Intn(len(ids))]))
		}
		return []byte(strconv.Quote(fmt.Sprintf("%032x", g.r.Uint64())))
	default:
		// A list of operators and values, as list filters take them.
		ops := []string{"__$all", "__$any", "__$not", "__$and", "__$or", "-x", "x", "__$all", ""}
		parts := make([]string, 1+g.r.Intn(8))
		for i := range parts {
			parts[i] = strconv.Quote(ops[g.r.Intn(len(ops))])
		}
		return []byte("[" + strings.Join(parts, ",") + "]")
	}
}

// heavy is a value past a size limit: a long string, a long list, deep
// nesting or many members.
func (g *generator) heavy(f string) []byte {
	switch g.r.Intn(4) {
	case 0:
		return []byte(strconv.Quote(g.hugeString()))
	case 1:
		return g.hugeList(f)
	case 2:
		return g.deep()
	default:
		return g.manyKeys()
	}
}

// hugeString is a long string: repeated text, a pathological regex or a
// wide search.
func (g *generator) hugeString() string {
	n := []int{1025, 4097, 16384, 65537, 300000}[g.r.Intn(5)]
	switch g.r.Intn(4) {
	case 0:
		return strings.Repeat("a", n)
	case 1:
		return strings.Repeat("(a*)*", n/5) + "b"
	case 2:
		return strings.Repeat("word ", n/5)
	default:
		return strings.Repeat("é%_", n/4)
	}
}

// list is a short list of hostile values.
func (g *generator) list(f string, depth int) []byte {
	n := g.r.Intn(6)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = string(g.value(f, depth+1))
	}
	return []byte("[" + strings.Join(parts, ",") + "]")
}

// hugeList is a list past the per-call limits (ids, filter values).
func (g *generator) hugeList(f string) []byte {
	n := []int{101, 999, 10001, 32767, 70000}[g.r.Intn(5)]
	var b strings.Builder
	b.WriteByte('[')
	real := idFields[f]
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		if real != nil && len(real(g.fx)) > 0 && i%2 == 0 {
			ids := real(g.fx)
			b.WriteString(strconv.Quote(ids[i%len(ids)]))
		} else {
			fmt.Fprintf(&b, `"v%d"`, i)
		}
	}
	b.WriteByte(']')
	return []byte(b.String())
}

// deep is a value nested thousands of levels.
func (g *generator) deep() []byte {
	n := []int{100, 1000, 10000, 100000}[g.r.Intn(4)]
	open, close := "[", "]"
	if g.r.Intn(2) == 0 {
		open, close = `{"a":`, "}"
	}
	return []byte(strings.Repeat(open, n) + "1" + strings.Repeat(close, n))
}

// manyKeys is an object with many distinct members.
func (g *generator) manyKeys() []byte {
	n := []int{1001, 10000, 100000}[g.r.Intn(3)]
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":%d`, i, i)
	}
	b.WriteByte('}')
	return []byte(b.String())
}

// malformed is a body that is not one JSON object.
func (g *generator) malformed(depth int) []byte {
	obj := g.object(depth)
	switch g.r.Intn(10) {
	case 0:
		return obj[:g.r.Intn(len(obj))]
	case 1:
		return []byte(`{"task": NaN}`)
	case 2:
		return []byte(`{"page_size": Infinity, "page": -Infinity}`)
	case 3:
		return []byte([]string{`[]`, `null`, `1`, `"x"`, `true`, `[{"task":"x"}]`}[g.r.Intn(6)])
	case 4:
		return []byte("{\"name\":\"\xff\xfe\xfd\"}")
	case 5:
		return append(obj, []byte(`garbage}}`)...)
	case 6:
		return []byte(`{"task":"a","task":"b","task":{"$ne":1}}`)
	case 7:
		if depth == 0 {
			return g.deep()
		}
		return []byte(`[[[[[[[[[[{}]]]]]]]]]]`)
	case 8:
		return []byte("\x00\x01\x02")
	default:
		return []byte(`{"a":1,}`)
	}
}

// jsonLines is a body of several lines, objects and junk mixed.
func (g *generator) jsonLines() []byte {
	n := []int{2, 5, 50, 1000, 100001}[g.r.Intn(5)]
	if n > 1000 {
		return []byte(strings.Repeat("{}\n", n))
	}
	lines := make([]string, n)
	for i := range lines {
		if g.r.Intn(4) == 0 {
			lines[i] = string(g.malformed(1))
		} else {
			lines[i] = string(g.object(1))
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// query is a query string of hostile members.
func (g *generator) query() string {
	q := url.Values{}
	for i := 0; i < 1+g.r.Intn(4); i++ {
		f := hostileFields[g.r.Intn(len(hostileFields))]
		switch g.r.Intn(6) {
		case 0:
			q.Add(f+"[]", hostileStrings[g.r.Intn(len(hostileStrings))])
		case 1:
			q.Add(f+".a.b.c", "1")
		case 2:
			q.Add(f, hugeNumbers[g.r.Intn(len(hugeNumbers))])
		case 3:
			q.Add(f, strings.Repeat("x", 5000))
		default:
			if pick := idFields[f]; pick != nil && len(pick(g.fx)) > 0 {
				q.Add(f, pick(g.fx)[0])
			} else {
				q.Add(f, hostileStrings[g.r.Intn(len(hostileStrings))])
			}
		}
	}
	return q.Encode()
}

// maybeEmpty is the body sent with a query string.
func (g *generator) maybeEmpty() []byte {
	if g.r.Intn(2) == 0 {
		return nil
	}
	return g.object(0)
}
