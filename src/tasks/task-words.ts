/**
 * The words task prompts and grader reasons are made of: field and
 * collection names as a person says them (`createdAt` → "created at",
 * `todos` → "todo"), values quoted, and answers spelled out.
 */
import { singular } from "../learn/value-kinds.js";

/** A field or collection name as words: camelCase, snake_case and kebab-case split, lower case. */
export function words(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.]+/g, " ")
    .trim()
    .toLowerCase()
    .replace(/\s+/g, " ");
}

/** File formats a collection named after its path keeps as a last word (`/issues.json` → `issues_json`). */
const FORMAT_WORDS = new Set(["json", "xml", "csv", "yaml", "yml", "html", "htm", "txt"]);

/** A collection's plural noun as words, without a trailing format (`todo_lists` → "todo lists", `issues_json` → "issues"). */
export function pluralNoun(collection: string): string {
  const w = words(collection).split(" ");
  if (w.length > 1 && FORMAT_WORDS.has(w[w.length - 1]!)) w.pop();
  return w.join(" ");
}

/** A collection's singular noun as words (`todo_lists` → "todo list"). */
export function singularNoun(collection: string): string {
  const w = pluralNoun(collection).split(" ");
  w[w.length - 1] = singular(w[w.length - 1]!);
  return w.join(" ");
}

/** A boolean field as an adjective: `done` → "done", `isComplete` → "complete", `is_active` → "active". */
export function adjective(label: string): string {
  return label.replace(/^(is|has) /, "");
}

/** How sentences speak of a boolean field: as an adjective when it is one word ("done"), else as a setting ("“inherit members” on"). */
export interface FlagWords {
  /** "Is the item … done?" */
  question(subject: string): string;
  /** "are done", "are not done" (plural subject). */
  are(value: boolean): string;
  /** "that is done", "that has “inherit members” off". */
  that(value: boolean): string;
  /** "mark it as done", "turn “inherit members” on for it". */
  set(object: string, value: boolean): string;
  /** In a create: "marked as done", "“inherit members” on". */
  given(value: boolean): string;
}

/** The words of a boolean field labelled `label`. */
export function flagWords(label: string): FlagWords {
  const adj = adjective(label);
  const not = (value: boolean) => (value ? "" : "not ");
  const on = (value: boolean) => (value ? "on" : "off");
  if (!adj.includes(" "))
    return {
      question: (subject) => `Is ${subject} ${adj}?`,
      are: (value) => `are ${not(value)}${adj}`,
      that: (value) => `that is ${not(value)}${adj}`,
      set: (object, value) => `mark ${object} as ${not(value)}${adj}`,
      given: (value) => `marked as ${not(value)}${adj}`,
    };
  return {
    question: (subject) => `Is “${adj}” on for ${subject}?`,
    are: (value) => `have “${adj}” ${on(value)}`,
    that: (value) => `that has “${adj}” ${on(value)}`,
    set: (object, value) => `turn “${adj}” ${on(value)} for ${object}`,
    given: (value) => `“${adj}” ${on(value)}`,
  };
}

/** The sentence with its first letter in upper case. */
export function capitalised(sentence: string): string {
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** A value inside a sentence: strings in curly quotes, anything else as JSON. */
export function quoted(value: unknown): string {
  return typeof value === "string" ? `“${value}”` : JSON.stringify(value);
}

/** A value in a grader's reason: quoted, and cut to 80 characters. */
export function shown(value: unknown): string {
  if (value === undefined) return "absent";
  const text = quoted(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** How an answer spells a value: yes/no for booleans, the text of anything else. */
export function answerText(value: unknown): string {
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** "a" or "an" before a noun. */
export function article(noun: string): string {
  return /^[aeiou]/i.test(noun) ? "an" : "a";
}

/** Neutral text values for new entities, tried in order until one is not taken. */
export const NEW_PHRASES = [
  "Quarterly review",
  "Spring cleaning",
  "Team retreat",
  "Budget check",
  "Website refresh",
  "Supplier call",
  "Office move",
  "Training plan",
];

/** Given names for fields whose values are single capitalised words, tried in order. */
export const NEW_NAMES = ["Jordan", "Alex", "Morgan", "Casey", "Robin", "Taylor"];
