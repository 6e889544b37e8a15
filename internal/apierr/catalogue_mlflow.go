package apierr

import "fmt"

// The errors of the MLflow API (issue 38). Code is the HTTP status MLflow
// answers with; the subcode (38xx) names MLflow's error_code, which
// MLflowCode gives back for the MLflow envelope.

var mlflowCodes = map[int]string{
	3801: "INVALID_PARAMETER_VALUE",
	3802: "RESOURCE_DOES_NOT_EXIST",
	3803: "RESOURCE_ALREADY_EXISTS",
	3804: "BAD_REQUEST",
	3805: "INVALID_STATE",
	3806: "ENDPOINT_NOT_FOUND",
}

// MLflowInvalidParameter is MLflow's 400 INVALID_PARAMETER_VALUE.
func MLflowInvalidParameter(format string, args ...any) *Error {
	return New(400, 3801, "%s", fmt.Sprintf(format, args...))
}

// MLflowNotFound is MLflow's 404 RESOURCE_DOES_NOT_EXIST.
func MLflowNotFound(format string, args ...any) *Error {
	return New(404, 3802, "%s", fmt.Sprintf(format, args...))
}

// MLflowAlreadyExists is MLflow's 400 RESOURCE_ALREADY_EXISTS (the
// status its server answers with).
func MLflowAlreadyExists(format string, args ...any) *Error {
	return New(400, 3803, "%s", fmt.Sprintf(format, args...))
}

// MLflowBadRequest is MLflow's 400 BAD_REQUEST.
func MLflowBadRequest(format string, args ...any) *Error {
	return New(400, 3804, "%s", fmt.Sprintf(format, args...))
}

// MLflowInvalidState is MLflow's 400 INVALID_STATE.
func MLflowInvalidState(format string, args ...any) *Error {
	return New(400, 3805, "%s", fmt.Sprintf(format, args...))
}

// MLflowEndpointNotFound is MLflow's 404 ENDPOINT_NOT_FOUND.
func MLflowEndpointNotFound(method, path string) *Error {
	return New(404, 3806, "No API endpoint for %s %s", method, path)
}

// MLflowCode is the error_code of e in MLflow's envelope: its own for the
// MLflow errors above, else the nearest by HTTP status.
func MLflowCode(e *Error) string {
	if c, ok := mlflowCodes[e.Subcode]; ok && e.Code != 0 {
		return c
	}
	switch e.Code {
	case 401:
		return "UNAUTHENTICATED"
	case 403:
		return "PERMISSION_DENIED"
	case 404:
		return "RESOURCE_DOES_NOT_EXIST"
	case 409:
		return "RESOURCE_ALREADY_EXISTS"
	case 400, 413:
		return "INVALID_PARAMETER_VALUE"
	case 429:
		return "REQUEST_LIMIT_EXCEEDED"
	case 503:
		return "TEMPORARILY_UNAVAILABLE"
	}
	return "INTERNAL_ERROR"
}
