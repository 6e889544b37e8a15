// plotly.js is large (about 3.5 MB), so it is loaded only by pages that
// show plots: index.html names the file, this adds the script once, when
// the main thread is idle, so the page's own data (scalar charts, tables)
// draws before the browser spends its time parsing plotly.

let loading;
const whenIdle = fn => (window.requestIdleCallback ? window.requestIdleCallback(fn, { timeout: 1500 }) : setTimeout(fn, 0));

export function loadPlotly() {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!loading) {
    const src = document.querySelector('meta[name="trove-plotly"]')?.content;
    loading = new Promise((resolve, reject) => {
      whenIdle(() => {
        const s = document.createElement('script');
        s.src = src;
        s.onload = () => resolve(window.Plotly);
        s.onerror = () => { loading = undefined; reject(new Error('plotly.js could not be loaded from ' + src)); };
        document.head.appendChild(s);
      });
    });
  }
  return loading;
}
