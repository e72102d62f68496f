/**
 * A URL as `wicket config`, /status and error messages show it: a user name and password in it
 * (a gateway's basic auth) are masked, never printed.
 */
export function displayURL(raw: string): string {
  try {
    const url = new URL(raw);
    if (!url.username && !url.password) return raw;
    url.username = '***';
    url.password = '';
    return url.href;
  } catch {
    return raw;
  }
}
