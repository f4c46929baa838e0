/**
 * A faithful local stand-in for the recruiting service (see `../shared/spec/service-interface.md`
 * beside the repository), built on fastify. Used by the node's service tests, the demo, the
 * benchmark and the fault-injection tests; `cli.mjs` runs it standalone, `index.mjs` is the
 * entry of the .mjs scripts.
 */
import { fastify } from 'fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { sleep, sleepWithAbort } from 'n8n-workflow';

import { RECORD_SPECS } from '../../nodes/Recruiting/actions/candidateRecord';

import { FaultInjector } from './faults';
import seed from './seed.json';
import type { FaultDecision } from './faults';
import {
	businessAreas,
	jobTypes,
	languageSkills,
	parseLang,
	universityDegrees,
} from './reference-data';
import { SandboxStore } from './store';
import type { AuthContext, RecordKind } from './store';
import type {
	FaultConfig,
	FaultName,
	LoggedRequest,
	Sandbox,
	SandboxCandidate,
	SandboxCompany,
	SandboxCounts,
	SandboxOptions,
	TokenLocation,
} from './types';
import {
	ADDITIONAL_INFO_PATH,
	IT_SKILL_PATH,
	JOB_PATH,
	LANGUAGE_PATH,
	SERVICE_RECORD_PATHS,
	UNIVERSITY_PATH,
	additionalInfoSchema,
	candidateCreateSchema,
	candidateUpdateSchema,
	compact,
	itSkillSchema,
	jobSchema,
	languageSchema,
	specRecordSchema,
	universitySchema,
	validate,
} from './validation';
import type { ValidationResult } from './validation';

export type {
	AfterWorkStatus,
	CandidateAdditionalInfo,
	CandidateItSkill,
	CandidateJob,
	CandidateLanguage,
	CandidateProfile,
	CandidateRecords,
	CandidateUniversity,
	FaultConfig,
	FaultName,
	LoggedRequest,
	LoginScriptEntry,
	LoginScriptStatus,
	RecordRouteSpec,
	Sandbox,
	SandboxCandidate,
	SandboxCompany,
	SandboxCounts,
	SandboxOptions,
	SandboxState,
	SandboxUser,
	StoredApiKey,
	StoredCompany,
	StoredSession,
	StoredUser,
	TokenLocation,
} from './types';

/**
 * The seeded companies and their logins: test/sandbox/seed.json, the one place they are written
 * (read also by index.mjs for the scripts and the end-to-end tests; `--seed-file` takes the same format).
 */
export const DEFAULT_COMPANIES: SandboxCompany[] = seed;

export const TOKEN_LOCATIONS: readonly TokenLocation[] = [
	'data.token',
	'data.user.token',
	'data.access_token',
	'top.token',
	'header.authorization',
	'header.x-auth-token',
	'none',
];

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
export const ADMIN_PREFIX = '/__sandbox';

/** Response bodies shared by several routes. */
const NOT_AUTHORIZED = { message: 'Not authorized', status: 401 };
const CANDIDATE_NOT_FOUND = { message: 'Candidate not found', status: 404 };
const INVALID_LOGIN = { error: 'Invalid login or password' };
const STATUS_MESSAGES: Record<number, string> = {
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};
const LOGIN_ROUTE = '/v1/login';

/** Every fault name, so that `counts.faults` lists them all from the start. */
const FAULT_NAMES: readonly FaultName[] = [
	'latency',
	'error500',
	'error503',
	'rateLimit',
	'rateLimitPerSecond',
	'capacityWait',
	'drop',
	'tokenExpiry',
	'unauthorized',
	'sessionLimit',
	'afterWorkError',
	'afterWorkDrop',
	'afterWorkNoData',
	'hang',
	'loginScript',
];

/** Which credentials a route accepts: a session token only, or a session token or an API key. */
type AuthMode = 'session' | 'sessionOrApiKey';
interface RouteConfig {
	auth?: AuthMode;
	admin?: boolean;
}

const routeConfig = (request: FastifyRequest): RouteConfig =>
	(request.routeOptions?.config ?? {}) as RouteConfig;

