/**
 * The errors of a provider's SDK client, as the model client knows them. The SDK clients live in
 * bundles of their own, each with its own copy of the SDK's error classes, so they are read by
 * their shape: a status and a body become the SDK error of the main bundle (an AWS or Google body
 * reshaped as Anthropic's, so that the message reads the same); the connection errors stay
 * connection errors (retried), as does anything else that broke the stream; wicket's own errors,
 * which the SDK wraps when they come from the fetch or a credentials callback, are unwrapped.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk/core/error';
import { FatalError } from '../../base/errors.js';
import { ApiTimeoutError } from '../limits.js';

interface SdkErrorShape {
  name?: string;
  message: string;
  status?: unknown;
  error?: unknown;
  headers?: { get(name: string): string | null };
  cause?: unknown;
}

/** Wicket's own errors, whichever depth of the SDK's wrapping they are found at. */
function ownError(err: unknown, depth = 0): Error | undefined {
  if (err instanceof FatalError || err instanceof ApiTimeoutError || err instanceof APIError) return err;
  if (depth < 3 && err instanceof Error && err.cause !== undefined) return ownError(err.cause, depth + 1);
  return undefined;
}

export function fromSdkError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const own = ownError(err);
  if (own) return own;
  const e = err as SdkErrorShape;
  if (e.name === 'APIUserAbortError') return err;
  if (typeof e.status === 'number' && e.headers) return APIError.generate(e.status, anthropicShaped(e.error, e.headers), undefined, e.headers as never);
  if (e.name === 'APIError') {
    // An `error` event in the stream: no status, the event's body.
    const type = (e.error as { error?: { type?: string } } | undefined)?.error?.type;
    return new APIError(undefined, e.error as object | undefined, e.message, e.headers as never, type as never);
  }
  if (e.name === 'APIConnectionTimeoutError') return new APIConnectionTimeoutError({ message: e.message });
  if (e.name === 'APIConnectionError') return new APIConnectionError({ message: connectionMessage(e), cause: e.cause as Error | undefined });
  // Anything else broke the stream on its way (a reset socket, a frame that does not decode): retried as a dropped connection.
  return err;
}

/** "Connection error." says little: the cause's message says what failed. */
function connectionMessage(e: SdkErrorShape): string {
  const cause = e.cause instanceof Error ? e.cause.message : undefined;
  return cause && cause !== e.message ? `${e.message.replace(/\.$/, '')}: ${cause}` : e.message;
}

/**
 * A cloud's error body in Anthropic's shape: AWS answers `{"message": …}` with the type in the
 * `x-amzn-errortype` header, Google `{"error": {"code", "message", "status"}}`.
 */
function anthropicShaped(body: unknown, headers: SdkErrorShape['headers']): object | undefined {
  if (!body || typeof body !== 'object') return body as undefined;
  const b = body as { message?: unknown; Message?: unknown; error?: { message?: unknown; status?: unknown; type?: unknown } };
  if (b.error && typeof b.error === 'object' && typeof b.error.message === 'string') {
    if (typeof b.error.type === 'string') return body;
    return { type: 'error', error: { type: typeof b.error.status === 'string' ? b.error.status : 'api_error', message: b.error.message } };
  }
  const message = typeof b.message === 'string' ? b.message : typeof b.Message === 'string' ? b.Message : undefined;
  if (message === undefined) return body;
  const awsType = headers?.get('x-amzn-errortype')?.split(':')[0];
  return { type: 'error', error: { type: awsType || 'api_error', message } };
}
