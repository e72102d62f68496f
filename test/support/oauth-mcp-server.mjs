// An MCP server behind OAuth, for the tests, on node:http (127.0.0.1, a free port): the test server
// of mcp-server.mjs at /mcp, answering 401 (with the protected-resource metadata's address) unless
// the request carries a valid, unexpired bearer token; and its own authorization server: metadata
// (RFC 9728 and RFC 8414), dynamic client registration, /authorize (redirects at once to the
// redirect_uri with a code, as a browser that is already signed in would see), and /token (the
// authorization_code grant with its PKCE check, and refresh_token, which rotates the refresh token).
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { serveMcp } from './mcp-server.mjs';

const id = (prefix) => `${prefix}_${randomBytes(12).toString('hex')}`;

export async function startOAuthMcpServer({ tokenLifetimeSec = 3600, clientId, registration = true } = {}) {
  const clients = new Map(); // client_id → { redirect_uris }
  if (clientId) clients.set(clientId, { redirect_uris: null });
  const codes = new Map(); // code → { client_id, redirect_uri, challenge }
  const access = new Map(); // token → { expiresAt }
  const refresh = new Map(); // token → client_id
  const requests = [];
  let base = '';

  const issue = (client_id) => {
    const a = id('at');
    const r = id('rt');
    access.set(a, { expiresAt: Date.now() + tokenLifetimeSec * 1000 });
    refresh.set(r, client_id);
    return { access_token: a, token_type: 'Bearer', expires_in: tokenLifetimeSec, refresh_token: r };
  };
  const json = (res, status, body) => res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
  const resourceMetadata = () => ({ resource: `${base}/mcp`, authorization_servers: [base], bearer_methods_supported: ['header'] });

  const routes = {
    'GET /.well-known/oauth-protected-resource/mcp': (req, res) => json(res, 200, resourceMetadata()),
    'GET /.well-known/oauth-protected-resource': (req, res) => json(res, 200, resourceMetadata()),
    'GET /.well-known/oauth-authorization-server': (req, res) =>
      json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        ...(registration ? { registration_endpoint: `${base}/register` } : {}),
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      }),
    'POST /register': async (req, res) => {
      if (!registration) return json(res, 404, { error: 'not_found' });
      const meta = JSON.parse(await body(req));
      if (!Array.isArray(meta.redirect_uris) || !meta.redirect_uris.length) return json(res, 400, { error: 'invalid_redirect_uri' });
      const client_id = id('client');
      clients.set(client_id, { redirect_uris: meta.redirect_uris });
      json(res, 201, { ...meta, client_id, client_id_issued_at: Math.floor(Date.now() / 1000) });
    },
    'GET /authorize': (req, res, url) => {
      const q = url.searchParams;
      const client = clients.get(q.get('client_id'));
      const redirect = q.get('redirect_uri');
      if (!client || !redirect) return json(res, 400, { error: 'invalid_client' });
      const loopback = /^http:\/\/(localhost|127\.0\.0\.1):\d+\/callback$/.test(redirect);
      if (client.redirect_uris ? !client.redirect_uris.includes(redirect) : !loopback) return json(res, 400, { error: 'invalid_redirect_uri' });
      if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge'))
        return json(res, 400, { error: 'invalid_request' });
      const code = id('code');
      codes.set(code, { client_id: q.get('client_id'), redirect_uri: redirect, challenge: q.get('code_challenge') });
      const back = new URL(redirect);
      back.searchParams.set('code', code);
      if (q.get('state') !== null) back.searchParams.set('state', q.get('state'));
      res.writeHead(302, { location: back.href }).end();
    },
    'POST /token': async (req, res) => {
      const p = new URLSearchParams(await body(req));
      const grant = p.get('grant_type');
      requests.at(-1).grant_type = grant;
      if (grant === 'authorization_code') {
        const c = codes.get(p.get('code') ?? '');
        codes.delete(p.get('code') ?? '');
        const verifier = p.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (!c || c.client_id !== p.get('client_id') || c.redirect_uri !== p.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant' });
        if (challenge !== c.challenge) return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
        return json(res, 200, issue(c.client_id));
      }
      if (grant === 'refresh_token') {
        const owner = refresh.get(p.get('refresh_token') ?? '');
        if (!owner || owner !== p.get('client_id')) return json(res, 400, { error: 'invalid_grant' });
        refresh.delete(p.get('refresh_token'));
        return json(res, 200, issue(owner));
      }
      json(res, 400, { error: 'unsupported_grant_type' });
    },
  };

  const httpServer = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    requests.push({ method: req.method, path: url.pathname, query: url.search, authorization: req.headers.authorization });
    const route = routes[`${req.method} ${url.pathname}`];
    if (route) return void Promise.resolve(route(req, res, url)).catch((err) => json(res, 500, { error: 'server_error', error_description: String(err) }));
    if (url.pathname !== '/mcp') return json(res, 404, { error: 'not_found' });
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer && access.get(bearer);
    if (!token || token.expiresAt <= Date.now()) {
      const err = bearer ? ', error="invalid_token"' : '';
      res.writeHead(401, {
        'content-type': 'application/json',
        'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"${err}`,
      });
      return res.end('{"error":"unauthorized"}');
    }
    await serveMcp(req, res);
  });
  await new Promise((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${httpServer.address().port}`;
  return {
    url: `${base}/mcp`,
    issuer: base,
    requests,
    /** Registers a client and gives it tokens, as a finished sign-in would have. */
    seed() {
      const client_id = id('client');
      clients.set(client_id, { redirect_uris: ['http://localhost:1/callback'] });
      return { client_id, tokens: issue(client_id) };
    },
    /** Every access token issued so far expires now. */
    expireAccessTokens() {
      for (const t of access.values()) t.expiresAt = 0;
    },
    /** Access tokens the server accepts now. */
    validAccessTokens: () => [...access].filter(([, t]) => t.expiresAt > Date.now()).map(([k]) => k),
    close: () =>
      new Promise((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}

function body(req) {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (text += c));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}
