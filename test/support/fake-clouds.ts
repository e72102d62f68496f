/**
 * Local fakes of the clouds' Claude endpoints, each a front to a FakeAnthropic (whose scripted
 * replies it serves), checking what the real endpoint checks:
 *
 * - Bedrock: `POST /model/{id}/invoke-with-response-stream`, SigV4-signed with a known key pair
 *   (the signature is computed again with @smithy/signature-v4 and compared) or a Bedrock API key;
 *   the body carries `anthropic_version: bedrock-2023-05-31` and no `model`; the answer is AWS's
 *   event-stream framing (@smithy/core's codec), each event a `chunk` of base64 JSON.
 * - Vertex AI: `POST /v1/projects/{p}/locations/{r}/publishers/anthropic/models/{id}:streamRawPredict`
 *   with `Authorization: Bearer <token>`; `anthropic_version: vertex-2023-10-16`.
 * - Foundry: `POST /anthropic/v1/messages` with `x-api-key` or an Entra `Bearer` token.
 *
 * A request that fails a check gets the cloud's own error (403 for a bad signature, 401 for a bad
 * token) and is recorded with the reason; one that passes is forwarded to the FakeAnthropic.
 */
import { createHash, createHmac } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { SignatureV4 } from '@smithy/signature-v4';
import type { FakeAnthropic } from './fake-anthropic-server.js';

export interface CloudRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  /** Why the front refused it; undefined when it was forwarded. */
  refused?: string;
  /** Bedrock: the access key that signed it. */
  accessKeyId?: string;
}

export interface CloudFront {
  url: string;
  requests: CloudRequest[];
  close(): Promise<void>;
}

type SourceData = string | ArrayBuffer | ArrayBufferView;

function bytes(data: SourceData): Buffer {
  if (typeof data === 'string') return Buffer.from(data);
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
}

/** SHA-256 and its HMAC, as the signer wants them. */
class Sha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    this.hash = secret ? createHmac('sha256', bytes(secret)) : createHash('sha256');
  }
  update(data: SourceData): void {
    this.hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {}
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Sends the Messages request on to the FakeAnthropic; resolves with its response. */
function forward(upstream: FakeAnthropic, body: Record<string, unknown>, betas: string[]): Promise<IncomingMessage> {
  const payload = Buffer.from(JSON.stringify(body));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(payload.length),
    'x-api-key': 'cloud-front',
    'anthropic-version': '2023-06-01',
    ...(betas.length ? { 'anthropic-beta': betas.join(',') } : {}),
  };
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${upstream.url}/v1/messages`, { method: 'POST', headers }, resolve);
    req.on('error', reject);
    req.end(payload);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function startFront(handle: (req: IncomingMessage, res: ServerResponse, rec: CloudRequest, raw: string) => Promise<void>): Promise<CloudFront> {
  const front: CloudFront = { url: '', requests: [], close: async () => {} };
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        body = { unparsed: raw };
      }
      const rec: CloudRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body };
      front.requests.push(rec);
      await handle(req, res, rec, raw);
    })().catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { message: `fake cloud failed: ${String(err)}` });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  front.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  front.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return front;
}

// ---------------------------------------------------------------------------------------------
// Bedrock
// ---------------------------------------------------------------------------------------------

export interface AwsKey {
  secretAccessKey: string;
  sessionToken?: string;
  /** Answer 403 ExpiredTokenException for requests signed with this key. */
  expired?: boolean;
}

export interface FakeBedrockOptions {
  region?: string;
  /** Access key id → its secret: the pairs whose signatures are accepted. */
  keys?: Record<string, AwsKey>;
  /** Bedrock API keys (AWS_BEARER_TOKEN_BEDROCK) accepted as `Authorization: Bearer`. */
  apiKeys?: string[];
  /** Accept requests with no credentials at all (a gateway in front of Bedrock signs them). */
  noAuth?: boolean;
}

const AWS_ERROR_TYPES: Record<number, string> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  529: 'ServiceUnavailableException',
};

export async function startFakeBedrock(upstream: FakeAnthropic, opts: FakeBedrockOptions = {}): Promise<CloudFront> {
  const region = opts.region ?? 'us-east-1';
  const codec = new EventStreamCodec(
    (bytes) => Buffer.from(bytes).toString('utf8'),
    (text) => new Uint8Array(Buffer.from(text, 'utf8')),
  );
  const refuse = (res: ServerResponse, rec: CloudRequest, status: number, type: string, message: string) => {
    rec.refused = `${type}: ${message}`;
    sendJson(res, status, { message }, { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` });
  };
  return startFront(async (req, res, rec, raw) => {
    const match = /^\/model\/([^/]+)\/invoke-with-response-stream$/.exec(rec.path);
    if (rec.method !== 'POST' || !match) return refuse(res, rec, 404, 'UnknownOperationException', `no route ${rec.method} ${rec.path}`);
    const auth = String(req.headers.authorization ?? '');
    if (auth.startsWith('AWS4-HMAC-SHA256 ')) {
      const check = await checkSigV4(req, rec, raw, region, opts.keys ?? {});
      if (check) return refuse(res, rec, 403, check.type, check.message);
    } else if (auth.startsWith('Bearer ')) {
      if (!(opts.apiKeys ?? []).includes(auth.slice(7)))
        return refuse(res, rec, 403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
    } else if (!opts.noAuth) return refuse(res, rec, 403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
    const { anthropic_version: version, anthropic_beta: betas, ...body } = rec.body;
    if (version !== 'bedrock-2023-05-31')
      return refuse(res, rec, 400, 'ValidationException', `anthropic_version must be bedrock-2023-05-31, got ${String(version)}`);
    if ('model' in body) return refuse(res, rec, 400, 'ValidationException', 'extraneous key [model] is not permitted');
    const up = await forward(upstream, { ...body, model: decodeURIComponent(match[1] ?? ''), stream: true }, Array.isArray(betas) ? betas.map(String) : []);
    if (up.statusCode !== 200) {
      const text = await readBody(up);
      const message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
      return refuse(res, rec, up.statusCode ?? 500, AWS_ERROR_TYPES[up.statusCode ?? 500] ?? 'InternalServerException', message);
    }
    res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'fake-bedrock' });
    for await (const event of sseEvents(up)) {
      const frame =
        event.name === 'error'
          ? codec.encode({
              headers: {
                ':message-type': { type: 'string', value: 'exception' },
                ':exception-type': { type: 'string', value: 'serviceUnavailableException' },
                ':content-type': { type: 'string', value: 'application/json' },
              },
              body: Buffer.from(JSON.stringify({ message: (JSON.parse(event.data) as { error?: { message?: string } }).error?.message ?? 'error' })),
            })
          : codec.encode({
              headers: {
                ':event-type': { type: 'string', value: 'chunk' },
                ':content-type': { type: 'string', value: 'application/json' },
                ':message-type': { type: 'string', value: 'event' },
              },
              body: Buffer.from(JSON.stringify({ bytes: Buffer.from(event.data).toString('base64') })),
            });
      res.write(frame);
    }
    res.end();
  });
}

