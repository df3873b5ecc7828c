import Build from "./build.js";

/** `apptwin export`: the same command as `apptwin build`. */
export default class Export extends Build {
  static override summary = "Alias of build: write a deterministic environment bundle from evidence.";
}
