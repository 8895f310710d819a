import { zhCN, type FieldError } from '@shutu/contracts';
import type { QueryError } from '@shutu/query';

/** An error whose message is meant for the user; the error handler sends it as is. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (msg: string = zhCN.badRequest, fields?: FieldError[]) => new AppError(400, msg, fields ? { fields } : null);
export const unauthorized = (msg: string = zhCN.unauthorized) => new AppError(401, msg);
export const forbidden = (msg: string = zhCN.forbidden) => new AppError(403, msg);
export const notFound = (msg: string = zhCN.notFound) => new AppError(404, msg);
export const conflict = (msg: string = zhCN.conflict) => new AppError(409, msg);
export const tooManyRequests = (msg: string = zhCN.tooManyRequests) => new AppError(429, msg);

/** A 400 for one named field, in the shape validation errors use. */
export const fieldError = (field: string, message: string) => badRequest(message, [{ field, message }]);

/** PostgreSQL's unique_violation, raised when two requests race past a uniqueness check. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** PostgreSQL's foreign_key_violation: a row still referenced (or a reference to a row that is gone). */
export function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23503';
}

/**
 * A refusal of the query engine as the response: its status (400; 403 for an excluded
 * column), its Chinese message, and for formulas where it points: `position` (0-based offset
 * in the formula) and `field` (the computed field it points into, when not the edited one).
 */
export function queryFailure(error: QueryError): AppError {
  return new AppError(error.status, error.message, { kind: error.kind, position: error.position, field: error.field });
}
