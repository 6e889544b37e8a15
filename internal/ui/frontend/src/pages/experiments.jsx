// Placeholder owned by helper A; replaced by the real page.
export function ExperimentsPage() {
  return <div class="placeholder"><h1>ExperimentsPage</h1><p>Not built yet.</p></div>;
}
