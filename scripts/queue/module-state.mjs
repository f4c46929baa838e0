// Looks for module-level state in the node and the credential: anything that one n8n process
// would remember between executions and another process (a queue-mode worker) would not.
// Reads the TypeScript source of nodes/ and credentials/ with the compiler API and reports, at
// the top level of every module and as static class fields:
//   - `let` / `var` declarations (reassignable),
//   - `const` bound to a container created at load time (new Map/Set/WeakMap/WeakSet/Array/
//     Object, an array or object literal) that code anywhere in nodes/ or credentials/ changes
//     (calls set/add/delete/clear/push/pop/shift/unshift/splice/sort/reverse/fill on it, or
//     assigns to one of its elements or properties),
//   - non-readonly static class properties.
// WeakMaps/WeakSets keyed by n8n's per-call context or by a node description are listed as
// allowed, with the reason (see weakScope).
// Constant tables that nothing changes, functions and classes are not state. Mutation sites are
// resolved to their declaration with the type checker (through imports), so a local variable of
// the same name does not count.

import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { repoRoot } from '../n8n/install.mjs';

const require = createRequire(path.join(repoRoot, 'package.json'));

function sourceFiles(dir) {
	if (!fs.existsSync(dir)) return [];
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) return sourceFiles(p);
		return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
	});
}

/**
 * The named exceptions. The sync's memory per process (nodes/Recruiting/memory/registry.ts,
 * `memories`). Overlapping executions of the same node in one n8n process must share one memory
 * to take turns per row (none creates a row another is creating, none refuses a row another
 * remembered) and so that whichever execution n8n saves last saves every execution's rows. It is
 * a cache on top of what n8n saves (static data, deduplication store): a worker without it
 * behaves as after a restart, which the sync is built for. Keyed by workflow id + node id +
 * account scope (one workflow's memory never reaches another's: test/service/syncMemory.test.ts;
 * this check: test/release/moduleState.test.mjs).
 *
 * The pace per service (nodes/Recruiting/transport/pace.ts, `paces`): what the last node run of
 * Concurrency Mode Auto learned of a service (requests in flight, idle latency, a learned send
 * rate), so that the next run against it starts there instead of at 5 and does not hit a rate
 * limit from cold again. A worker without it starts at 5 and learns, as every run did before.
 * No secret and nothing of any row; keyed by a hash of service address, login and credential;
 * 64 services at most, each forgotten 10 minutes after it was left (test/unit/pace.test.ts).
 *
 * The logins under way per n8n credential (nodes/Recruiting/transport/session.ts, `loginsUnderWay`):
 * while one execution logs in, another execution of the same process whose session ended with the same
 * credential waits for that login and takes up the session it stored in the credential, instead of
 * logging in too (one login, not one per execution: test/service/autoLoginBreak.test.ts,
 * loginShareBreak.test.ts). An entry is a promise, no token and no secret, keyed by the n8n credential id
 * and a hash of its values; it lives only while its login runs (deleted when the login ends, however it
 * ends). A worker without it logs in for its own executions, as every process did before.
 */
export const NAMED_EXCEPTIONS = [
	{
		file: 'nodes/Recruiting/memory/registry.ts',
		name: 'memories',
		why: 'the sync memory shared by the executions of one process (named exception: turns per row, one save of every execution\'s rows; keyed by workflow, node and account)',
	},
	{
		file: 'nodes/Recruiting/transport/pace.ts',
		name: 'paces',
		why: 'the pace each service showed, for the next node run against it to start from (named exception: requests in flight, idle latency, a learned send rate; no secret, no row; keyed by service, login and credential; bounded, forgotten after 10 minutes)',
	},
	{
		file: 'nodes/Recruiting/transport/session.ts',
		name: 'loginsUnderWay',
		why: 'the logins under way per n8n credential, so that executions of one process whose session ended log in once (named exception: a promise per login, no token, no secret; keyed by credential id and a hash of its values; deleted when the login ends)',
	},
];

const MUTABLE_CONSTRUCTORS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'Array', 'Object']);
const MUTATORS = new Set(['set', 'add', 'delete', 'clear', 'push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin']);

/** Declarations whose value is changed somewhere: X.set(...), X.push(...), X[k] = v, X.p = v, delete X[k]. */
function mutatedDeclarations(ts, checker, sourceFiles) {
	const names = new Set();
	const symbolOf = (id) => {
		let sym = checker.getSymbolAtLocation(id);
		if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
		return sym?.valueDeclaration ?? sym?.declarations?.[0] ?? null;
	};
	const base = (expr) => {
		while (ts.isPropertyAccessExpression(expr) || ts.isElementAccessExpression(expr)) {
			if (ts.isIdentifier(expr.expression)) return symbolOf(expr.expression);
			expr = expr.expression;
		}
		return null;
	};
	const visit = (node) => {
		if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && MUTATORS.has(node.expression.name.text)) {
			const target = node.expression.expression;
			if (ts.isIdentifier(target)) {
				const d = symbolOf(target);
				if (d) names.add(d);
			} else {
				const b = base(target);
				if (b) names.add(b);
			}
		}
		if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
			const b = base(node.left);
			if (b) names.add(b);
		}
		if (ts.isDeleteExpression(node)) {
			const b = base(node.expression);
			if (b) names.add(b);
		}
		ts.forEachChild(node, visit);
	};
	for (const sf of sourceFiles) visit(sf);
	return names;
}

