package organization

import (
	"context"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Usage breakdown keys and fields of organization.get_project_usages (2.34).
var (
	UsageBreakdownKeys = []string{"project", "user", "queue"}
	UsageFields        = []string{"duration", "cpu_usage", "gpu_usage"}
)

// Task kinds left out of usages, as the reference's defaults: tasks with
// these system tags or of these types do not count.
var (
	usageExcludedTags  = []string{"dataset", "reports", "hidden"}
	usageExcludedTypes = []string{"dataset_import", "annotation", "annotation_manual", "report", "controller"}
)

// Default resource weights of a queue without resources (set by
// workers.register, 2.34): the usage is flagged as artificially weighted.
const (
	defaultCPUWeight = 1.0
	defaultGPUWeight = 1.0
)

// MaxUsageDays bounds the days of one usage read (each is a point of every
// series).
const MaxUsageDays = 3660

// otherQueue collects the time of tasks whose queue no longer exists.
const otherQueue = "_other_"

// UsageInput is an organization.get_project_usages.
type UsageInput struct {
	Company            string
	Projects           []string
	From, To           time.Time
	IncludeDevelopment bool
	// Breakdown and Fields default to project, queue and user, and to
	// duration and gpu_usage.
	Breakdown, Fields []string
}

// UsageTotal is one key's (project, user or queue) total usage.
type UsageTotal struct {
	Name, ID *string
	Values   map[string]float64
	// Artificial lists the usage types ("cpu", "gpu") weighted by default.
	Artificial []string
}

// UsageSeries is one key's usage per day.
type UsageSeries struct {
	Name, ID   *string
	Dates      []int64
	Values     map[string][]float64
	Artificial []string
}

// Usages are the totals and series of one breakdown key.
type Usages struct {
	Total  []UsageTotal
	Series []UsageSeries
}

// ParseUsageDate reads an ISO 8601 date-time (a trailing Z, an offset, or
// none for UTC); a bare date is its midnight.
func ParseUsageDate(field, s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, apierr.Validation(field, "invalid ISO 8601 date %q", s)
}

// ProjectUsages sums, per day of the request's time zone (the offset of
// From), the running time of the tasks of the projects and their
// subprojects, broken down by project, user and queue. With one project
// the breakdown is by its direct children (each with its subprojects) and
// itself; with several, by each of them with its subprojects. A task
// counts from started (or the start of the range) to completed (or the
// last status change, or now while in_progress), clipped to the range;
// cpu_usage and gpu_usage are that time times the queue's weight.
func ProjectUsages(ctx context.Context, env *domain.Env, in UsageInput) (map[string]*Usages, error) {
	if in.From.After(in.To) {
		return nil, apierr.Validation("from_date", "from_date cannot be later than to_date")
	}
	breakdown := in.Breakdown
	if len(breakdown) == 0 {
		breakdown = []string{"project", "queue", "user"}
	}
	fields := in.Fields
	if len(fields) == 0 {
		fields = []string{"duration", "gpu_usage"}
	}
	out := map[string]*Usages{}
	for _, b := range breakdown {
		out[b+"s"] = &Usages{Total: []UsageTotal{}, Series: []UsageSeries{}}
	}
	tz := in.From.Location()
	y, m, d := in.From.Date()
	start := time.Date(y, m, d, 0, 0, 0, 0, tz)
	y, m, d = in.To.In(tz).Date()
	lastDay := time.Date(y, m, d, 0, 0, 0, 0, tz)
	end := lastDay.AddDate(0, 0, 1)
	if end.Sub(start) > MaxUsageDays*24*time.Hour {
		return nil, apierr.Validation("to_date", "the range may span at most %d days", MaxUsageDays)
	}

	tree, err := env.DB.LoadProjectTree(ctx, env.DB.Read(), domain.Visible(in.Company)...)
	if err != nil {
		return nil, err
	}
	// groupOf maps every counted project to the project it is summed under.
	groupOf := map[string]string{}
	tops := in.Projects
	if len(in.Projects) == 1 {
		root := in.Projects[0]
		groupOf[root] = root
		tops = tree.Children[root]
	}
	for _, p := range tops {
		groupOf[p] = p
		for _, c := range tree.Descendants(p) {
			groupOf[c] = p
		}
	}
	ids := make([]string, 0, len(groupOf))
	for id := range groupOf {
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return out, nil
	}
	sort.Strings(ids)
	tasks, err := env.DB.Tasks().Select(ctx, env.DB.Read(), "company = ? AND project IN ("+store.Placeholders(len(ids))+")",
		append([]any{in.Company}, store.Args(ids)...)...)
	if err != nil {
		return nil, err
	}
	queues, err := env.DB.Queues().Select(ctx, env.DB.Read(), "company = ?", in.Company)
	if err != nil {
		return nil, err
	}
	queueNames := map[string]string{otherQueue: "other"}
	queueRes := map[string]*store.QueueResources{}
	for _, q := range queues {
		queueRes[q.ID] = q.Resources
		queueNames[q.ID] = q.Name
		if q.DisplayName != "" {
			queueNames[q.ID] = q.DisplayName
		}
	}
	now := env.Now()
	// sums[breakdown][key][day index] = seconds
	nDays := 0
	for day := start; day.Before(end); day = day.AddDate(0, 0, 1) {
		nDays++
	}
	// sums[breakdown][key][field] are the daily values; artificial
	// [breakdown][key] the usage types weighted by default.
	sums := map[string]map[string]map[string][]float64{}
	artificial := map[string]map[string]map[string]bool{}
	for _, b := range breakdown {
		sums[b] = map[string]map[string][]float64{}
		artificial[b] = map[string]map[string]bool{}
	}
	for _, t := range tasks {
		if !countsForUsage(t, in.IncludeDevelopment) || t.Started == nil {
			continue
		}
		from := t.Started.Time
		if !from.Before(end) {
			continue
		}
		var to time.Time
		switch {
		case t.Status == "in_progress":
			to = now
		case t.Completed != nil:
			to = t.Completed.Time
		case t.StatusChanged != nil:
			to = t.StatusChanged.Time
		default:
			continue
		}
		if t.Status != "in_progress" && !to.After(start) {
			continue
		}
		if from.Before(start) {
			from = start
		}
		if to.After(end) {
			to = end
		}
		if !to.After(from) {
			continue
		}
		keys := map[string]string{"project": groupOf[t.Project], "user": t.User, "queue": t.Execution.Queue}
		if q := keys["queue"]; q != "" {
			if _, ok := queueNames[q]; !ok {
				keys["queue"] = otherQueue
			}
		}
		weights := map[string]float64{"duration": 1, "cpu_usage": defaultCPUWeight, "gpu_usage": defaultGPUWeight}
		defaulted := map[string]bool{"cpu": true, "gpu": true}
		if res := queueRes[t.Execution.Queue]; res != nil {
			if res.CPUUsage != nil {
				weights["cpu_usage"], defaulted["cpu"] = *res.CPUUsage, false
			}
			if res.GPUUsage != nil {
				weights["gpu_usage"], defaulted["gpu"] = *res.GPUUsage, false
			}
		}
		for _, b := range breakdown {
			k := keys[b]
			if sums[b][k] == nil {
				sums[b][k] = map[string][]float64{}
				artificial[b][k] = map[string]bool{}
				for _, f := range fields {
					sums[b][k][f] = make([]float64, nDays)
				}
			}
			for typ, d := range defaulted {
				if d {
					artificial[b][k][typ] = true
				}
			}
		}
		di := 0
		for day := start; day.Before(end); day, di = day.AddDate(0, 0, 1), di+1 {
			next := day.AddDate(0, 0, 1)
			lo, hi := maxTime(from, day), minTime(to, next)
			if !hi.After(lo) {
				continue
			}
			secs := float64(int64(hi.Sub(lo) / time.Second))
			for _, b := range breakdown {
				for _, f := range fields {
					sums[b][keys[b]][f][di] += secs * weights[f]
				}
			}
		}
	}
	dates := make([]int64, 0, nDays)
	for day := start; day.Before(end); day = day.AddDate(0, 0, 1) {
		dates = append(dates, day.Unix())
	}
	userNames := map[string]string{}
	if slices.Contains(breakdown, "user") && len(sums["user"]) > 0 {
		var uids []string
		for k := range sums["user"] {
			uids = append(uids, k)
		}
		if userNames, err = env.DB.UserNames(ctx, uids); err != nil {
			return nil, err
		}
	}
	for _, b := range breakdown {
		keys := make([]string, 0, len(sums[b]))
		for k := range sums[b] {
			keys = append(keys, k)
		}
		name := func(k string) *string {
			var n string
			var ok bool
			switch b {
			case "project":
				n, ok = tree.Name[k]
			case "user":
				n, ok = userNames[k]
			case "queue":
				n, ok = queueNames[k]
			}
			if !ok {
				if k == "" {
					return nil
				}
				n = k
			}
			return &n
		}
		sort.Slice(keys, func(i, j int) bool {
			return strings.ToLower(deref(name(keys[i]))) < strings.ToLower(deref(name(keys[j])))
		})
		u := out[b+"s"]
		for _, k := range keys {
			var id *string
			if k != "" {
				kk := k
				id = &kk
			}
			tot := UsageTotal{Name: name(k), ID: id, Values: map[string]float64{}}
			ser := UsageSeries{Name: name(k), ID: id, Dates: dates, Values: map[string][]float64{}}
			for _, f := range fields {
				if typ, ok := strings.CutSuffix(f, "_usage"); ok && artificial[b][k][typ] {
					tot.Artificial, ser.Artificial = appendOnce(tot.Artificial, typ), appendOnce(ser.Artificial, typ)
				}
				vals := sums[b][k][f]
				total := 0.0
				for _, v := range vals {
					total += v
				}
				tot.Values[f], ser.Values[f] = total, vals
			}
			u.Total = append(u.Total, tot)
			u.Series = append(u.Series, ser)
		}
	}
	return out, nil
}

// countsForUsage leaves out the tasks the reference leaves out: excluded
// system tags and types, and without include_development the development
// tasks and those never enqueued.
func countsForUsage(t *store.Task, includeDevelopment bool) bool {
	for _, tag := range t.SystemTags {
		if slices.Contains(usageExcludedTags, tag) || (!includeDevelopment && tag == "development") {
			return false
		}
	}
	if slices.Contains(usageExcludedTypes, t.Type) {
		return false
	}
	return includeDevelopment || t.Execution.Queue != ""
}

func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
