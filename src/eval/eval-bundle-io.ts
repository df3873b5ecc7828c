/**
 * The bundle an eval runs on: read and checked by the bundle reader (every
 * file against its sha256 in the manifest), with its tasks.json parsed.
 */

import { readBundleFile } from "../bundle/bundle-io.js";
import { readBundle } from "../bundle/bundle-reader.js";
import type { Bundle } from "../bundle/bundle-schema.js";
import { DocumentError } from "../errors/user-error.js";
import type { TasksFile } from "../tasks/task-schema.js";
import { parseTasksFile } from "../tasks/tasks-file.js";

/** A bundle with its tasks. */
export interface EvalBundle {
  bundle: Bundle;
  tasks: TasksFile;
}

/** Reads the bundle in `dir` and its tasks.json. */
export async function readEvalBundle(dir: string): Promise<EvalBundle> {
  const bundle = await readBundle(dir);
  const file = `${dir}/tasks.json`;
  const bytes = bundle.manifest.files.some((f) => f.path === "tasks.json")
    ? await readBundleFile(dir, "tasks.json")
    : null;
  if (bytes === null)
    throw new DocumentError(file, [
      {
        code: "missing_file",
        path: "",
        message: `${file}: the bundle has no tasks.json; rebuild it with apptwin build`,
      },
    ]);
  return { bundle, tasks: parseTasksFile(file, new TextDecoder().decode(bytes)) };
}
