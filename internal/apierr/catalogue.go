package apierr

import (
	"fmt"
	"strings"
)

// The catalogue. Constructors name the reference's error so call sites read
// like the condition they report.

// BadRequest is 400/0: malformed body or path.
func BadRequest(msg string) *Error { return New(400, 0, "%s", msg) }

// BodyTooLarge is 400/0 for a request body over the server's limit.
func BodyTooLarge(limit int64) *Error {
	return New(400, 0, "Request body too large (limit %d bytes)", limit)
}

// MalformedJSON is the generic 400/0 text for an unparsable body.
func MalformedJSON(detail string) *Error {
	return New(400, 0, "The browser (or proxy) sent a request that this server could not understand. (%s)", detail)
}

// InvalidVersion is 400/2.
func InvalidVersion(v string) *Error {
	return New(400, 2, "Request path has invalid version: version=%s", v)
}

// MissingField is 400/11 for required fields.
func MissingField(fields ...string) *Error {
	return (&Error{Code: 400, Subcode: 11, Msg: "Missing required fields"}).With("missing", fields)
}

// ExactlyOneOf is 400/11 when not exactly one of fields is given.
func ExactlyOneOf(fields ...string) *Error {
	return (&Error{Code: 400, Subcode: 11, Msg: "Missing required fields (exactly one field is required)"}).With("fields", fields)
}

// Required is 400/12 for a missing field. The path's parts are joined
// with dots: Required("artifacts", 0, "key") names artifacts.0.key.
func Required(path ...any) *Error {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = fmt.Sprint(p)
	}
	return New(400, 12, "Validation error (error for field '%s'. field is required!)", strings.Join(parts, "."))
}

// Validation is 400/12 naming the field.
func Validation(field, format string, args ...any) *Error {
	return New(400, 12, "Validation error (error for field '%s': %s)", field, fmt.Sprintf(format, args...))
}

// ValidationMsg is 400/12 with a free message.
func ValidationMsg(format string, args ...any) *Error {
	return New(400, 12, "Validation error (%s)", fmt.Sprintf(format, args...))
}

// InvalidFields is 400/14: unknown field in only_fields/order_by.
func InvalidFields(field string) *Error {
	return New(400, 14, "Invalid fields: field=%s", field)
}

// FieldsConflict is 400/15.
func FieldsConflict(format string, args ...any) *Error {
	return New(400, 15, "Fields conflict (%s)", fmt.Sprintf(format, args...))
}

// FieldsValue is 400/16.
func FieldsValue(format string, args ...any) *Error {
	return New(400, 16, "Fields value error (%s)", fmt.Sprintf(format, args...))
}

// BatchNoItems is 400/17.
func BatchNoItems() *Error { return New(400, 17, "Batch request contains no items") }

// InvalidRegex is 400/21.
func InvalidRegex(field, detail string) *Error {
	return New(400, 21, "Malformed regular expression (%s): field=%s", detail, field)
}

// Entity "not found" errors: 400 with a per-entity subcode.

// InvalidTaskID is 400/101.
func InvalidTaskID(ids ...string) *Error {
	return (&Error{Code: 400, Subcode: 101, Msg: "Invalid task id"}).With("id", joinIDs(ids))
}

// InvalidParentTask is 400/101 for a parent that does not exist or is not
// visible.
func InvalidParentTask(parent string) *Error {
	return (&Error{Code: 400, Subcode: 101, Msg: "Invalid task id (invalid parent)"}).With("parent", parent)
}

// InvalidTaskStatus is 400/110.
func InvalidTaskStatus(extra string) *Error {
	if extra == "" {
		return New(400, 110, "Invalid task status")
	}
	return New(400, 110, "Invalid task status (%s)", extra)
}

// FailedChangingTaskStatus is 400/121 (lost a status race).
func FailedChangingTaskStatus() *Error {
	return New(400, 121, "Failed changing task status. probably someone changed it before you")
}

// MissingTaskFields is 400/122.
func MissingTaskFields(extra string) *Error {
	return New(400, 122, "Task is missing expected fields (%s)", extra)
}

