package apierr

import "testing"

// The constructors that replaced hand-built errors keep the reference's
// numbers and texts exactly.
func TestCatalogueTexts(t *testing.T) {
	cases := []struct {
		err           *Error
		code, subcode int
		msg           string
	}{
		{Required("name"), 400, 12, "Validation error (error for field 'name'. field is required!)"},
		{Required("execution.artifacts", 3, "key"), 400, 12, "Validation error (error for field 'execution.artifacts.3.key'. field is required!)"},
		{ExactlyOneOf("uri", "override_model_id"), 400, 11, "Missing required fields (exactly one field is required): fields=(uri, override_model_id)"},
		{BodyTooLarge(1024), 400, 0, "Request body too large (limit 1024 bytes)"},
		{InvalidParentTask("p1"), 400, 101, "Invalid task id (invalid parent): parent=p1"},
		{MissingTaskField("models.output"), 400, 122, "Task is missing expected fields: field=models.output"},
		{ValidationMsg("request body must be a JSON object"), 400, 12, "Validation error (request body must be a JSON object)"},
		{TooManyFailedLogins(1), 429, 0, "Too many failed logins (try again in 1 s)"},
		{ShuttingDown(), 503, 0, "The server is shutting down; retry the call"},
		{EventQueueFull(600, 512), 429, 0, "Too many event batches are waiting to be written (600 MB pending, limit 512 MB); retry shortly"},
	}
	for _, c := range cases {
		if c.err.Code != c.code || c.err.Subcode != c.subcode || c.err.Message() != c.msg {
			t.Errorf("got %d/%d %q, want %d/%d %q", c.err.Code, c.err.Subcode, c.err.Message(), c.code, c.subcode, c.msg)
		}
	}
}

func TestWithCopies(t *testing.T) {
	base := InvalidTaskID("a")
	more := base.With("extra", 1)
	if len(base.Data) != 1 || len(more.Data) != 2 {
		t.Fatalf("With changed its receiver: %v / %v", base.Data, more.Data)
	}
	if got := more.Message(); got != "Invalid task id: extra=1, id=a" {
		t.Fatalf("message %q: keys are sorted", got)
	}
}
