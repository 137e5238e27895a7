const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/**
 * Text made safe for HTML, in element content and in quoted attributes alike: the one escaping
 * of the dashboard's pages (dashboard/html.ts) and the customers' alert emails (modules/alerts).
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (character) => ENTITIES[character] ?? character);
}
