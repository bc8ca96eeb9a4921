/**
 * Errors the session worker answered with, as the page receives them: it ran and said this, as against stopping
 * or never starting. Their own module: the page tells them apart without loading what the worker runs.
 */

/** The worker answered the request with an error: it ran, and this is what it said. */
export class WorkerAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorkerAnswerError";
  }
}

/**
 * Asked for a snapshot that is not held here: closed, let go for a newer one, or read by a worker that has since
 * stopped (a new one holds nothing).
 */
export class SnapshotNotHeldError extends WorkerAnswerError {
  constructor(message = "This snapshot is no longer held here; open it again.") {
    super(message);
    this.name = "SnapshotNotHeldError";
  }
}
