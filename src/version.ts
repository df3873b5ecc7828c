/** The apptwin version written into bundles and reports (kept in step with package.json by a test). */
export const APPTWIN_VERSION = "0.1.0";
