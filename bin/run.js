#!/usr/bin/env node
// The apptwin CLI entry: oclif dispatches to dist/commands; the handler keeps
// a user's mistake (exit 2, one clean line) apart from a bug (stack, report it).
import { execute } from "@oclif/core";
import { handleTopLevelError } from "../dist/errors/handle.js";

try {
  await execute({ dir: import.meta.url });
} catch (error) {
  handleTopLevelError(error);
}
