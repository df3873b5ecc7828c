/**
 * Reading `tasks.json`: a newer format is refused, a placeholder from a
 * build before task generation says to rebuild, and every problem of the
 * file is reported at once, naming the field.
 */
import { DocumentError, type Issue, UnsupportedVersionError, UserError } from "../errors/user-error.js";
import { zodIssues } from "../errors/zod-issues.js";
import { TASKS_SCHEMA_VERSION, type TasksFile, TasksFileSchema } from "./task-schema.js";

/** Parses the text of `file` (a bundle's tasks.json). */
export function parseTasksFile(file: string, text: string): TasksFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new DocumentError(file, [
      { code: "invalid_json", path: "", message: `${file}: is not valid JSON (${why})` },
    ]);
  }
  const version = (raw as { schema_version?: unknown } | null)?.schema_version;
  if (typeof version === "number" && version > TASKS_SCHEMA_VERSION)
    throw new UnsupportedVersionError(file, version, TASKS_SCHEMA_VERSION);
  const r = raw as { tasks?: unknown; not_generated?: unknown } | null;
  if (r && Array.isArray(r.tasks) && r.tasks.length === 0 && r.not_generated === undefined)
    throw new UserError(
      "no_tasks",
      `${file}: holds no tasks (the bundle was built before apptwin generated tasks); rebuild it with apptwin build --evidence <its evidence.json> --out DIR`,
    );
  const parsed = TasksFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issues: Issue[] = zodIssues(file, parsed.error.issues);
    throw new DocumentError(file, issues);
  }
  return parsed.data;
}
