// Placeholder owned by helper C; replaced by the real page.
export function ScalarsPanel() {
  return <div class="placeholder"><h1>ScalarsPanel</h1><p>Not built yet.</p></div>;
}
