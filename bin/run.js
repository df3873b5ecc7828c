#!/usr/bin/env node
// The apptwin CLI entry: oclif dispatches to dist/commands; the handler keeps
// a user's mistake (exit 2, one clean line) apart from a bug (stack, report it).
// `run` rather than `execute`: execute hands every error to oclif's own
// handler, which would print a bug as one line and exit 1 ("capture failed").
import { flush, run } from "@oclif/core";
import { handleTopLevelError } from "../dist/errors/handle.js";

try {
  await run(process.argv.slice(2), import.meta.url);
  await flush();
} catch (error) {
  handleTopLevelError(error);
  await flush();
}
