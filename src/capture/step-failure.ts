/**
 * A step that did not do what the scenario says: the message is the step's
 * error in the evidence. `incomplete` marks failures that mean the run could
 * not establish the answer (browser gone, run time or evidence limit) rather
 * than a defect in the app.
 */

/** Thrown by a step executor when the step fails; never escapes the runner. */
export class StepFailure extends Error {
  readonly incomplete: boolean;

  constructor(message: string, options: { incomplete?: boolean } = {}) {
    super(message);
    this.name = "StepFailure";
    this.incomplete = options.incomplete ?? false;
  }
}

/** A value a step needs is not there (a cookie unset, nothing at a pointer); the caller says where and what was not done. */
export class ValueMissing extends StepFailure {
  constructor(message: string) {
    super(message);
    this.name = "ValueMissing";
  }
}
