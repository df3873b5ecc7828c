/**
 * The slug transform a `format` rule part may apply, shared by learn (which confirms it against the recording)
 * and serve (which applies it): letters without their accents, lower case, every run of anything but letters and
 * digits one `-`, none at either end (`Release notes 2.1 (draft 2)` → `release-notes-2-1-draft-2`).
 */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