// MissingTaskField is 400/122 naming the one field the task lacks.
func MissingTaskField(field string) *Error {
	return (&Error{Code: 400, Subcode: 122, Msg: "Task is missing expected fields"}).With("field", field)
}

// TaskCannotBeDeleted is 400/123.
func TaskCannotBeDeleted(extra string) *Error {
	return New(400, 123, "Task cannot be deleted (%s)", extra)
}

// EventsNotAdded is 400/131.
func EventsNotAdded() *Error { return New(400, 131, "Events not added") }

// InvalidModelID is 400/201.
func InvalidModelID(ids ...string) *Error {
	return (&Error{Code: 400, Subcode: 201, Msg: "Invalid model id"}).With("id", joinIDs(ids))
}

// ModelIsReady is 400/203.
func ModelIsReady(id string) *Error {
	return (&Error{Code: 400, Subcode: 203, Msg: "Model is ready"}).With("model", id)
}

// ModelInUse is 400/205.
func ModelInUse(extra string) *Error { return New(400, 205, "Model is used by tasks (%s)", extra) }

// ModelCreatingTaskExists is 400/206.
func ModelCreatingTaskExists(extra string) *Error {
	return New(400, 206, "Model creating task exists (%s)", extra)
}

// InvalidUser is 400/300; InvalidUserID is 400/301.
func InvalidUser(id string) *Error {
	return (&Error{Code: 400, Subcode: 300, Msg: "Invalid user"}).With("id", id)
}

// InvalidUserID is 400/301.
func InvalidUserID(id string) *Error {
	return (&Error{Code: 400, Subcode: 301, Msg: "Invalid user id"}).With("id", id)
}

// InvalidProjectID is 400/401.
func InvalidProjectID(ids ...string) *Error {
	return (&Error{Code: 400, Subcode: 401, Msg: "Invalid project id"}).With("id", joinIDs(ids))
}

// ProjectHasTasks is 400/402; ProjectHasModels 400/405.
func ProjectHasTasks(n int) *Error {
	return (&Error{Code: 400, Subcode: 402, Msg: "Project has associated tasks (use force=True to delete)"}).With("tasks", n)
}

// ProjectHasModels is 400/405.
func ProjectHasModels(n int) *Error {
	return (&Error{Code: 400, Subcode: 405, Msg: "Project has associated models (use force=True to delete)"}).With("models", n)
}

// InvalidProjectName is 400/407; ProjectPathChange 408; ProjectDepth 409;
// ProjectSameLocation 410; ProjectUnderItself 411; ProjectMergeIntoChild 412.
func InvalidProjectName(name string) *Error {
	return (&Error{Code: 400, Subcode: 407, Msg: "Invalid project name"}).With("name", name)
}

// ProjectPathChange is 400/408.
func ProjectPathChange() *Error {
	return New(400, 408, "Cannot change project path via rename, use projects.move")
}

// ProjectDepth is 400/409.
func ProjectDepth(max int) *Error {
	return (&Error{Code: 400, Subcode: 409, Msg: "Project path exceeds the maximum allowed depth"}).With("max_depth", max)
}

// ProjectSameLocation is 400/410.
func ProjectSameLocation() *Error {
	return New(400, 410, "Project cannot be moved to its current location")
}

// ProjectUnderItself is 400/411.
func ProjectUnderItself() *Error { return New(400, 411, "Project cannot be moved under itself") }

// ProjectMergeIntoChild is 400/412.
func ProjectMergeIntoChild() *Error {
	return New(400, 412, "Project cannot be merged into its own child project")
}

// PublicProjectExists is 400/414.
func PublicProjectExists(name string) *Error {
	return (&Error{Code: 400, Subcode: 414, Msg: "Public project with the same name already exists"}).With("name", name)
}

// Queue errors.

// InvalidQueueID is 400/701.
func InvalidQueueID(id string) *Error {
	return (&Error{Code: 400, Subcode: 701, Msg: "Invalid queue id"}).With("queue", id)
}

