// Placeholder owned by helper A; replaced by the real page.
export function ProjectsPage() {
  return <div class="placeholder"><h1>ProjectsPage</h1><p>Not built yet.</p></div>;
}
