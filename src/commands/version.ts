/** Why: bug reports and bundles name the apptwin that made them. */
import { BaseCommand } from "../cli/base-command.js";
import { APPTWIN_VERSION } from "../version.js";

/** Prints the apptwin version. */
export default class Version extends BaseCommand {
  static override summary = "Print the apptwin version.";

  async run(): Promise<{ version: string }> {
    await this.parse(Version);
    if (!this.jsonEnabled()) this.log(`apptwin ${APPTWIN_VERSION}`);
    return { version: APPTWIN_VERSION };
  }
}
