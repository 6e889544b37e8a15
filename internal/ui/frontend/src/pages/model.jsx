// Placeholder owned by helper D; replaced by the real page.
export function ModelPage() {
  return <div class="placeholder"><h1>ModelPage</h1><p>Not built yet.</p></div>;
}
