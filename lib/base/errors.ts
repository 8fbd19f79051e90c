/**
 * The application's failure classes, shared by every layer: each is mapped once to an
 * HTTP status (lib/api/route.ts), an action result or a CLI exit code.
 */
export class InvalidInputError extends Error {
  constructor(
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}

export class NotFoundError extends Error {}

export class ConflictError extends Error {}

export function zodIssues(error: { issues: { path: PropertyKey[]; message: string }[] }) {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

export function invalidFromZod(error: { issues: { path: PropertyKey[]; message: string }[] }): InvalidInputError {
  const issues = zodIssues(error);
  return new InvalidInputError(issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '), issues);
}

/** The message of anything thrown. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
