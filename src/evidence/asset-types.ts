/**
 * The resource types of a page's assets (documents, scripts, styles, images,
 * fonts, media, web manifests): what learning keeps aside, what a bundle
 * serves, and what redaction must never corrupt. Part of the Evidence contract.
 */

/** Resource types whose bodies are the app's own files rather than API answers. */
export const ASSET_TYPES: ReadonlySet<string> = new Set([
  "document",
  "script",
  "stylesheet",
  "image",
  "font",
  "media",
  "manifest",
]);

/** The asset types whose cut body breaks the page: a script, a style, a document. */
export const PAGE_ASSET_TYPES: ReadonlySet<string> = new Set(["document", "script", "stylesheet"]);
