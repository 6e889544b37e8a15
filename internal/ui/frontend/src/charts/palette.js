// Colours for chart lines: a fixed, readable set first, then hues spread
// by the golden angle so 50 compared experiments stay apart.

const base = ['#1f6feb', '#e8590c', '#2f9e44', '#c2255c', '#7048e8', '#0c8599', '#e67700', '#5c940d', '#d6336c', '#495057'];

export function colorAt(i) {
  if (i < base.length) return base[i];
  const hue = Math.round((i * 137.508) % 360);
  return `hsl(${hue}, 62%, ${i % 2 ? 42 : 52}%)`;
}

// Dash patterns tell a task's variants apart when colour means the task.
const dashes = [undefined, [6, 4], [2, 3], [10, 3, 2, 3], [1, 5]];
export function dashAt(i) { return dashes[i % dashes.length]; }

// withAlpha makes a palette colour translucent (the raw line behind a
// smoothed one).
export function withAlpha(color, a) {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (hex) {
    const n = parseInt(hex[1], 16);
    return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
  }
  const hsl = /^hsl\((.*)\)$/.exec(color);
  if (hsl) return `hsla(${hsl[1]}, ${a})`;
  return color;
}