/**
 * @returns {{ files: number, findings: Finding[], allowed: Finding[] }} `allowed`: weak caches
 *   whose key ties them to one node run or to a load-time constant (listed, not failed).
 * @typedef {{ file: string, line: number, text: string, why: string }} Finding
 */
export function findModuleState({ dirs = [path.join(repoRoot, 'nodes'), path.join(repoRoot, 'credentials')] } = {}) {
	const ts = require('typescript');
	const files = dirs.flatMap((d) => sourceFiles(d));
	const findings = [];
	const allowed = [];
	const program = ts.createProgram(files, { noEmit: true, allowJs: false, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, skipLibCheck: true });
	const checker = program.getTypeChecker();
	const parsed = files.map((file) => program.getSourceFile(file));
	const mutated = mutatedDeclarations(ts, checker, parsed);
	for (const sf of parsed) {
		const file = sf.fileName;
		const report = (node, why) => {
			const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
			findings.push({ file: path.relative(repoRoot, file), line: line + 1, text: node.getText(sf).split('\n')[0].slice(0, 120), why });
		};
		const note = (node, why) => {
			const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
			allowed.push({ file: path.relative(repoRoot, file), line: line + 1, text: node.getText(sf).split('\n')[0].slice(0, 120), why });
		};
		// A WeakMap/WeakSet holds entries only as long as its key objects live. Keyed by n8n's
		// per-call context (IExecuteFunctions, ILoadOptionsFunctions, ...), nothing outlives the
		// node run; keyed by a node description (INodeProperties[], built at load time and the same
		// in every process), it is a memo of that constant: neither differs between workers.
		const weakScope = (init) => {
			while (ts.isAsExpression(init) || ts.isParenthesizedExpression(init)) init = init.expression;
			if (!ts.isNewExpression(init) || !ts.isIdentifier(init.expression) || !/^Weak(Map|Set)$/.test(init.expression.text)) return null;
			const key = init.typeArguments?.[0]?.getText(sf).replace(/\s+/g, '') ?? '';
			if (/^I\w*Functions$/.test(key)) return `keyed by ${key}, scoped to one node run`;
			if (key === 'INodeProperties[]') return 'keyed by a node description, a memo of a load-time constant';
			return null;
		};
		const mutableInit = (init) => {
			if (!init) return null;
			while (ts.isAsExpression(init) || ts.isSatisfiesExpression?.(init) || ts.isParenthesizedExpression(init)) init = init.expression;
			if (ts.isNewExpression(init) && ts.isIdentifier(init.expression) && MUTABLE_CONSTRUCTORS.has(init.expression.text)) return `new ${init.expression.text}()`;
			if (ts.isArrayLiteralExpression(init)) return 'an array literal';
			if (ts.isObjectLiteralExpression(init)) return 'an object literal';
			return null;
		};
		for (const stmt of sf.statements) {
			if (ts.isVariableStatement(stmt)) {
				const flags = stmt.declarationList.flags;
				const isConst = (flags & ts.NodeFlags.Const) !== 0;
				for (const decl of stmt.declarationList.declarations) {
					if (!isConst) report(decl, 'module-level let/var');
					else {
						const what = mutableInit(decl.initializer);
						if (what && mutated.has(decl)) {
							const scoped = weakScope(decl.initializer);
							const named = NAMED_EXCEPTIONS.find((e) => e.file === path.relative(repoRoot, file).split(path.sep).join('/') && ts.isIdentifier(decl.name) && decl.name.text === e.name);
							if (scoped) note(decl, `module-level ${what}, changed at run time: ${scoped}`);
							else if (named) note(decl, `module-level ${what}, changed at run time: ${named.why}`);
							else report(decl, `module-level ${what}, changed at run time`);
						}
					}
				}
			}
			if (ts.isClassDeclaration(stmt)) {
				for (const member of stmt.members) {
					const mods = ts.getModifiers?.(member) ?? member.modifiers ?? [];
					const isStatic = mods.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
					const isReadonly = mods.some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword);
					if (isStatic && ts.isPropertyDeclaration(member) && !isReadonly) report(member, 'static, non-readonly class property');
				}
			}
		}
	}
	return { files: files.length, findings, allowed };
}
