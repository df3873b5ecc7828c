/** Why: agents ask to export an environment; the alias keeps that word without a second build path. */
import Build from "./build.js";

/** `apptwin export`: the same command as `apptwin build`. */
export default class Export extends Build {
  static override summary = "Alias of build: write a deterministic environment bundle from evidence.";
  // Its own examples: the inherited ones would tell a user of `export` to type `build`.
  static override examples = [
    "<%= config.bin %> export --evidence items.evidence.json --out items-env",
    "<%= config.bin %> export --evidence a.json --evidence b.json --out env --pack",
  ];
}