const flatten = (source: Record<string, unknown>): Record<string, string> => {
	const result: Record<string, string> = {};
	for (const [key, value] of Object.entries(source)) {
		if (value === undefined) continue;
		result[key] = Array.isArray(value) ? value.map(String).join(', ') : String(value);
	}
	return result;
};

const bearer = (header: string | undefined): string | undefined => {
	const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(header ?? '');
	return match?.[1];
};

const headerValue = (value: string | string[] | undefined): string | undefined =>
	Array.isArray(value) ? value[0] : value;

/** The lifetime a `POST /__sandbox/token-lifetime` body asks for; false when it is not one. */
function tokenLifetimeFrom(body: unknown): number | undefined | false {
	if (body === undefined || body === null) return undefined;
	if (typeof body !== 'object' || Array.isArray(body)) return false;
	const { ms, seconds } = body as { ms?: unknown; seconds?: unknown };
	const value = ms ?? (typeof seconds === 'number' ? seconds * 1000 : seconds);
	if (value === undefined || value === null) return undefined;
	return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : false;
}

const hostForUrl = (host: string): string => (host.includes(':') ? `[${host}]` : host);

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const host = options.host ?? '127.0.0.1';
	const companies = structuredClone(options.companies ?? DEFAULT_COMPANIES);
	const tokenLocation: TokenLocation = options.tokenLocation ?? 'data.token';
	if (!TOKEN_LOCATIONS.includes(tokenLocation)) {
		throw new Error(`Sandbox: unknown tokenLocation "${String(tokenLocation)}" (one of ${TOKEN_LOCATIONS.join(', ')})`);
	}
	const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;

	const requests: LoggedRequest[] = [];
	const counts: SandboxCounts = {
		logins: 0,
		loginAttempts: 0,
		logouts: 0,
		candidatesCreated: 0,
		recordsCreated: 0,
		faults: Object.fromEntries(FAULT_NAMES.map((name) => [name, 0])),
	};
	const faults = new FaultInjector(options.faults);

	const { onStateChange } = options;
	let notifying = false;
	const store: SandboxStore = new SandboxStore({
		tokenLifetimeMs: options.tokenLifetimeMs,
		singleSessionPerUser: options.singleSessionPerUser,
		onChange: onStateChange
			? () => {
					if (notifying) return;
					notifying = true;
					try {
						onStateChange(store.snapshot());
					} finally {
						notifying = false;
					}
				}
			: undefined,
	});
	if (options.initialState) store.restore(options.initialState);
	else await store.seed(companies);

	const logEntries = new WeakMap<FastifyRequest, LoggedRequest>();
	const authContexts = new WeakMap<FastifyRequest, AuthContext>();
	const decisions = new WeakMap<FastifyRequest, FaultDecision>();
	/** Aborts of the requests being held (hang faults); all fire on close. */
	const holds = new Set<AbortController>();

	const countFault = (request: FastifyRequest, name: FaultName): void => {
		counts.faults[name] = (counts.faults[name] ?? 0) + 1;
		const entry = logEntries.get(request);
		if (entry) entry.fault = entry.fault ? `${entry.fault}+${name}` : name;
	};

	const auth = (request: FastifyRequest): AuthContext => {
		const context = authContexts.get(request);
		if (!context) throw new Error('Sandbox: route without authentication context');
		return context;
	};

	const app = fastify({
		logger: false,
		bodyLimit,
		forceCloseConnections: true,
		routerOptions: { ignoreTrailingSlash: true },
	});

	// JSON bodies: fastify's own (prototype-poisoning safe) parser; an empty body counts as none,
	// because clients send `Content-Type: application/json` on body-less calls such as logout.
	// Any other body type (text/plain included) is answered 415.
	const jsonParser = app.getDefaultJsonParser('error', 'error');
	app.removeContentTypeParser(['application/json', 'text/plain']);
	app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, payload, done) => {
		const text = typeof payload === 'string' ? payload : payload.toString('utf8');
		if (text.trim() === '') {
			done(null, undefined);
			return;
		}
		jsonParser(request, text, done);
	});

	app.setErrorHandler((error: FastifyError, _request, reply) => {
		if (error.statusCode === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
			return reply.code(413).send({ message: 'Request body too large', status: 413 });
		}
		if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
			return reply.code(400).send({ message: 'Malformed JSON', status: 400 });
		}
		if (error.statusCode === 415) {
			return reply
				.code(415)
				.send({ message: 'Unsupported Media Type: send Content-Type: application/json', status: 415 });
		}
		if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
			return reply.code(error.statusCode).send({ message: error.message, status: error.statusCode });
		}
		return reply.code(500).send({ message: 'Internal Server Error', status: 500 });
	});

	app.setNotFoundHandler((_request, reply) => reply.code(404).send({ message: 'Not found', status: 404 }));

	/** Requests to hold until released (`Sandbox.holdNext`), each for the next request that matches. */
	const gates: { method: string; path: string; opened: Promise<void>; open: () => void }[] = [];

	/** Called with each request's log entry as its answer is about to go (`Sandbox.onAnswer`). */
	const answerListeners = new Set<(entry: LoggedRequest) => void>();

	const logRequest = (request: FastifyRequest): LoggedRequest => {
		const entry: LoggedRequest = {
			method: request.method,
			path: request.url.split('?')[0],
			query: flatten(request.query as Record<string, unknown>),
			headers: flatten(request.headers),
			body: undefined,
			status: 0,
			at: Date.now(),
			auth: 'none',
		};
		requests.push(entry);
		logEntries.set(request, entry);
		return entry;
	};

	/** Holds a request `ms` long; false when the client left or the sandbox closes meanwhile. */
	const hold = async (reply: FastifyReply, ms: number): Promise<boolean> => {
		const abort = new AbortController();
		const onClose = () => abort.abort();
		holds.add(abort);
		reply.raw.once('close', onClose);
		try {
			await sleepWithAbort(ms, abort.signal);
			return true;
		} catch {
			return false;
		} finally {
			holds.delete(abort);
			reply.raw.off('close', onClose);
		}
	};

	/** Ends the request without an answer: the socket is destroyed. */
	const abandon = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
		reply.hijack();
		request.raw.socket.destroy();
		return reply;
	};

	const sendStatus = (reply: FastifyReply, status: number, retryAfter: string | undefined, isLogin: boolean) => {
		if (retryAfter !== undefined) reply.header('Retry-After', retryAfter);
		if (status === 401) return reply.code(401).send(isLogin ? INVALID_LOGIN : NOT_AUTHORIZED);
		return reply.code(status).send({ message: STATUS_MESSAGES[status] ?? 'Error', status });
	};

	/** Latency, a hang before processing, and the pre-work outcomes; true when the request goes on. */
	const preWork = async (
		request: FastifyRequest,
		reply: FastifyReply,
		decision: FaultDecision,
		isLogin: boolean,
	): Promise<boolean> => {
		const now = Date.now();
		const limited = faults.overRate(now);
		const announced = faults.rateHeaders(now);
		if (announced) reply.headers(announced);
		if (limited !== undefined) {
			if (decision.latencyMs > 0) await sleep(decision.latencyMs);
			countFault(request, 'rateLimitPerSecond');
			void sendStatus(reply, 429, limited, isLogin);
			return false;
		}
		if (decision.latencyMs > 0 || faults.capped) {
			if (decision.latencyMs > 0) countFault(request, 'latency');
			if (await faults.serve(decision.latencyMs, async (ms) => await sleep(ms))) countFault(request, 'capacityWait');
		}
		if (decision.hang && !decision.hang.afterWork) {
			countFault(request, 'hang');
			if (!(await hold(reply, decision.hang.ms))) {
				abandon(request, reply);
				return false;
			}
		}
		const { outcome } = decision;
		if (outcome.kind === 'drop') {
			countFault(request, outcome.fault);
			abandon(request, reply);
			return false;
		}
		if (outcome.kind === 'status') {
			countFault(request, outcome.fault);
			void sendStatus(reply, outcome.status, outcome.retryAfter, isLogin);
			return false;
		}
		return true;
	};

	/**
	 * Authenticates the request, then applies the injected 401, token expiry and session limits;
	 * false when it was answered 401.
	 */
	const checkCredentials = (
		request: FastifyRequest,
		reply: FastifyReply,
		mode: AuthMode,
		entry: LoggedRequest,
		decision: FaultDecision,
	): boolean => {
		const context = authenticate(request, mode);
		if (!context) {
			void reply.code(401).send(NOT_AUTHORIZED);
			return false;
		}
		authContexts.set(request, context);
		entry.auth = context.kind;
		if (context.kind === 'session') {
			entry.session = context.session;
			if (decision.outcome.kind === 'unauthorized') {
				store.endSession(context.token);
				countFault(request, 'unauthorized');
				void reply.code(401).send(NOT_AUTHORIZED);
				return false;
			}
			if (faults.countSessionRequest(context.session, entry.path)) {
				store.endSession(context.token);
				countFault(request, 'sessionLimit');
			}
		}
		if (faults.countAuthenticated(entry.path)) {
			store.expireAllSessions();
			countFault(request, 'tokenExpiry');
		}
		return true;
	};

	// 1. Request log, 2. injected faults (before any processing), 3. authentication.
	app.addHook('onRequest', async (request, reply) => {
		const config = routeConfig(request);
		if (config.admin) return;
		const entry = logRequest(request);
		const gate = gates.findIndex(({ method, path }) => method === entry.method && path === entry.path);
		if (gate >= 0) await gates.splice(gate, 1)[0].opened;
		const isLogin = request.method === 'POST' && request.routeOptions?.url === LOGIN_ROUTE;
		if (isLogin) counts.loginAttempts += 1;
		const decision = faults.decide(entry.path, isLogin);
		decisions.set(request, decision);
		if (!(await preWork(request, reply, decision, isLogin))) return reply;
		if (config.auth && !checkCredentials(request, reply, config.auth, entry, decision)) return reply;
		return;
	});

	/** A hang after processing, then the after-work faults (only on a 2xx answer). */
	const afterWork = async (
		request: FastifyRequest,
		reply: FastifyReply,
		entry: LoggedRequest,
		decision: FaultDecision,
		payload: unknown,
	): Promise<unknown> => {
		if (decision.hang?.afterWork) {
			countFault(request, 'hang');
			if (!(await hold(reply, decision.hang.ms))) {
				entry.workStatus = reply.statusCode;
				entry.status = 0;
				request.raw.socket.destroy();
				return payload;
			}
		}
		const { outcome } = decision;
		const worked = reply.statusCode >= 200 && reply.statusCode < 300;
		if (!worked || (outcome.kind !== 'afterWorkError' && outcome.kind !== 'afterWorkDrop' && outcome.kind !== 'afterWorkNoData')) return payload;
		entry.workStatus = reply.statusCode;
		countFault(request, outcome.kind);
		if (outcome.kind === 'afterWorkNoData') return JSON.stringify({ message: 'Created', status: reply.statusCode });
		if (outcome.kind === 'afterWorkDrop') {
			entry.status = 0;
			request.raw.socket.destroy();
			return payload;
		}
		entry.status = outcome.status;
		reply.code(outcome.status).header('content-type', 'application/json; charset=utf-8');
		return JSON.stringify({ message: STATUS_MESSAGES[outcome.status] ?? 'Error', status: outcome.status });
	};

	app.addHook('onSend', async (request, reply, payload) => {
		const entry = logEntries.get(request);
		if (!entry) return payload;
		const code = reply.statusCode;
		if (options.refusalsAsHttp200 && code >= 400 && code < 500 && code !== 401) reply.code(200);
		entry.status = reply.statusCode;
		entry.body = request.body;
		for (const listener of answerListeners) listener(entry);
		const decision = decisions.get(request);
		return decision ? await afterWork(request, reply, entry, decision, payload) : payload;
	});

	function authenticate(request: FastifyRequest, mode: AuthMode): AuthContext | undefined {
		const presented = bearer(headerValue(request.headers.authorization));
		if (presented !== undefined) {
			const session = store.session(presented);
			if (session) {
				const { companyId, userId, number } = session;
				return { kind: 'session', companyId, userId, token: presented, session: number };
			}
			if (mode === 'sessionOrApiKey') {
				const key = store.apiKeyByValue(presented);
				if (key) return { kind: 'apiKey', companyId: key.companyId, apiKeyId: key.key.id };
			}
			return undefined;
		}
		const apiKeyHeader = headerValue(request.headers['x-api-key'])?.trim();
		if (apiKeyHeader && mode === 'sessionOrApiKey') {
			const key = store.apiKeyByValue(apiKeyHeader);
			if (key) return { kind: 'apiKey', companyId: key.companyId, apiKeyId: key.key.id };
		}
		return undefined;
	}

	const unprocessable = (reply: FastifyReply, message: string) =>
		reply.code(422).send({ message, status: 422 });

	// ---- Session --------------------------------------------------------------------------
	app.post(LOGIN_ROUTE, async (request, reply) => {
		const body = request.body as { user?: { login?: unknown; email?: unknown; password?: unknown } } | undefined;
		const user = body && typeof body === 'object' ? body.user : undefined;
		const login = user?.login ?? user?.email;
		const secret = user?.password;
		if (typeof login !== 'string' || typeof secret !== 'string' || login === '' || secret === '') {
			return reply.code(401).send(INVALID_LOGIN);
		}
		const result = await store.login(login, secret);
		if (!result) return reply.code(401).send(INVALID_LOGIN);
		counts.logins += 1;
		const entry = logEntries.get(request);
		if (entry) entry.newSession = result.session.number;
		const { token } = result.session;
		const userData: Record<string, unknown> = {
			id: result.user.id,
			email: result.user.email,
			first_name: result.user.firstName,
			last_name: result.user.lastName,
			company_id: result.companyId,
		};
		const response: Record<string, unknown> = { message: 'Signed in successfully', status: 200 };
		switch (tokenLocation) {
			case 'data.token':
				response.data = { ...userData, token: token };
				break;
			case 'data.user.token':
				response.data = { ...userData, user: { ...userData, token: token } };
				break;
			case 'data.access_token':
				response.data = { ...userData, access_token: token };
				break;
			case 'top.token':
				response.data = userData;
				response.token = token;
				break;
			case 'header.authorization':
				response.data = userData;
				reply.header('Authorization', `Bearer ${token}`);
				break;
			case 'header.x-auth-token':
				response.data = userData;
				reply.header('X-Auth-Token', token);
				break;
			case 'none':
				response.data = userData;
				store.endSession(token);
				break;
		}
		return reply.code(200).send(response);
	});

	app.delete('/v1/logout', { config: { auth: 'session' } }, async (request, reply) => {
		const context = auth(request);
		if (context.kind === 'session') store.endSession(context.token);
		counts.logouts += 1;
		return reply.code(200).send({ message: 'Signed out successfully', status: 200 });
	});

	// ---- Reference lists (no authentication) ----------------------------------------------
	app.get('/v1/general/business-areas', async (request) => ({
		message: 'Business areas fetched successfully',
		status: 200,
		data: businessAreas(parseLang((request.query as Record<string, unknown>).lang)),
	}));

	app.get('/v1/general/job-types', async () => ({
		message: 'Job types fetched successfully',
		status: 200,
		data: jobTypes(),
	}));

	app.get('/v1/general/language-skills', async (request) => ({
		message: 'Language skills fetched successfully',
		status: 200,
		data: languageSkills(parseLang((request.query as Record<string, unknown>).lang)),
	}));

	// Declared as text/plain by the service although the body is the JSON envelope.
	const degreesPath = options.universityDegreesPath === 'singular' ? '/v1/general/university-degree' : '/v1/general/university-degrees';
	app.get(degreesPath, async (request, reply) => {
		const envelope = {
			message: 'University degrees fetched successfully',
			status: 200,
			data: universityDegrees(parseLang((request.query as Record<string, unknown>).lang)),
		};
		return reply.code(200).type('text/plain; charset=utf-8').send(JSON.stringify(envelope));
	});

	// ---- API integrations -----------------------------------------------------------------
	app.get(
		'/v1/company/api-integrations',
		{ config: { auth: 'sessionOrApiKey' } },
		async (request) => ({
			message: 'API integrations fetched successfully',
			status: 200,
			data: store.listApiKeys(auth(request).companyId),
		}),
	);

	// Declared as "created"; the service's sample body nevertheless carries status 200.
	app.post('/v1/company/api-integrations', { config: { auth: 'session' } }, async (request, reply) =>
		reply.code(201).send({
			message: 'API integration created successfully',
			status: 200,
			data: store.createApiKey(auth(request).companyId),
		}),
	);

	app.delete(
		'/v1/company/api-integrations/:apiKeyId',
		{ config: { auth: 'session' } },
		async (request, reply) => {
			const { apiKeyId } = request.params as { apiKeyId: string };
			const id = store.deleteApiKey(auth(request).companyId, apiKeyId);
			if (id === undefined) {
				return reply.code(404).send({ message: 'API integration not found', status: 404 });
			}
			return reply.code(200).send({ message: 'API integration deleted successfully', status: 200, data: { id } });
		},
	);

	// ---- Candidates -----------------------------------------------------------------------
	const candidateRoute = { config: { auth: 'sessionOrApiKey' as AuthMode } };

	app.post('/gin/v1/company/candidate', candidateRoute, async (request, reply) => {
		const result = validate(candidateCreateSchema, request.body);
		if (!result.ok) return unprocessable(reply, result.message);
		const { companyId } = auth(request);
		const { company_id: requestedCompany, ...fields } = result.value;
		if (requestedCompany !== undefined && requestedCompany !== null && requestedCompany !== companyId) {
			return reply.code(403).send({ message: 'Not authorized for this company', status: 403 });
		}
		const candidate = store.createCandidate(companyId, compact(fields));
		counts.candidatesCreated += 1;
		return reply.code(201).send({
			message: candidate.employee ? 'Employee created successfully' : 'Candidate created successfully',
			status: '201',
			data: { slug: candidate.slug },
		});
	});

	app.put('/gin/v1/company/candidate', candidateRoute, async (request, reply) => {
		const result = validate(candidateUpdateSchema, request.body);
		if (!result.ok) return unprocessable(reply, result.message);
		const { user_slug: slug, ...fields } = result.value;
		const candidate = store.candidate(auth(request).companyId, slug);
		if (!candidate) return reply.code(404).send(CANDIDATE_NOT_FOUND);
		const profile = store.updateCandidate(candidate, compact(fields));
		return reply.code(200).send({ message: 'Candidate updated successfully', status: 200, data: profile });
	});

	/** A sub-record endpoint: validate, find the company's candidate, store, answer. */
	function recordRoute<T extends { user_slug: string }>(
		path: string,
		save: (candidate: SandboxCandidate, fields: Record<string, unknown>) => void,
		validateBody: (body: unknown) => ValidationResult<T>,
		httpStatus: 200 | 201,
		message: string,
	): void {
		app.post(path, candidateRoute, async (request, reply) => {
			const result = validateBody(request.body);
			if (!result.ok) return unprocessable(reply, result.message);
			const { user_slug: slug, ...fields } = result.value;
			const candidate = store.candidate(auth(request).companyId, slug);
			if (!candidate) return reply.code(404).send(CANDIDATE_NOT_FOUND);
			save(candidate, compact(fields));
			counts.recordsCreated += 1;
			return reply.code(httpStatus).send({ message, status: 201 });
		});
	}

	/** The service's own sub-record routes, with its own rules (validation.ts), whatever the node sends. */
	const serviceRecord = (kind: RecordKind) => (candidate: SandboxCandidate, fields: Record<string, unknown>) =>
		store.addRecord(candidate, kind, fields as never);
	recordRoute(JOB_PATH, serviceRecord('jobs'), (body) => validate(jobSchema, body), 201, 'Job added successfully');
	recordRoute(
		UNIVERSITY_PATH,
		serviceRecord('universities'),
		(body) => validate(universitySchema, body),
		201,
		'University added successfully',
	);
	recordRoute(IT_SKILL_PATH, serviceRecord('itSkills'), (body) => validate(itSkillSchema, body), 200, 'IT skill added successfully');
	recordRoute(
		LANGUAGE_PATH,
		serviceRecord('languages'),
		(body) => validate(languageSchema, body),
		200,
		'Language skill added successfully',
	);
	recordRoute(
		ADDITIONAL_INFO_PATH,
		serviceRecord('additionalInfo'),
		(body) => validate(additionalInfoSchema, body),
		200,
		'Additional information added successfully',
	);
	// A sub-record the node declares (its spec) that the service above does not know yet: a route
	// with the spec's path and required fields, so a new record needs no edit here.
	const specs = options.recordSpecs ?? RECORD_SPECS;
	for (const spec of specs.filter((record) => !SERVICE_RECORD_PATHS.includes(record.path))) {
		const schema = specRecordSchema(spec.fields);
		recordRoute(
			spec.path,
			(candidate, fields) => store.addOtherRecord(candidate, spec.type, fields),
			(body) => validate(schema, body),
			201,
			`${spec.label.charAt(0).toUpperCase()}${spec.label.slice(1)} added successfully`,
		);
	}

	// ---- Admin (test hooks over HTTP; only when enabled) ----------------------------------
	const reset = async (): Promise<void> => {
		await store.seed(companies);
		faults.set({});
		requests.length = 0;
		store.setTokenLifetime(options.tokenLifetimeMs);
		counts.logins = 0;
		counts.loginAttempts = 0;
		counts.logouts = 0;
		counts.candidatesCreated = 0;
		counts.recordsCreated = 0;
		for (const name of Object.keys(counts.faults)) counts.faults[name] = 0;
	};

	if (options.admin) {
		const admin = { config: { admin: true } };
		app.get(`${ADMIN_PREFIX}/state`, admin, async () => store.snapshot());
		app.get(`${ADMIN_PREFIX}/requests`, admin, async () => ({ requests, counts }));
		app.post(`${ADMIN_PREFIX}/faults`, admin, async (request, reply) => {
			const body = request.body ?? {};
			if (typeof body !== 'object' || Array.isArray(body)) {
				return unprocessable(reply, 'body: must be a JSON object');
			}
			faults.set(body as FaultConfig);
			return { message: 'Faults set', status: 200, data: faults.get() };
		});
		app.post(`${ADMIN_PREFIX}/token-lifetime`, admin, async (request, reply) => {
			const lifetime = tokenLifetimeFrom(request.body);
			if (lifetime === false) {
				return unprocessable(reply, 'body: {ms: N} or {seconds: N} (N >= 0), or {} for no lifetime');
			}
			store.setTokenLifetime(lifetime);
			return { message: 'Token lifetime set', status: 200, data: { ms: lifetime ?? null } };
		});
		app.post(`${ADMIN_PREFIX}/reset`, admin, async () => {
			await reset();
			return { message: 'Sandbox reset', status: 200 };
		});
	}

	await app.listen({ host, port: options.port ?? 0 });
	const address = app.server.address();
	const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 0);

	return {
		url: `http://${hostForUrl(host)}:${port}`,
		port,
		close: async () => {
			for (const abort of holds) abort.abort();
			for (const gate of gates.splice(0)) gate.open();
			await app.close();
		},
		requests,
		clearRequests: () => {
			requests.length = 0;
		},
		setFaults: (config) => faults.set(config),
		setTokenLifetime: (ms) => store.setTokenLifetime(ms),
		faults: () => faults.get(),
		counts,
		state: () => store.snapshot(),
		candidates: (companyId: number): SandboxCandidate[] => store.candidates(companyId),
		issueToken: (email: string) => store.issueToken(email),
		onAnswer: (listener) => {
			answerListeners.add(listener);
			return () => answerListeners.delete(listener);
		},
		holdNext: (method, path) => {
			let open = () => {};
			const opened = new Promise<void>((resolve) => (open = resolve));
			gates.push({ method, path, opened, open });
			return () => {
				const index = gates.findIndex((gate) => gate.opened === opened);
				if (index >= 0) gates.splice(index, 1);
				open();
			};
		},
		reset,
	};
}
