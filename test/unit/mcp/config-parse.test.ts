import { describe, expect, it } from 'vitest';
import { expandVars, parseServer, projectServerApproved } from '../../../src/mcp/config.js';

describe('parseServer: transports', () => {
  it('an entry without "type" is a stdio server, with empty args and env by default', () => {
    expect(parseServer({ command: 'node' }, {})).toEqual({ config: { type: 'stdio', command: 'node', args: [], env: {} } });
  });

  it('an explicit stdio entry keeps its args and env; numbers and booleans become strings', () => {
    expect(parseServer({ type: 'stdio', command: 'srv', args: ['--port', 8080], env: { A: 'x', N: 1, B: true } }, {})).toEqual({
      config: { type: 'stdio', command: 'srv', args: ['--port', '8080'], env: { A: 'x', N: '1', B: 'true' } },
    });
  });

  it('http and streamable-http are both the http transport', () => {
    const http = parseServer({ type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer t' } }, {});
    expect(http).toEqual({ config: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer t' } } });
    expect(parseServer({ type: 'streamable-http', url: 'http://localhost:3000/mcp' }, {})).toEqual({
      config: { type: 'http', url: 'http://localhost:3000/mcp', headers: {} },
    });
  });

  it('sse stays sse', () => {
    expect(parseServer({ type: 'sse', url: 'https://example.com/sse' }, {})).toEqual({ config: { type: 'sse', url: 'https://example.com/sse', headers: {} } });
  });

  it('an http or sse entry takes "oauth": a client id registered in advance and the callback port', () => {
    expect(parseServer({ type: 'http', url: 'https://example.com/mcp', oauth: { clientId: 'abc', callbackPort: 8080 } }, {})).toEqual({
      config: { type: 'http', url: 'https://example.com/mcp', headers: {}, oauth: { clientId: 'abc', callbackPort: 8080 } },
    });
    expect(parseServer({ type: 'sse', url: 'https://example.com/sse', oauth: { callbackPort: 9999 } }, {})).toEqual({
      config: { type: 'sse', url: 'https://example.com/sse', headers: {}, oauth: { callbackPort: 9999 } },
    });
    expect(parseServer({ type: 'http', url: 'https://e.com/mcp', oauth: 'yes' }, {})).toEqual({
      error: '"oauth" must be an object: {"clientId": "…", "callbackPort": 8080}',
    });
    expect(parseServer({ type: 'http', url: 'https://e.com/mcp', oauth: { clientId: 7 } }, {})).toEqual({ error: '"oauth.clientId" must be a string' });
    expect(parseServer({ type: 'http', url: 'https://e.com/mcp', oauth: { callbackPort: 70000 } }, {})).toEqual({
      error: '"oauth.callbackPort" must be a port number (1-65535)',
    });
    expect(parseServer({ type: 'http', url: 'https://e.com/mcp', oauth: { callbackPort: '8080' } }, {})).toEqual({
      error: '"oauth.callbackPort" must be a port number (1-65535)',
    });
  });

  it('a "url" without a "type" is an error, not a stdio server', () => {
    expect(parseServer({ url: 'https://example.com/mcp' }, {})).toEqual({ error: 'an entry with a "url" needs a "type": "http" or "sse"' });
  });

  it('"ws" takes a ws:// or wss:// URL and headers, with variables expanded', () => {
    expect(parseServer({ type: 'ws', url: 'wss://${HOST}/x', headers: { A: '${T}' } }, { HOST: 'h.example', T: 't' })).toEqual({
      config: { type: 'ws', url: 'wss://h.example/x', headers: { A: 't' } },
    });
    expect(parseServer({ type: 'ws', url: 'http://localhost:1/x' }, {})).toEqual({ error: '"url" must be a ws:// or wss:// URL, got "http://localhost:1/x"' });
    expect(parseServer({ type: 'ws' }, {})).toEqual({ error: '"url" is required (a string) for a server of type "ws"' });
  });

  it('an unknown type is named in the error', () => {
    expect(parseServer({ type: 'carrier-pigeon', command: 'x' }, {})).toEqual({ error: 'unknown "type" "carrier-pigeon": use "stdio", "http", "sse" or "ws"' });
    expect(parseServer({ type: 7, command: 'x' }, {})).toEqual({ error: 'unknown "type" 7: use "stdio", "http", "sse" or "ws"' });
  });

  it('an entry that is not an object is an error', () => {
    for (const raw of [null, 'node', ['node'], 3]) expect(parseServer(raw, {})).toEqual({ error: 'an entry must be an object' });
  });
});

describe('parseServer: required and typed fields', () => {
  it('a stdio server needs a non-empty string command', () => {
    for (const raw of [{}, { command: '' }, { command: '   ' }, { command: 5 }, { type: 'stdio', args: ['x'] }]) {
      expect(parseServer(raw, {})).toEqual({ error: '"command" is required (a string) for a stdio server' });
    }
  });

  it('an http or sse server needs a non-empty string url', () => {
    expect(parseServer({ type: 'http' }, {})).toEqual({ error: '"url" is required (a string) for a server of type "http"' });
    expect(parseServer({ type: 'sse', url: ' ' }, {})).toEqual({ error: '"url" is required (a string) for a server of type "sse"' });
    expect(parseServer({ type: 'http', url: 42 }, {})).toEqual({ error: '"url" is required (a string) for a server of type "http"' });
  });

  it('the url must be http(s)', () => {
    expect(parseServer({ type: 'http', url: 'ftp://example.com/x' }, {})).toEqual({ error: '"url" must be an http(s) URL, got "ftp://example.com/x"' });
    expect(parseServer({ type: 'sse', url: 'example.com' }, {})).toEqual({ error: '"url" must be an http(s) URL, got "example.com"' });
  });

  it('args must be an array of strings', () => {
    const err = { error: '"args" must be an array of strings' };
    expect(parseServer({ command: 'x', args: '--flag' }, {})).toEqual(err);
    expect(parseServer({ command: 'x', args: ['ok', { no: 1 }] }, {})).toEqual(err);
    expect(parseServer({ command: 'x', args: [null] }, {})).toEqual(err);
  });

  it('env must be an object of strings', () => {
    expect(parseServer({ command: 'x', env: ['A=1'] }, {})).toEqual({ error: '"env" must be an object of strings' });
    expect(parseServer({ command: 'x', env: 'A=1' }, {})).toEqual({ error: '"env" must be an object of strings' });
    expect(parseServer({ command: 'x', env: { A: { nested: true } } }, {})).toEqual({ error: '"env.A" must be a string' });
    expect(parseServer({ command: 'x', env: { A: null } }, {})).toEqual({ error: '"env.A" must be a string' });
  });

  it('headers must be an object of strings', () => {
    expect(parseServer({ type: 'http', url: 'https://e.com', headers: ['X: 1'] }, {})).toEqual({ error: '"headers" must be an object of strings' });
    expect(parseServer({ type: 'sse', url: 'https://e.com', headers: { 'X-Key': [1] } }, {})).toEqual({ error: '"headers.X-Key" must be a string' });
  });
});

describe('parseServer: variable expansion', () => {
  const env = { HOME_DIR: '/home/me', TOKEN: 'secret', PORT: '9000', EMPTY: '' };

  it('expands ${VAR} in command, args and env', () => {
    expect(parseServer({ command: '${HOME_DIR}/bin/srv', args: ['--token=${TOKEN}', '${PORT}'], env: { KEY: '${TOKEN}', PLAIN: 'p' } }, env)).toEqual({
      config: { type: 'stdio', command: '/home/me/bin/srv', args: ['--token=secret', '9000'], env: { KEY: 'secret', PLAIN: 'p' } },
    });
  });

  it('expands ${VAR} in url and headers', () => {
    expect(parseServer({ type: 'http', url: 'http://localhost:${PORT}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } }, env)).toEqual({
      config: { type: 'http', url: 'http://localhost:9000/mcp', headers: { Authorization: 'Bearer secret' } },
    });
  });

  it('${VAR:-default} takes the default when the variable is unset or empty', () => {
    expect(parseServer({ command: '${NOPE:-npx}', args: ['${EMPTY:-fallback}', '${PORT:-1}'], env: { X: '${NOPE:-}' } }, env)).toEqual({
      config: { type: 'stdio', command: 'npx', args: ['fallback', '9000'], env: { X: '' } },
    });
    expect(parseServer({ type: 'sse', url: '${BASE:-https://example.com}/sse', headers: { K: '${KEY:-none}' } }, env)).toEqual({
      config: { type: 'sse', url: 'https://example.com/sse', headers: { K: 'none' } },
    });
  });

  it('a variable that is not set and has no default is an error naming it', () => {
    expect(parseServer({ command: 'srv', args: ['${MISSING_ONE}'] }, env)).toEqual({ error: 'environment variable not set: MISSING_ONE' });
    expect(parseServer({ command: 'srv', env: { A: '${MISSING_ONE}' } }, env)).toEqual({ error: 'environment variable not set: MISSING_ONE' });
    expect(parseServer({ type: 'http', url: 'https://${MISSING_HOST}/mcp' }, env)).toEqual({ error: 'environment variable not set: MISSING_HOST' });
    expect(parseServer({ type: 'http', url: '${MCP_URL}' }, env)).toEqual({ error: 'environment variable not set: MCP_URL' });
    expect(parseServer({ type: 'sse', url: '${BASE}/mcp' }, env)).toEqual({ error: 'environment variable not set: BASE' });
    expect(parseServer({ type: 'http', url: 'https://e.com', headers: { A: '${NO_TOKEN}' } }, env)).toEqual({
      error: 'environment variable not set: NO_TOKEN',
    });
  });

  it('several missing variables are all named, once each', () => {
    expect(parseServer({ command: '${A1}', args: ['${B2}', '${A1}'] }, {})).toEqual({ error: 'environment variables not set: A1, B2' });
  });
});

describe('expandVars', () => {
  it('replaces set variables, leaves other text alone and records missing ones', () => {
    const missing = new Set<string>();
    expect(expandVars('a ${X} b ${Y:-dflt} c $X ${Z}', { X: '1' }, missing)).toBe('a 1 b dflt c $X ');
    expect([...missing]).toEqual(['Z']);
  });

  it('an empty variable without a default expands to nothing and is not missing', () => {
    const missing = new Set<string>();
    expect(expandVars('[${E}]', { E: '' }, missing)).toBe('[]');
    expect(missing.size).toBe(0);
  });

  it('a default may hold characters other than a closing brace', () => {
    const missing = new Set<string>();
    expect(expandVars('${U:-http://h:1/p?q=1}', {}, missing)).toBe('http://h:1/p?q=1');
    expect(missing.size).toBe(0);
  });

  it('text that only looks like a variable is kept', () => {
    const missing = new Set<string>();
    expect(expandVars('${1BAD} ${} $NAME', {}, missing)).toBe('${1BAD} ${} $NAME');
    expect(missing.size).toBe(0);
  });
});

describe('projectServerApproved', () => {
  it('approves every server with enableAllProjectMcpServers: true', () => {
    expect(projectServerApproved('any', { enableAllProjectMcpServers: true })).toBe(true);
    expect(projectServerApproved('any', { enableAllProjectMcpServers: 'true' })).toBe(false);
  });

  it('approves the servers named in enabledMcpjsonServers only', () => {
    const settings = { enabledMcpjsonServers: ['a', 3, 'b'] };
    expect(projectServerApproved('a', settings)).toBe(true);
    expect(projectServerApproved('b', settings)).toBe(true);
    expect(projectServerApproved('c', settings)).toBe(false);
    expect(projectServerApproved('a', { enabledMcpjsonServers: 'a' })).toBe(false);
    expect(projectServerApproved('a', {})).toBe(false);
  });

  it('keeps a headersHelper command for http and sse servers, and refuses one that is not a string', () => {
    expect(parseServer({ type: 'sse', url: 'https://e.com/sse', headersHelper: 'get-token' }, {})).toEqual({
      config: { type: 'sse', url: 'https://e.com/sse', headers: {}, headersHelper: 'get-token' },
    });
    expect(parseServer({ type: 'http', url: 'https://e.com/mcp', headersHelper: 3 }, {})).toEqual({ error: '"headersHelper" must be a command (a string)' });
  });
});
