import type { Problem } from '../errors.js';

// Failures as screens show them. Errors are read by their shape, not by instanceof: the client that threw them was
// bundled into the web app, and a screen's own copy of the error classes would never match.

/** The sentence to show for a failure: the server's detail for a refused request, else the error's message. */
export function messageOf(failure: unknown): string {
  if (failure === null || failure === undefined) return '';
  if (typeof failure === 'string') return failure;
  const fields = failure as { detail?: unknown; messages?: unknown; message?: unknown };
  if (typeof fields.detail === 'string' && fields.detail) return fields.detail;
  // A GraphQL answer with errors: the server's messages without the "GraphQL:" prefix.
  if (Array.isArray(fields.messages) && fields.messages.length > 0) return fields.messages.join('; ');
  if (typeof fields.message === 'string') return fields.message;
  return String(failure);
}

/** The HTTP status of a refused request (404, 422, ...), or null for anything else. */
export function statusOf(failure: unknown): number | null {
  const status = (failure as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : null;
}

/** The input problems of a 422 answer ({loc, msg}), empty for any other failure. */
export function problemsOf(failure: unknown): Problem[] {
  const problems = (failure as { problems?: unknown } | null)?.problems;
  return Array.isArray(problems) ? (problems as Problem[]) : [];
}

/** Where a problem is, for people: ["body", "statuses", 2, "color"] becomes "statuses 3 color". */
export function problemPlace(problem: Problem): string {
  const loc = problem.loc[0] === 'body' || problem.loc[0] === 'query' ? problem.loc.slice(1) : problem.loc;
  return loc.map((part) => (typeof part === 'number' ? String(part + 1) : part)).join(' ');
}

/**
 * A failure shown where it happened, as an alert: the server's sentence and, for a 422, each problem with the
 * field it concerns. Renders nothing when there is no error.
 */
export function ErrorBox({ error, prefix }: { error: unknown; prefix?: string }) {
  const problems = problemsOf(error);
  // The server's detail names the first problem only ("... (and 2 more)"): with several, list them all instead.
  const message = problems.length > 1 ? `${problems.length} values were refused:` : messageOf(error);
  if (!message) return null;
  return (
    <div className="error-box" role="alert">
      <p className="pw-error-message">
        {prefix ? `${prefix} ` : ''}
        {message}
      </p>
      {problems.length > 1 && (
        <ul className="pw-problems">
          {problems.map((problem, i) => (
            <li key={i}>
              {problemPlace(problem) && <strong>{problemPlace(problem)}: </strong>}
              {problem.msg}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