// QueueNotEmpty is 400/702.
func QueueNotEmpty(n int) *Error {
	return (&Error{Code: 400, Subcode: 702, Msg: "Queue is not empty"}).With("num_entries", n)
}

// TaskNotQueued is 400/703.
func TaskNotQueued(queue, task string) *Error {
	return (&Error{Code: 400, Subcode: 703, Msg: "Invalid queue id or task not in queue"}).With("queue", queue, "task", task)
}

// TaskAlreadyQueued is 400/706.
func TaskAlreadyQueued(task string) *Error {
	return (&Error{Code: 400, Subcode: 706, Msg: "Task already queued"}).With("task", task)
}

// NoDefaultQueue is 400/707; MultipleDefaultQueues 400/708.
func NoDefaultQueue() *Error {
	return New(400, 707, "No queue is tagged as the default queue for this company")
}

// MultipleDefaultQueues is 400/708.
func MultipleDefaultQueues() *Error {
	return New(400, 708, "More than one queue is tagged as the default queue for this company")
}

// DataValidation is 400/800.
func DataValidation(format string, args ...any) *Error {
	return New(400, 800, "Data validation error (%s)", fmt.Sprintf(format, args...))
}

// NotUnique is 400/801.
func NotUnique(format string, args ...any) *Error {
	return New(400, 801, "Value combination already exists (unique field) (%s)", fmt.Sprintf(format, args...))
}

// NoContainersForURL is 400/1052: no live serving container serves the URL.
func NoContainersForURL(url string) *Error {
	return New(400, 1052, "No container instances found for service url: url=%s", url)
}

// InvalidScrollID is 400/1104.
func InvalidScrollID() *Error { return New(400, 1104, "Invalid scroll id") }

// Auth errors.

// BadAuthType is 401/10.
func BadAuthType() *Error { return New(401, 10, "Unauthorized (bad authentication header type)") }

// NoCredentials is 401/20.
func NoCredentials() *Error { return New(401, 20, "Unauthorized (missing credentials)") }

// BadCredentials is 401/21.
func BadCredentials() *Error { return New(401, 21, "Unauthorized (malformed credentials)") }

// InvalidCredentials is 401/22.
func InvalidCredentials() *Error {
	return New(401, 22, "Unauthorized (invalid credentials) (failed to locate provided credentials)")
}

// InvalidToken is 401/30.
func InvalidToken(reason string) *Error {
	return (&Error{Code: 401, Subcode: 30, Msg: "Invalid token (invalid jwt token)"}).With("reason", reason)
}

// RevokedToken is 401/30.
func RevokedToken() *Error { return New(401, 30, "Invalid token (revoked token)") }

// TooManyFailedLogins is 429/0: the access key or the source address has
// failed to log in too often; the next try is allowed in retryAfter seconds.
func TooManyFailedLogins(retryAfter int) *Error {
	e := New(429, 0, "Too many failed logins (try again in %d s)", retryAfter)
	e.RetryAfter = retryAfter
	return e
}

// EventQueueFull is 429/0: the event batches waiting to be written hold
// more memory than the server allows; the client retries after a pause
// (the SDK retries 429, honouring Retry-After).
func EventQueueFull(pendingMB, limitMB int64) *Error {
	e := New(429, 0, "Too many event batches are waiting to be written (%d MB pending, limit %d MB); retry shortly", pendingMB, limitMB)
	e.RetryAfter = 2
	return e
}

// RoleNotAllowed is 403/20.
func RoleNotAllowed(role string, allowed []string) *Error {
	return (&Error{Code: 403, Subcode: 20, Msg: "Forbidden (not allowed for role)"}).With("role", role, "allowed", allowed)
}

// AdministrationNotAllowed is 403/20: the caller's role may not do this
// to a user (reason says what: grant system or root, reach another
// company, change a system or root user).
func AdministrationNotAllowed(role, reason string) *Error {
	return (&Error{Code: 403, Subcode: 20, Msg: "Forbidden (not allowed for role) (" + reason + ")"}).With("role", role)
}

