import { cubeMessages, formatMessage, type CubeMessageKey } from '@shutu/contracts';

export type QueryErrorKind = 'formula' | 'model' | 'request' | 'permission' | 'join' | 'value';

/**
 * A refusal the user can act on. `message` is the Chinese text for the response's `msg`;
 * `status` is the HTTP status the server answers with (400, or 403 for a forbidden column).
 * Formula errors carry `position`: the 0-based character offset in the formula.
 */
export class QueryError extends Error {
  readonly status: number;
  constructor(
    readonly kind: QueryErrorKind,
    message: string,
    readonly position: number | null = null,
    /** Title of the computed field whose formula `position` points into, if not the one being edited. */
    readonly field: string | null = null,
  ) {
    super(message);
    this.name = 'QueryError';
    this.status = kind === 'permission' ? 403 : 400;
  }
}

export function queryError(kind: QueryErrorKind, key: CubeMessageKey, params: Record<string, string | number> = {}): QueryError {
  return new QueryError(kind, formatMessage(cubeMessages[key], params));
}

/** A formula error at `position` (0-based); the message shows it 1-based. */
export function formulaError(position: number, detail: string): QueryError {
  return new QueryError('formula', formatMessage(cubeMessages.formulaSyntax, { position: position + 1, detail }), position);
}
