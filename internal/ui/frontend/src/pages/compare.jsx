// Placeholder owned by helper C; replaced by the real page.
export function ComparePage() {
  return <div class="placeholder"><h1>ComparePage</h1><p>Not built yet.</p></div>;
}
