/**
 * The URL an admin contract route key names with these path parameters (each percent-encoded)
 * and this query (absent and null values left out): how the admin API calls itself in process
 * (an approved action run as its approver, an action's before-state read).
 */
export function adminRouteUrl(
  routeKey: string,
  params: Readonly<Record<string, unknown>>,
  query: Readonly<Record<string, unknown>> = {},
): string {
  const path = routeKey
    .slice(routeKey.indexOf(' ') + 1)
    .replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
  const search = new URLSearchParams(
    Object.entries(query)
      .filter((entry) => entry[1] !== undefined && entry[1] !== null)
      .map(([name, value]): [string, string] => [name, String(value)]),
  ).toString();
  return search === '' ? path : `${path}?${search}`;
}
