/**
 * Splits the JSON text of an evidence document, fed in chunks, into its
 * records (each element of the top-level `records` array, as its own text)
 * and the rest of the document (the text around that array, with the array
 * left empty), so a large evidence file is parsed record by record and never
 * held whole, as text and as a tree at once. A byte scanner: JSON's
 * structural characters are ASCII, so a chunk may end anywhere, inside a
 * multi-byte character included. It checks only what it needs to split; each
 * part is then parsed by JSON.parse, which checks the rest. Anything it does
 * not expect (no single top-level `records` array, an empty element) makes it
 * give up, and the caller reads the file whole.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/** Where the scanner is: before the records array, inside it, after it. */
type Phase = "before" | "records" | "after";

/** Feeds chunks of an evidence file; calls `onRecord` with each record's text, in order. */
export class RecordsSplitter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The bytes of the top-level key being read, quotes included. */
  private keyBytes: number[] | null = null;
  private expectKey = false;
  private afterColon = false;
  private currentKey: string | null = null;
  private readonly topKeys = new Set<string>();
  private phase: Phase = "before";
  private readonly before: Uint8Array[] = [];
  private readonly after: Uint8Array[] = [];
  private element: Uint8Array[] | null = null;
  private count = 0;
  private failed: string | null = null;

  constructor(private readonly onRecord: (text: string) => void) {}

  /** Why the splitter gave up, or null. */
  get failure(): string | null {
    return this.failed;
  }

  /** Feeds the next chunk of the file. */
  feed(chunk: Uint8Array): void {
    if (this.failed) return;
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (this.inString) {
        this.keyBytes?.push(b);
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) {
          this.inString = false;
          if (this.keyBytes) this.endKey();
        }
        continue;
      }
      if (isSpace(b)) continue;
      if (this.phase === "records" && this.depth === 2) {
        // Between two records: a comma ends one, the closing bracket ends the array.
        if (b === COMMA || b === CLOSE_BRACKET) {
          if (this.element) {
            this.element.push(chunk.subarray(from, i));
            this.emit();
          } else if (b === COMMA || this.count > 0) {
            this.fail("a records element is empty");
            return;
          }
          if (b === CLOSE_BRACKET) {
            this.depth = 1;
            this.phase = "after";
            from = i;
          }
          continue;
        }
        if (!this.element) {
          this.element = [];
          from = i;
        }
      }
      if (b === QUOTE) {
        this.inString = true;
        if (this.depth === 1 && this.expectKey) this.keyBytes = [b];
        continue;
      }
      if (this.depth === 1 && b === COLON) {
        this.afterColon = true;
        continue;
      }
      if (this.depth === 1 && b === COMMA) {
        this.expectKey = true;
        this.afterColon = false;
        continue;
      }
      if (b === OPEN_BRACE || b === OPEN_BRACKET) {
        if (this.depth === 1 && this.afterColon && this.currentKey === "records") {
          if (b !== OPEN_BRACKET) {
            this.fail("records is not an array");
            return;
          }
          this.before.push(chunk.subarray(from, i + 1));
          this.phase = "records";
          this.depth = 2;
          this.afterColon = false;
          from = i + 1;
          continue;
        }
        this.depth += 1;
        if (this.depth === 1) this.expectKey = true;
      } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        this.depth -= 1;
        if (this.depth < 0) {
          this.fail("unbalanced brackets");
          return;
        }
      }
      if (this.depth === 1) this.afterColon = false;
    }
    const rest = chunk.subarray(from);
    if (this.phase === "before") this.before.push(rest);
    else if (this.phase === "after") this.after.push(rest);
    else if (this.element) this.element.push(rest);
  }

  /** Ends the text: the document with `"records": []`, or null when the splitter gave up. */
  end(): string | null {
    if (this.failed) return null;
    if (this.phase !== "after" || this.inString || this.depth !== 0) {
      this.fail("no complete top-level records array");
      return null;
    }
    return Buffer.concat([...this.before, ...this.after]).toString("utf8");
  }

  /** How many records were handed to `onRecord`. */
  get records(): number {
    return this.count;
  }

  private endKey(): void {
    const text = Buffer.from(this.keyBytes!).toString("utf8");
    this.keyBytes = null;
    this.expectKey = false;
    let key: string;
    try {
      key = JSON.parse(text) as string;
    } catch {
      this.fail("a top-level key is not a JSON string");
      return;
    }
    if (this.topKeys.has(key) && key === "records") {
      this.fail("records appears twice");
      return;
    }
    this.topKeys.add(key);
    this.currentKey = key;
  }

  private emit(): void {
    const text = Buffer.concat(this.element!).toString("utf8");
    this.element = null;
    this.count += 1;
    this.onRecord(text);
  }

  private fail(why: string): void {
    this.failed = why;
  }
}
