/**
 * Two kinds of error (STYLE.md §8.6.5). A ToolError goes back to the model as an `is_error` result
 * and the turn goes on; a FatalError ends the run with a clear sentence and an exit code.
 */
export type ToolErrorCode =
  | 'unknown_tool'
  | 'invalid_input'
  | 'validation_failed'
  | 'hook_blocked'
  | 'permission_denied'
  | 'execution_failed'
  | 'aborted'
  | 'cancelled'
  | 'timeout';

export class ToolError extends Error {
  constructor(
    readonly code: ToolErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

export type FatalCode = 'auth' | 'bad_request' | 'not_found' | 'api' | 'config' | 'aborted' | 'internal';

/** What the API itself said in an error response: its `error.type` and `error.message`. */
export interface ApiErrorBody {
  type?: string;
  message: string;
}

export class FatalError extends Error {
  constructor(
    readonly code: FatalCode,
    message: string,
    readonly status?: number,
    readonly api?: ApiErrorBody,
  ) {
    super(message);
    this.name = 'FatalError';
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
