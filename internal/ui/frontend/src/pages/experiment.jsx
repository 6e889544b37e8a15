// Placeholder owned by helper B; replaced by the real page.
export function ExperimentPage() {
  return <div class="placeholder"><h1>ExperimentPage</h1><p>Not built yet.</p></div>;
}
