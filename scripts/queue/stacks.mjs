// n8n set-ups for the queue-mode run, built from the project's own helpers:
//   - startQueueStack: PostgreSQL + Redis (./services.mjs), n8n main with EXECUTIONS_MODE=queue and
//     `workers` × `n8n worker`, all sharing one encryption key, the package loaded in each;
//   - startRegularStack: one regular n8n (SQLite, executions in the main process), for comparison.
// Both log in the owner, create the "Recruiting account" credential and install the load workflow.

import { randomBytes } from 'node:crypto';

import { CREDENTIAL_NAME, credentialData } from '../n8n/stack.mjs';
import { CREDENTIAL_TYPE, DEFAULT_OWNER, startN8n } from '../n8n/server.mjs';
import { installWorkflow } from './load.mjs';
import { startPostgres, startRedis } from './services.mjs';

/**
 * Stop functions, run in reverse order; errors are logged, not thrown. Each one is also put into
 * the caller's `registry` (the script's list of everything running) the moment its process has
 * started, so that Ctrl-C during start-up stops it too.
 */
function stopper(log, registry = []) {
	const list = [];
	const stops = {
		push(...fns) {
			list.push(...fns);
			registry.push(...fns);
		},
	};
	const stop = async () => {
		while (list.length) {
			const fn = list.pop();
			const i = registry.indexOf(fn);
			if (i >= 0) registry.splice(i, 1);
			try {
				await fn();
			} catch (err) {
				log(`[stop] ${err.message}`);
			}
		}
	};
	return { stops, stop };
}

async function prepare(n8n, baseUrl) {
	const rest = n8n.rest;
	await rest.ensureOwner(DEFAULT_OWNER);
	const credential = await rest.createCredential(CREDENTIAL_TYPE, CREDENTIAL_NAME, credentialData(baseUrl));
	const workflow = await installWorkflow(rest);
	return { rest, credential, workflow };
}

/** The environment main and workers share in queue mode (see docs/queue-mode.md). */
export function queueEnv({ pg, redis, encryptionKey }) {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: pg.host,
		DB_POSTGRESDB_PORT: String(pg.port),
		DB_POSTGRESDB_DATABASE: pg.database,
		DB_POSTGRESDB_USER: pg.user,
		DB_POSTGRESDB_PASSWORD: pg.password,
		N8N_ENCRYPTION_KEY: encryptionKey,
		// the editor's manual runs go to the workers too (the load itself comes by webhook)
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
	};
}

/**
 * `registry`: an array the stop function of every started process is added to (and removed from
 * again by `stop()`).
 * @returns {Promise<{ kind: 'queue', main, workers, pg, redis, rest, credential, workflow, stop }>}
 */
export async function startQueueStack({ packageDir, sandboxUrl, workers = 2, concurrency = 4, log, registry }) {
	const { stops, stop } = stopper(log, registry);
	try {
		const [pg, redis] = await Promise.all([startPostgres({ log }), startRedis({ log })]);
		stops.push(pg.stop, redis.stop);
		const env = queueEnv({ pg, redis, encryptionKey: randomBytes(24).toString('hex') });
		// main first: it creates the schema (migrations) that the workers wait for
		const main = await startN8n({ packageDir, log, env, name: 'n8n-queue-main' });
		stops.push(main.stop);
		const started = await Promise.allSettled(
			Array.from({ length: workers }, (_, i) =>
				startN8n({ packageDir, log, env, name: `n8n-queue-worker${i + 1}`, command: 'worker', args: [`--concurrency=${concurrency}`] }).then((w) => {
					stops.push(w.stop);
					return { ...w, name: `worker${i + 1}` };
				}),
			),
		);
		const failed = started.find((s) => s.status === 'rejected');
		if (failed) throw failed.reason;
		const ws = started.map((s) => s.value);
		const prepared = await prepare(main, sandboxUrl);
		return { kind: 'queue', main, workers: ws, pg, redis, ...prepared, stop };
	} catch (err) {
		await stop();
		throw err;
	}
}

/** One regular n8n (SQLite; executions run in the main process). */
export async function startRegularStack({ packageDir, sandboxUrl, log, registry }) {
	const { stops, stop } = stopper(log, registry);
	try {
		const main = await startN8n({ packageDir, log, name: 'n8n-regular' });
		stops.push(main.stop);
		const prepared = await prepare(main, sandboxUrl);
		return { kind: 'regular', main, workers: [], ...prepared, stop };
	} catch (err) {
		await stop();
		throw err;
	}
}

/** Points the credential at a (new) sandbox and sets its stored session token ('' = none). */
export async function setCredential(stack, baseUrl, sessionToken = '') {
	const { rest, credential } = stack;
	await rest.updateCredential(credential.id, {
		name: credential.name,
		type: credential.type,
		data: credentialData(baseUrl, 'emailPassword', { sessionToken }),
	});
}
