// Placeholder owned by helper D; replaced by the real page.
export function ModelsPage() {
  return <div class="placeholder"><h1>ModelsPage</h1><p>Not built yet.</p></div>;
}
