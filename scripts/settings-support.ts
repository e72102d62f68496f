// Writes docs/settings-support.md from wicket's own table (src/settings/support*.ts):
// `npx tsx scripts/settings-support.ts`. test/unit/settings/support.test.ts fails when they differ.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { supportTable } from '../src/settings/support.js';

const file = fileURLToPath(new URL('../docs/settings-support.md', import.meta.url));
writeFileSync(file, supportTable());
console.log(`wrote ${file}`);
