/**
 * The ways a settings file can be broken, for the settings batteries: each holds (where its shape
 * allows) the deny rule `Bash(rm:*)`, and says where wicket must place the problem
 * (`line:column`) and how its message starts. The accepted forms (BOM, comments, trailing commas)
 * hold the same rule and must apply it.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const DENY = '"permissions": { "deny": ["Bash(rm:*)"] }';

export interface BrokenKind {
  name: string;
  /** The file's bytes; or `make` creates whatever stands where the file should be. */
  content?: string | Buffer;
  make?: (file: string) => void;
  /** `line:column` of the problem. */
  at: string;
  /** What the message after `file:line:column: ` says (it contains this). */
  says: string;
  /** Can be given as `--settings '<JSON text>'` (text that starts with "{"). */
  asText?: boolean;
}

const obj = (body: string) => `{ ${DENY}, ${body} }`;

/** Kinds whose text is JSON(C) that cannot be read, or whose values are of the wrong shape. */
export const CONTENT_KINDS: BrokenKind[] = [
  { name: 'a missing comma', content: `{\n  ${DENY}\n  "model": "x"\n}\n`, at: '3:3', says: 'expected "," before "model" (a comma is missing)', asText: true },
  { name: 'an unterminated string', content: '{ "permissions": { "deny": ["Bash(rm:*)] } }', at: '1:29', says: 'unterminated string', asText: true },
  {
    name: 'single quotes',
    content: `{ 'permissions': { 'deny': ['Bash(rm:*)'] } }`,
    at: '1:3',
    says: 'strings and property names must use double quotes',
    asText: true,
  },
  { name: 'an unterminated comment', content: `{ ${DENY} } /* note`, at: '1:47', says: 'a /* comment is never closed with */', asText: true },
  { name: 'text after the object', content: `{ ${DENY} } }`, at: '1:47', says: 'unexpected "}" after the end of the JSON value', asText: true },
  { name: 'a value missing', content: '{ "permissions": { "deny": } }', at: '1:28', says: 'expected a value, found "}"', asText: true },
  {
    name: 'a key written twice (the deny rules would be lost to the second)',
    content: `{ ${DENY}, "permissions": { "allow": [] } }`,
    at: '1:46',
    says: 'the key "permissions" is written twice in the same object',
    asText: true,
  },
  {
    name: 'deny as a string',
    content: '{ "permissions": { "deny": "Bash(rm:*)" } }',
    at: '1:28',
    says: 'permissions.deny must be a list of rule strings, found a string ("Bash(rm:*)")',
    asText: true,
  },
  {
    name: 'deny as an object',
    content: '{ "permissions": { "deny": { "Bash(rm:*)": true } } }',
    at: '1:28',
    says: 'permissions.deny must be a list of rule strings, found an object',
    asText: true,
  },
  {
    name: 'deny with an entry that is not a string',
    content: '{ "permissions": { "deny": ["Bash(rm:*)", 42] } }',
    at: '1:43',
    says: 'permissions.deny[1] is a number, not a rule string',
    asText: true,
  },
  {
    name: 'deny with an entry that is not a rule',
    content: '{ "permissions": { "deny": ["Bash(rm:*)", "Bash(rm -r /)*"] } }',
    at: '1:43',
    says: 'permissions.deny[1] "Bash(rm -r /)*" cannot be read as a rule',
    asText: true,
  },
  {
    name: 'ask as a string',
    content: '{ "permissions": { "deny": ["Bash(rm:*)"], "ask": "Bash(git push:*)" } }',
    at: '1:51',
    says: 'permissions.ask must be a list of rule strings, found a string',
    asText: true,
  },
  {
    name: 'ask with an entry that is not a string',
    content: '{ "permissions": { "deny": ["Bash(rm:*)"], "ask": [null] } }',
    at: '1:52',
    says: 'permissions.ask[0] is null, not a rule string',
    asText: true,
  },
  {
    name: 'permissions as a list',
    content: '{ "permissions": [{ "deny": ["Bash(rm:*)"] }] }',
    at: '1:18',
    says: 'permissions must be an object, found a list',
    asText: true,
  },
  {
    name: 'permissions as a string',
    content: '{ "permissions": "deny Bash(rm:*)" }',
    at: '1:18',
    says: 'permissions must be an object, found a string',
    asText: true,
  },
  {
    name: 'permissions as a number',
    content: '{ "permissions": 1, "deny": ["Bash(rm:*)"] }',
    at: '1:18',
    says: 'permissions must be an object, found a number',
    asText: true,
  },
  { name: 'permissions as null', content: '{ "permissions": null }', at: '1:18', says: 'permissions must be an object, found null', asText: true },
  {
    name: 'defaultMode that is not a mode',
    content: '{ "permissions": { "deny": ["Bash(rm:*)"], "defaultMode": "yolo" } }',
    at: '1:59',
    says: 'permissions.defaultMode must be one of',
    asText: true,
  },
  {
    name: 'defaultMode as a number',
    content: '{ "permissions": { "deny": ["Bash(rm:*)"], "defaultMode": 1 } }',
    at: '1:59',
    says: 'permissions.defaultMode must be one of',
    asText: true,
  },
  {
    name: 'disableBypassPermissionsMode as true',
    content: '{ "permissions": { "deny": ["Bash(rm:*)"], "disableBypassPermissionsMode": true } }',
    at: '1:76',
    says: 'permissions.disableBypassPermissionsMode must be "disable"',
    asText: true,
  },
  { name: 'hooks as a list', content: obj('"hooks": []'), at: '1:55', says: 'hooks must be an object, found a list', asText: true },
  {
    name: 'PreToolUse as an object',
    content: obj('"hooks": { "PreToolUse": {} }'),
    at: '1:71',
    says: 'hooks.PreToolUse must be an array of matcher groups, found an object',
    asText: true,
  },
  {
    name: 'a PreToolUse group without "hooks"',
    content: obj('"hooks": { "PreToolUse": [{ "matcher": "Bash", "command": "./guard.sh" }] }'),
    at: '1:72',
    says: 'hooks.PreToolUse[0]: matcher group has no "hooks" array',
    asText: true,
  },
  {
    name: 'a PreToolUse matcher that is not a regular expression',
    content: obj('"hooks": { "PreToolUse": [{ "matcher": "Bash(", "hooks": [{ "type": "command", "command": "./guard.sh" }] }] }'),
    at: '1:85',
    says: 'hooks.PreToolUse[0].matcher "Bash(" is not a valid regular expression',
    asText: true,
  },
  {
    name: 'a PreToolUse handler without a command',
    content: obj('"hooks": { "PreToolUse": [{ "hooks": [{ "type": "command" }] }] }'),
    at: '1:84',
    says: 'hooks.PreToolUse[0].hooks[0]: "command" must be a non-empty string',
    asText: true,
  },
  {
    name: 'a PermissionRequest handler of a type that does not exist',
    content: obj('"hooks": { "PermissionRequest": [{ "hooks": [{ "type": "bash", "command": "./x.sh" }] }] }'),
    at: '1:101',
    says: 'hooks.PermissionRequest[0].hooks[0]: hooks of type "bash" are not supported',
    asText: true,
  },
  { name: 'sandbox as a string', content: obj('"sandbox": "on"'), at: '1:57', says: 'sandbox must be an object, found a string', asText: true },
  {
    name: 'sandbox.enabled as the string "true"',
    content: obj('"sandbox": { "enabled": "true" }'),
    at: '1:70',
    says: 'sandbox.enabled must be true or false, found a string ("true")',
    asText: true,
  },
  {
    name: 'sandbox.filesystem.denyRead as a string',
    content: obj('"sandbox": { "filesystem": { "denyRead": "~/.ssh" } }'),
    at: '1:87',
    says: 'sandbox.filesystem.denyRead must be a list of strings, found a string',
    asText: true,
  },
  {
    name: 'allowManagedPermissionRulesOnly as the string "true"',
    content: obj('"allowManagedPermissionRulesOnly": "true"'),
    at: '1:81',
    says: 'allowManagedPermissionRulesOnly must be true or false',
    asText: true,
  },
  {
    name: 'deniedMcpServers as an object',
    content: obj('"deniedMcpServers": { "serverName": "x" }'),
    at: '1:66',
    says: 'deniedMcpServers must be a list, found an object',
    asText: true,
  },
  { name: 'null at the top level', content: 'null\n', at: '1:1', says: 'the top level must be a JSON object ({ … }), found null' },
  { name: 'a number at the top level', content: '42\n', at: '1:1', says: 'the top level must be a JSON object ({ … }), found a number' },
  { name: 'a list at the top level', content: `[{ ${DENY} }]\n`, at: '1:1', says: 'the top level must be a JSON object ({ … }), found an array' },
  { name: 'a string at the top level', content: '"Bash(rm:*)"\n', at: '1:1', says: 'the top level must be a JSON object ({ … }), found a string' },
  { name: 'a UTF-8 byte order mark and a syntax error', content: `\uFEFF{ ${DENY},, }`, at: '1:45', says: 'expected a double-quoted property name, found ","' },
  {
    name: 'UTF-16 with a byte order mark',
    content: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`{ ${DENY} }`, 'utf16le')]),
    at: '1:1',
    says: 'the file is saved as UTF-16; settings files are read as UTF-8',
  },
  {
    name: 'bytes that are not UTF-8',
    content: Buffer.concat([Buffer.from(`{ ${DENY},\n  "model": "`), Buffer.from([0xc3, 0x28]), Buffer.from('" }')]),
    at: '2:13',
    says: 'bytes that are not valid UTF-8',
  },
  {
    name: 'over the 2 MiB size limit',
    content: `{ ${DENY}, "pad": "${'x'.repeat(2 * 1024 * 1024)}" }`,
    at: '1:1',
    says: 'bytes is over the 2097152-byte limit for a settings file',
  },
];