/** Checks the request's SigV4 signature by signing it again with the known secret; a problem, or undefined when it holds. */
async function checkSigV4(req: IncomingMessage, rec: CloudRequest, raw: string, region: string, keys: Record<string, AwsKey>) {
  const auth = String(req.headers.authorization);
  const m = /Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)/.exec(auth);
  if (!m) return { type: 'IncompleteSignatureException', message: 'Authorization header is not a SigV4 signature' };
  const [, accessKeyId = '', , scopeRegion, service, signedHeaders = ''] = m;
  rec.accessKeyId = accessKeyId;
  const key = keys[accessKeyId];
  if (!key) return { type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  if (scopeRegion !== region || service !== 'bedrock')
    return { type: 'InvalidSignatureException', message: `credential scope ${scopeRegion}/${service}, expected ${region}/bedrock` };
  if (key.sessionToken && req.headers['x-amz-security-token'] !== key.sessionToken)
    return { type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!date) return { type: 'IncompleteSignatureException', message: 'no X-Amz-Date' };
  const headers: Record<string, string> = {};
  for (const name of signedHeaders.split(';')) headers[name] = String(req.headers[name] ?? '');
  const url = new URL(rec.path, 'http://placeholder');
  const signer = new SignatureV4({
    service: 'bedrock',
    region,
    sha256: Sha256,
    credentials: { accessKeyId, secretAccessKey: key.secretAccessKey, ...(key.sessionToken ? { sessionToken: key.sessionToken } : {}) },
  });
  const signingDate = new Date(Date.UTC(+date[1]!, +date[2]! - 1, +date[3]!, +date[4]!, +date[5]!, +date[6]!));
  const signed = await signer.sign(
    { method: rec.method, protocol: 'http:', hostname: String(req.headers.host).split(':')[0] ?? '', path: url.pathname, query: {}, headers, body: raw },
    { signingDate },
  );
  if (signed.headers.authorization !== auth)
    return { type: 'InvalidSignatureException', message: 'The request signature we calculated does not match the signature you provided.' };
  if (key.expired) return { type: 'ExpiredTokenException', message: 'The security token included in the request is expired' };
  return undefined;
}

