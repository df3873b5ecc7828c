/** What the header and body redactors need from the redactor that owns the known values. */

/** The kind of a redaction marker. */
export type RedactionKind = "secret" | "page" | "header" | "field";

/** The redactor's state as the surface-specific redactors see it. */
export interface RedactContext {
  /** Remembers a value (≥ 8 characters, not yet known) so it is redacted wherever it appears. */
  learn(value: string, marker: string): void;
  /** Records that a marker was written once. */
  count(marker: string): void;
  /** Every known value and its marker, in priority order. */
  known(): ReadonlyMap<string, string>;
  /** Replaces every known value in a text. */
  redactText(text: string): string;
}
