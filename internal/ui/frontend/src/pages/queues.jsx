// Placeholder owned by helper D; replaced by the real page.
export function QueuesPage() {
  return <div class="placeholder"><h1>QueuesPage</h1><p>Not built yet.</p></div>;
}