/** The events of an SSE response: name and data. */
async function* sseEvents(res: IncomingMessage): AsyncGenerator<{ name: string; data: string }> {
  let buffer = '';
  for await (const chunk of res) {
    buffer += String(chunk);
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const name = /^event: ?(.*)$/m.exec(block)?.[1];
      const data = /^data: ?(.*)$/m.exec(block)?.[1];
      if (name && data && name !== 'ping') yield { name, data };
      end = buffer.indexOf('\n\n');
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Vertex AI and Foundry
// ---------------------------------------------------------------------------------------------

/** Pipes the FakeAnthropic's answer (event stream or error) back unchanged. */
async function passThrough(upstream: FakeAnthropic, res: ServerResponse, body: Record<string, unknown>, betas: string[]): Promise<void> {
  const up = await forward(upstream, body, betas);
  res.writeHead(up.statusCode ?? 500, { 'content-type': String(up.headers['content-type'] ?? 'application/json') });
  for await (const chunk of up) res.write(chunk);
  res.end();
}

function betasOf(req: IncomingMessage): string[] {
  return String(req.headers['anthropic-beta'] ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
}

export interface FakeVertexOptions {
  project: string;
  /** Bearer tokens accepted. */
  tokens: string[];
  /** Accept requests with no Authorization header (CLAUDE_CODE_SKIP_VERTEX_AUTH behind a gateway). */
  noAuth?: boolean;
}

export async function startFakeVertex(upstream: FakeAnthropic, opts: FakeVertexOptions): Promise<CloudFront> {
  const refuse = (res: ServerResponse, rec: CloudRequest, status: number, message: string) => {
    rec.refused = message;
    sendJson(res, status, { error: { code: status, message, status: status === 401 ? 'UNAUTHENTICATED' : 'INVALID_ARGUMENT' } });
  };
  return startFront(async (req, res, rec) => {
    const m = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):streamRawPredict$/.exec(rec.path);
    if (rec.method !== 'POST' || !m) return refuse(res, rec, 404, `no route ${rec.method} ${rec.path}`);
    const auth = String(req.headers.authorization ?? '');
    if (!(opts.noAuth && !auth) && !opts.tokens.includes(auth.replace(/^Bearer /, '')))
      return refuse(res, rec, 401, 'Request had invalid authentication credentials.');
    if (m[1] !== opts.project) return refuse(res, rec, 403, `Permission denied on project ${m[1]}`);
    const { anthropic_version: version, ...body } = rec.body;
    if (version !== 'vertex-2023-10-16') return refuse(res, rec, 400, `anthropic_version must be vertex-2023-10-16, got ${String(version)}`);
    if ('model' in body) return refuse(res, rec, 400, 'model is not a field of the request');
    await passThrough(upstream, res, { ...body, model: decodeURIComponent(m[3] ?? '') }, betasOf(req));
  });
}

export interface FakeFoundryOptions {
  apiKeys?: string[];
  /** Entra ID tokens accepted as `Authorization: Bearer`. */
  tokens?: string[];
  noAuth?: boolean;
}

export async function startFakeFoundry(upstream: FakeAnthropic, opts: FakeFoundryOptions): Promise<CloudFront> {
  return startFront(async (req, res, rec) => {
    if (rec.method !== 'POST' || rec.path !== '/anthropic/v1/messages') {
      rec.refused = `no route ${rec.method} ${rec.path}`;
      return sendJson(res, 404, { error: { code: '404', message: rec.refused } });
    }
    const key = req.headers['x-api-key'];
    const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const ok =
      (typeof key === 'string' && (opts.apiKeys ?? []).includes(key)) || (bearer && (opts.tokens ?? []).includes(bearer)) || (opts.noAuth && !key && !bearer);
    if (!ok) {
      rec.refused = 'Access denied due to invalid subscription key or wrong API endpoint.';
      return sendJson(res, 401, { error: { code: '401', message: rec.refused } });
    }
    await passThrough(upstream, res, rec.body, betasOf(req));
  });
}

// ---------------------------------------------------------------------------------------------
// Credential endpoints
// ---------------------------------------------------------------------------------------------

export interface MetadataServer {
  url: string;
  /** host:port, for GCE_METADATA_HOST. */
  host: string;
  hits: string[];
  close(): Promise<void>;
}

/**
 * A metadata endpoint: Google's (`GCE_METADATA_HOST`: a token for the default service account) and
 * AWS's container credentials (`AWS_CONTAINER_CREDENTIALS_FULL_URI` = `<url>/aws-credentials`).
 */
export async function startFakeMetadata(opts: {
  googleToken?: string | (() => string);
  aws?: { accessKeyId: string; secretAccessKey: string; sessionToken: string };
}): Promise<MetadataServer> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    hits.push(path);
    if (path === '/aws-credentials' && opts.aws) {
      const expiration = new Date(Date.now() + 3600_000).toISOString();
      return sendJson(res, 200, {
        AccessKeyId: opts.aws.accessKeyId,
        SecretAccessKey: opts.aws.secretAccessKey,
        Token: opts.aws.sessionToken,
        Expiration: expiration,
      });
    }
    if (!path.startsWith('/computeMetadata/v1/') || req.headers['metadata-flavor'] !== 'Google') return sendJson(res, 404, { error: 'not found' });
    const google = { 'metadata-flavor': 'Google' };
    if (path.endsWith('/service-accounts/default/token') && opts.googleToken) {
      const token = typeof opts.googleToken === 'function' ? opts.googleToken() : opts.googleToken;
      return sendJson(res, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' }, google);
    }
    if (path.endsWith('/universe/universe-domain')) {
      res.writeHead(200, { 'content-type': 'text/plain', ...google });
      return res.end('googleapis.com');
    }
    res.writeHead(404, google);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
