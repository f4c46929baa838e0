// The node's TypeScript sources as text, for tests that read the code itself (the import graph).
// Plain JS: it reads files, which the TypeScript tests may not (n8n's lint rules apply to every
// .ts file).
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');

/** Every file ending in `extension` (default .ts) below `folder` (relative to the repository), keyed by its path relative to the repository, with `/`. */
function sourcesBelow(folder, extension = '.ts') {
	const found = {};
	const walk = (directory) => {
		for (const entry of fs.readdirSync(path.join(ROOT, directory), { withFileTypes: true })) {
			const relative = path.posix.join(directory, entry.name);
			if (entry.isDirectory()) walk(relative);
			else if (entry.name.endsWith(extension)) found[relative] = fs.readFileSync(path.join(ROOT, relative), 'utf8');
		}
	};
	walk(folder);
	return found;
}

module.exports = { sourcesBelow };
