// A removal the shared state could not confirm (Redis out of reach): the record stays there and is read
// again when Redis answers, so the user is told, never answered "nothing to remove".
import { ActionableError } from "../errors.js";

export class UnconfirmedRemovalError extends ActionableError {
  constructor() {
    super(
      "The shared state (Redis) is out of reach, so the removal could not be confirmed: what is stored there " +
        "stays and is used again once it answers. Try again when it is back.",
    );
  }
}
