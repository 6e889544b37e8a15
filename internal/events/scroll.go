package events

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// ScrollTTL is how long a scroll id stays valid after its last use.
const ScrollTTL = time.Hour

// scrollSecretKey names the setting that holds the signing key, shared by
// every Trove process on one database.
const scrollSecretKey = "events_scroll_secret"

// Scrolls issues and checks the scroll ids of event reads. Cursor reads
// (get_task_events, scalar_metrics_iter_raw, get_scalar_metric_data,
// get_multi_task_plots) get stateless tokens: the cursor, the caller's
// company and an expiry, signed with HMAC-SHA256. Browsing reads (debug
// images, plots, samples) keep a state row under a random id, scoped to
// the company, that expires ScrollTTL after its last use. Either kind
// from another company, expired, or altered is refused with 400/1104.
type Scrolls struct {
	DB  *store.DB
	Now func() time.Time

	mu  sync.RWMutex
	key []byte
}

// LoadKey reads (creating on first start) the signing key.
func (s *Scrolls) LoadKey(ctx context.Context) error {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return err
	}
	v, err := s.DB.SetSettingIfAbsent(ctx, scrollSecretKey, hex.EncodeToString(b))
	if err != nil {
		return fmt.Errorf("scroll key: %w", err)
	}
	key, err := hex.DecodeString(v)
	if err != nil || len(key) < 16 {
		return fmt.Errorf("scroll key: bad stored value")
	}
	s.mu.Lock()
	s.key = key
	s.mu.Unlock()
	return nil
}

// tokenBody is what a cursor token carries.
type tokenBody struct {
	Company string          `json:"c"`
	Kind    string          `json:"k"`
	Expires int64           `json:"x"`
	State   json.RawMessage `json:"s"`
}

func (s *Scrolls) mac(payload string) string {
	s.mu.RLock()
	m := hmac.New(sha256.New, s.key)
	s.mu.RUnlock()
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}

// Sign issues a cursor token of kind for company, carrying state.
func (s *Scrolls) Sign(company, kind string, state any) (string, error) {
	st, err := json.Marshal(state)
	if err != nil {
		return "", err
	}
	body, err := json.Marshal(tokenBody{Company: company, Kind: kind, Expires: s.Now().Add(ScrollTTL).Unix(), State: st})
	if err != nil {
		return "", err
	}
	payload := base64.RawURLEncoding.EncodeToString(body)
	return payload + "." + s.mac(payload), nil
}

// Open checks a cursor token and decodes its state into dst.
func (s *Scrolls) Open(token, company, kind string, dst any) error {
	payload, sig, ok := strings.Cut(token, ".")
	if !ok || !hmac.Equal([]byte(sig), []byte(s.mac(payload))) {
		return invalidScroll(token)
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return invalidScroll(token)
	}
	var body tokenBody
	if json.Unmarshal(raw, &body) != nil || body.Company != company || body.Kind != kind || body.Expires < s.Now().Unix() {
		return invalidScroll(token)
	}
	if json.Unmarshal(body.State, dst) != nil {
		return invalidScroll(token)
	}
	return nil
}

func invalidScroll(id string) *apierr.Error {
	return apierr.InvalidScrollID().With("scroll_id", id)
}

// NewState stores a browsing state and returns its id.
func (s *Scrolls) NewState(ctx context.Context, company, kind string, state any) (string, error) {
	b, err := json.Marshal(state)
	if err != nil {
		return "", err
	}
	idb := make([]byte, 16)
	if _, err := rand.Read(idb); err != nil {
		return "", err
	}
	id := hex.EncodeToString(idb)
	now := s.Now()
	err = eventstore.Of(s.DB).PutScrollState(ctx, eventstore.ScrollState{ID: id, Company: company, Kind: kind, State: string(b),
		Expires: now.Add(ScrollTTL).UnixMilli()}, now.UnixMilli())
	return id, err
}

// LoadState reads a browsing state into dst; an unknown, expired or
// foreign id is 400/1104.
func (s *Scrolls) LoadState(ctx context.Context, id, company, kind string, dst any) error {
	st, err := eventstore.Of(s.DB).GetScrollState(ctx, id, company, kind, s.Now().UnixMilli())
	if errors.Is(err, store.ErrNotFound) {
		return invalidScroll(id)
	}
	if err != nil {
		return err
	}
	if json.Unmarshal([]byte(st.State), dst) != nil {
		return invalidScroll(id)
	}
	return nil
}

// SaveState rewrites a browsing state and extends its life.
func (s *Scrolls) SaveState(ctx context.Context, id, company, kind string, state any) error {
	b, err := json.Marshal(state)
	if err != nil {
		return err
	}
	now := s.Now()
	return eventstore.Of(s.DB).PutScrollState(ctx, eventstore.ScrollState{ID: id, Company: company, Kind: kind, State: string(b),
		Expires: now.Add(ScrollTTL).UnixMilli()}, now.UnixMilli())
}

// Clear forgets a browsing state of the company (cursor tokens hold no
// server state: nothing to free).
func (s *Scrolls) Clear(ctx context.Context, id, company string) error {
	return eventstore.Of(s.DB).DeleteScrollState(ctx, id, company)
}

// Sweep deletes expired browsing states.
func (s *Scrolls) Sweep(ctx context.Context) error {
	return eventstore.Of(s.DB).DeleteExpiredScrollStates(ctx, s.Now().UnixMilli())
}
