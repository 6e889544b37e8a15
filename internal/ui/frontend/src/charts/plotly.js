// plotly.js is large (about 3.5 MB), so it is loaded only by pages that
// show plots: index.html names the file, this adds the script once. It
// waits for the scalar data in flight (holdPlotlyWhile) and then for an
// idle moment, so the page's own charts draw before the browser spends
// its time running plotly.

let loading;
const holds = new Set();
const whenIdle = fn => (window.requestIdleCallback ? window.requestIdleCallback(fn, { timeout: 1500 }) : setTimeout(fn, 0));

// holdPlotlyWhile keeps plotly from loading until p settles; returns p.
export function holdPlotlyWhile(p) {
  holds.add(p);
  const done = () => holds.delete(p);
  p.then(done, done);
  return p;
}

async function unheld() {
  while (holds.size) await Promise.allSettled([...holds]);
}

export function loadPlotly() {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!loading) {
    const src = document.querySelector('meta[name="trove-plotly"]')?.content;
    loading = unheld().then(() => new Promise((resolve, reject) => {
      whenIdle(() => {
        const s = document.createElement('script');
        s.src = src;
        s.onload = () => resolve(window.Plotly);
        s.onerror = () => { loading = undefined; reject(new Error('plotly.js could not be loaded from ' + src)); };
        document.head.appendChild(s);
      });
    }));
  }
  return loading;
}
