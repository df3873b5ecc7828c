/** Decodes a percent-encoded URL component, or returns it as it is when its escapes are malformed (`%E0`, `100%`). */
export function safeDecode(component: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    return component;
  }
}
