// Runs before every test file (plain JS: it may touch process.env, which the
// TypeScript tests may not, since n8n's lint rules apply to every .ts file).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

// n8n-core writes its config into N8N_USER_FOLDER on first use: keep it out of ~/.n8n.
if (!process.env.N8N_USER_FOLDER || !process.env.N8N_USER_FOLDER.includes('recruiting-test-')) {
	process.env.N8N_USER_FOLDER = fs.mkdtempSync(path.join(os.tmpdir(), 'recruiting-test-'));
}
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
