package auth

import (
	"fmt"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/limits"
)

// fail runs one failed attempt through th and reports whether it was let in.
func fail(th *loginThrottle, key, addr string, now time.Time) bool {
	if !th.begin(key, addr, now) {
		return false
	}
	th.end(key, addr, now, true)
	return true
}

func TestThrottleBucketsPerKeyAndPerAddress(t *testing.T) {
	th := newLoginThrottle()
	now := time.Unix(1_800_000_000, 0)
	for i := 0; i < limits.LoginFailures; i++ {
		if !fail(th, "K1", "10.0.0.1", now) {
			t.Fatalf("failure %d refused; the allowance is %d", i+1, limits.LoginFailures)
		}
	}
	if th.begin("K1", "10.0.0.9", now) {
		t.Fatal("the key's bucket is empty, yet another address may try it")
	}
	if th.begin("K2", "10.0.0.1", now) {
		t.Fatal("the address's bucket is empty, yet it may try another key")
	}
	if !th.begin("K2", "10.0.0.2", now) {
		t.Fatal("another key from another address is refused")
	}
	th.end("K2", "10.0.0.2", now, false)

	// One token comes back per 1/LoginRefillPerSecond seconds.
	later := now.Add(time.Second / limits.LoginRefillPerSecond)
	if !fail(th, "K1", "10.0.0.1", later) {
		t.Fatal("no token came back after a second")
	}
	if th.begin("K1", "10.0.0.1", later) {
		t.Fatal("the refill gave more than one token")
	}
}

func TestThrottleSuccessesTakeNothing(t *testing.T) {
	th := newLoginThrottle()
	now := time.Unix(1_800_000_000, 0)
	for i := 0; i < 5*limits.LoginFailures; i++ {
		if !th.begin("K", "10.0.0.1", now) {
			t.Fatalf("good login %d refused", i+1)
		}
		th.end("K", "10.0.0.1", now, false)
	}
}

// Attempts under way count against the allowance, so a burst of
// concurrent guesses cannot overdraw it while bcrypt runs.
func TestThrottlePendingAttemptsCount(t *testing.T) {
	th := newLoginThrottle()
	now := time.Unix(1_800_000_000, 0)
	for i := 0; i < limits.LoginFailures; i++ {
		if !th.begin("K", "10.0.0.1", now) {
			t.Fatalf("attempt %d refused", i+1)
		}
	}
	if th.begin("K", "10.0.0.1", now) {
		t.Fatal("an attempt beyond the allowance began while the others were under way")
	}
	for i := 0; i < limits.LoginFailures; i++ {
		th.end("K", "10.0.0.1", now, true)
	}
	if th.begin("K", "10.0.0.1", now) {
		t.Fatal("allowance not spent by the failures")
	}
}

func TestThrottleMapsAreBounded(t *testing.T) {
	th := newLoginThrottle()
	now := time.Unix(1_800_000_000, 0)
	for i := 0; i < throttledEntries+500; i++ {
		fail(th, fmt.Sprint("K", i), fmt.Sprint("a", i), now)
	}
	if th.keys.Len() > throttledEntries || th.addrs.Len() > throttledEntries {
		t.Fatalf("throttle holds %d keys and %d addresses, bound %d", th.keys.Len(), th.addrs.Len(), throttledEntries)
	}
}

func TestLineageKeepsRootAndNearest(t *testing.T) {
	if got := lineage(&Identity{}); got != nil {
		t.Fatalf("a key/secret identity has no lineage, got %v", got)
	}
	id := &Identity{SessionID: "s0"}
	for i := 1; i <= MaxAncestors+5; i++ {
		id = &Identity{SessionID: fmt.Sprint("s", i), Ancestors: lineage(id)}
	}
	a := id.Ancestors
	if len(a) != MaxAncestors || a[0] != fmt.Sprint("s", MaxAncestors+4) || a[len(a)-1] != "s0" {
		t.Fatalf("ancestors %v: want %d, nearest first, the root s0 last", a, MaxAncestors)
	}
}
