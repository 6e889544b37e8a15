// Package importer brings the records of another server that speaks the
// ClearML API (a reference ClearML server or another Trove) into a Trove
// store, through the source's API alone: projects, queues, models, tasks,
// their events, and the files the source's file server keeps.
package importer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Client calls the source server's API with a token it got by logging in.
type Client struct {
	base  string
	http  *http.Client
	token string
}

// APIError is an error answer of the source server.
type APIError struct {
	Op      string
	Status  int
	Code    int
	Subcode int
	Msg     string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("%s: the source answered %d (%d/%d) %s", e.Op, e.Status, e.Code, e.Subcode, e.Msg)
}

// Dial checks the source URL and logs in with the key pair. A URL that
// does not answer, or answers something other than the ClearML API, and
// refused credentials give errors that say so.
func Dial(ctx context.Context, rawURL, key, secret string) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(rawURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--from %q is not an http(s):// URL of a ClearML API server", rawURL)
	}
	if key == "" || secret == "" {
		return nil, errors.New("--key and --secret are required: an access key pair of the source server")
	}
	c := &Client{base: u.String(), http: &http.Client{Timeout: 5 * time.Minute}}
	var out struct {
		Token string `json:"token"`
	}
	err = c.call(ctx, "auth.login", nil, &out, func(r *http.Request) { r.SetBasicAuth(key, secret) })
	var ae *APIError
	switch {
	case errors.As(err, &ae) && (ae.Status == 401 || ae.Status == 403):
		return nil, fmt.Errorf("the source %s refused the key pair (%s)", c.base, ae.Msg)
	case err != nil:
		return nil, fmt.Errorf("cannot log in to the source %s: %w", c.base, err)
	case out.Token == "":
		return nil, fmt.Errorf("the source %s gave no token on auth.login: is it a ClearML API server?", c.base)
	}
	c.token = out.Token
	return c, nil
}

// Call runs an operation and decodes the answer's data into out.
func (c *Client) Call(ctx context.Context, op string, body, out any) error {
	return c.call(ctx, op, body, out, func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+c.token) })
}

// envelope is the ClearML answer shape.
type envelope struct {
	Meta struct {
		ResultCode    int    `json:"result_code"`
		ResultSubcode int    `json:"result_subcode"`
		ResultMsg     string `json:"result_msg"`
	} `json:"meta"`
	Data json.RawMessage `json:"data"`
}

func (c *Client) call(ctx context.Context, op string, body, out any, auth func(*http.Request)) error {
	raw := []byte("{}")
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return err
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/"+op, bytes.NewReader(raw))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	auth(req)
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s: reading the answer: %w", op, err)
	}
	var env envelope
	if err := json.Unmarshal(b, &env); err != nil || (env.Meta.ResultCode == 0 && env.Data == nil) {
		return fmt.Errorf("%s: the answer (HTTP %d) is not a ClearML API envelope: %.200s", op, resp.StatusCode, b)
	}
	if env.Meta.ResultCode != 200 || resp.StatusCode != http.StatusOK {
		return &APIError{Op: op, Status: resp.StatusCode, Code: env.Meta.ResultCode, Subcode: env.Meta.ResultSubcode, Msg: env.Meta.ResultMsg}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(env.Data, out); err != nil {
		return fmt.Errorf("%s: decoding the answer: %w", op, err)
	}
	return nil
}

// Download opens a file of the source's file server, sending the API
// token (Trove's file server and an authenticating reference accept it).
func (c *Client) Download(ctx context.Context, fileURL string) (io.ReadCloser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fileURL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("GET %s: HTTP %d", fileURL, resp.StatusCode)
	}
	return resp.Body, nil
}
