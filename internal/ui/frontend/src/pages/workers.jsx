// Placeholder owned by helper D; replaced by the real page.
export function WorkersPage() {
  return <div class="placeholder"><h1>WorkersPage</h1><p>Not built yet.</p></div>;
}