/** What stands where the file should be, and cannot be read as a file. */
export const FILE_KINDS: BrokenKind[] = [
  { name: 'a folder', make: (f) => mkdirSync(f, { recursive: true }), at: '1:1', says: 'is a folder, not a settings file' },
  { name: 'a symbolic link to nothing', make: (f) => symlinkSync(path.join(path.dirname(f), 'gone.json'), f), at: '1:1', says: 'is a symbolic link to ' },
  { name: 'a symbolic link loop', make: (f) => (symlinkSync(`${f}.b`, f), symlinkSync(f, `${f}.b`)), at: '1:1', says: 'cannot be read (ELOOP)' },
];

/** A named pipe never opened for writing would block a reader for good: refused unread (not for --settings, which reads `<(…)`). */
export const FIFO_KIND: BrokenKind = { name: 'a named pipe', make: (f) => execFileSync('mkfifo', [f]), at: '1:1', says: 'is not a regular file' };

/** Refused by the kernel; root reads it anyway, so this kind runs only as another user. */
export const UNREADABLE_KIND: BrokenKind = {
  name: 'a file that may not be read',
  make: (f) => (writeFileSync(f, `{ ${DENY} }`), chmodSync(f, 0o000)),
  at: '1:1',
  says: 'cannot be read (EACCES)',
};

/** Forms that are read, and whose deny rule holds. */
export const ACCEPTED_FORMS: Array<{ name: string; content: string }> = [
  { name: 'a UTF-8 byte order mark', content: `\uFEFF{ ${DENY} }\n` },
  { name: 'comments', content: `// team settings\n{\n  /* never delete */ ${DENY} // rm is out\n}\n` },
  { name: 'trailing commas', content: '{\n  "permissions": {\n    "deny": ["Bash(rm:*)",],\n  },\n}\n' },
  {
    name: 'a byte order mark, comments and trailing commas together',
    content: '\uFEFF// settings\n{ "permissions": { "deny": [\n  "Bash(rm:*)", // no rm\n], }, }\n',
  },
];
