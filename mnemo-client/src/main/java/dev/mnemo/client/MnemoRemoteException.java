package dev.mnemo.client;

import dev.mnemo.MnemoException;

/**
 * The server refused a call, or could not be reached, for a reason other than invalid input (which
 * is an {@link dev.mnemo.InvalidRequestException} with the server's field violations).
 *
 * <p>{@link #status()} is the HTTP status (0 when no answer came: a refused connection, a
 * time-out), {@link #type()} the problem type's short name ({@code unauthorized}, {@code
 * unavailable}, ...) and {@link #requestId()} the server's request id to quote when reading its
 * logs (both null without a problem document). {@link #retriable()} says whether the same call may
 * succeed later: the client has already retried it as configured before throwing.
 */
public final class MnemoRemoteException extends MnemoException {
  private static final long serialVersionUID = 1L;
  private final int status;
  private final String type;
  private final String requestId;

  MnemoRemoteException(
      String message,
      boolean retriable,
      int status,
      String type,
      String requestId,
      Throwable cause) {
    super(message, retriable, cause);
    this.status = status;
    this.type = type;
    this.requestId = requestId;
  }

  /** The HTTP status of the answer, or 0 when none came. */
  public int status() {
    return status;
  }

  /** The problem type without its {@code urn:mnemo:problem:} prefix, or null. */
  public String type() {
    return type;
  }

  /** The server's {@code X-Request-Id} of the failed call, or null. */
  public String requestId() {
    return requestId;
  }
}
