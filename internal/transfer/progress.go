// Package transfer moves a whole Trove store: copy between backends,
// backup into one archive and restore from it. The SQL it needs lives in
// internal/store; this package drives it and reports progress.
package transfer

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Progress draws a one-line progress bar: rows done of the total, the
// rate, and the time left. It redraws at most every redrawEvery.
type Progress struct {
	mu     sync.Mutex
	out    io.Writer
	label  string
	done   int64
	total  int64
	start  time.Time
	drawn  time.Time
	now    func() time.Time
	width  int
	closed bool
}

const redrawEvery = 200 * time.Millisecond

// NewProgress starts a bar over total rows.
func NewProgress(out io.Writer, total int64) *Progress {
	p := &Progress{out: out, total: total, now: time.Now, width: 24}
	p.start = p.now()
	return p
}

// Label names the current step (the table being copied).
func (p *Progress) Label(s string) {
	p.mu.Lock()
	p.label = s
	p.draw(true)
	p.mu.Unlock()
}

// Add counts n more rows done.
func (p *Progress) Add(n int) {
	p.mu.Lock()
	p.done += int64(n)
	p.draw(false)
	p.mu.Unlock()
}

// Finish draws the final state and ends the line.
func (p *Progress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.label = "done"
	p.draw(true)
	fmt.Fprintln(p.out)
	p.closed = true
}

// Rate is the rows per second so far.
func (p *Progress) Rate() float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rate()
}

func (p *Progress) rate() float64 {
	secs := p.now().Sub(p.start).Seconds()
	if secs <= 0 {
		return 0
	}
	return float64(p.done) / secs
}

func (p *Progress) draw(force bool) {
	now := p.now()
	if !force && now.Sub(p.drawn) < redrawEvery {
		return
	}
	p.drawn = now
	fmt.Fprintf(p.out, "\r%s\033[K", p.line())
}

// line is the bar's text.
func (p *Progress) line() string {
	frac := 1.0
	if p.total > 0 {
		frac = float64(p.done) / float64(p.total)
	}
	if frac > 1 {
		frac = 1
	}
	filled := int(frac * float64(p.width))
	bar := strings.Repeat("#", filled) + strings.Repeat(".", p.width-filled)
	rate := p.rate()
	left := "?"
	if rate > 0 {
		left = (time.Duration(float64(p.total-p.done)/rate) * time.Second).Round(time.Second).String()
	}
	return fmt.Sprintf("[%s] %3.0f%%  %d/%d rows  %.0f rows/s  %s left  %s",
		bar, frac*100, p.done, p.total, rate, left, p.label)
}
