// Placeholder owned by helper D; replaced by the real page.
export function SettingsPage() {
  return <div class="placeholder"><h1>SettingsPage</h1><p>Not built yet.</p></div>;
}