// NoWritePermission is 403/21.
func NoWritePermission(format string, args ...any) *Error {
	return New(403, 21, "Forbidden (read-only access) (%s)", fmt.Sprintf(format, args...))
}

// CrossSiteRefused is 403/90: a change carried by the session cookie alone
// that is not a JSON POST from an allowed origin (what a foreign page
// could make a browser send); why says what was missing.
func CrossSiteRefused(why string) *Error {
	return New(403, 90, "Forbidden (cross-site request refused): %s", why)
}

// UnknownEndpoint is 404/0.
func UnknownEndpoint(name, version string) *Error {
	return New(404, 0, "Unable to find endpoint for name %s and version %s", name, version)
}

// StoreRetryAfter is the Retry-After (seconds) of StoreUnavailable.
const StoreRetryAfter = 2

// StoreUnavailable is 503/0: the store failed for a reason of its
// environment (cause, such as "the database is unreachable") that ends
// when the environment recovers. The SDK retries a 503 until it succeeds,
// honouring Retry-After, so nothing it reports is lost to a bounded
// outage. Only store faults get it, never an application error.
func StoreUnavailable(cause string, err error) *Error {
	e := New(503, 0, "Service temporarily unavailable (%s); retry shortly", cause)
	e.Cause = err
	e.RetryAfter = StoreRetryAfter
	return e
}

// Internal is 500/0 with a generic message; details go to the log.
func Internal(cause error) *Error {
	return &Error{Code: 500, Subcode: 0, Msg: "General data error", Cause: cause}
}

func joinIDs(ids []string) any {
	if len(ids) == 1 {
		return ids[0]
	}
	return ids
}

// EventsLockedTask is 400/101: events of a published task change only with
// allow_locked.
func EventsLockedTask(id string) *Error {
	return (&Error{Code: 400, Subcode: 101, Msg: "Invalid task id (Cannot update events for a published task)"}).With("id", id)
}

// EventsLockedModel is 400/201: events of a ready model change only with
// allow_locked.
func EventsLockedModel(id string) *Error {
	return (&Error{Code: 400, Subcode: 201, Msg: "Invalid model id (Cannot update events for a published model)"}).With("id", id)
}

// ScrollStateMismatch is 400/1104: a sample scroll id read with another
// task or metric than it was made for.
func ScrollStateMismatch(id string) *Error {
	return (&Error{Code: 400, Subcode: 1104, Msg: "Invalid scroll id (Task and metric stored in the state do not match the passed ones)"}).With("scroll_id", id)
}

// CallTimedOut is 503/0: the call ran past the server's deadline.
func CallTimedOut(limit string) *Error {
	return New(503, 0, "Request took longer than the server's limit of %s", limit)
}

// ShuttingDown is 503/0: the server ended the call because it is
// shutting down.
func ShuttingDown() *Error { return New(503, 0, "The server is shutting down; retry the call") }

// ClientClosed is 499/0: the client went away before the answer (only
// the access log and metrics see it).
func ClientClosed() *Error { return New(499, 0, "Client closed the request") }

// Reports, pipelines, dataset and pipeline projects.

// NotAReport is 400/150: a reports.* operation named a task of another
// type.
func NotAReport(id string) *Error {
	return (&Error{Code: 400, Subcode: 150, Msg: "Operation is supported on reports only"}).With("id", id)
}

// CannotRemoveAllRuns is 400/160: pipelines.delete_runs must leave one run
// of the pipeline.
func CannotRemoveAllRuns(project string) *Error {
	return (&Error{Code: 400, Subcode: 160, Msg: "At least one pipeline run should be left"}).With("project", project)
}

// ProjectHasDatasets is 400/406.
func ProjectHasDatasets(id string) *Error {
	return (&Error{Code: 400, Subcode: 406, Msg: "Project has associated non-empty datasets (delete the dataset versions or use force=True)"}).With("id", id)
}

// ProjectHasPipelines is 400/413.
func ProjectHasPipelines(id string) *Error {
	return (&Error{Code: 400, Subcode: 413, Msg: "Project has associated pipelines with active controllers (archive them or use force=True)"}).With("id", id)
}
