// Placeholder owned by helper C; replaced by the real page.
export function PlotsPanel() {
  return <div class="placeholder"><h1>PlotsPanel</h1><p>Not built yet.</p></div>;
}
