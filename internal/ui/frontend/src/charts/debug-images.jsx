// Placeholder owned by helper C; replaced by the real page.
export function DebugImagesPanel() {
  return <div class="placeholder"><h1>DebugImagesPanel</h1><p>Not built yet.</p></div>;
}
