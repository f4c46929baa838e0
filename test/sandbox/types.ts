/** Public types of the recruiting-service sandbox (re-exported by `server.ts`). */
import type { LimiterKind, RatePolicy } from './limiter';

export interface SandboxUser {
	email: string;
	password: string;
	firstName?: string;
	lastName?: string;
}

export interface SandboxCompany {
	id: number;
	name: string;
	users: SandboxUser[];
	/** API key values (UUID-like text) the company starts with. */
	apiKeys?: string[];
}

/** Statuses a `loginScript` entry may answer with (401 = the service's invalid-login answer). */
export type LoginScriptStatus = 401 | 429 | 500 | 502 | 503 | 504;

/** One scripted answer to one `POST /v1/login`. */
export type LoginScriptEntry =
	| { status: LoginScriptStatus; retryAfter?: string }
	| { drop: true }
	| { ok: true };

/** Statuses an after-work error may answer with. */
export type AfterWorkStatus = 500 | 502 | 503 | 504;

export interface FaultConfig {
	/** Fixed latency added to every request. */
	latencyMs?: number;
	/** Plus a random 0..jitter milliseconds. */
	latencyJitterMs?: number;
	/** Fraction (0..1) answered 500 or 503 (half each) before processing. */
	errorRate?: number;
	/** With `errorRate`: a pre-work 503 carries `Retry-After: <this many seconds>` (default: no header). */
	retryAfterOn503?: number;
	/** Fraction answered 429 with a `Retry-After` header (seconds). */
	rateLimitRate?: number;
	/** `Retry-After` value in seconds; default 1. */
	retryAfterSeconds?: number;
	/** Fraction whose socket is destroyed without an answer (before processing). */
	dropRate?: number;
	/**
	 * Fraction of requests authenticated with a session token that are answered 401 (the normal
	 * `Not authorized` body) instead of being processed; that token dies, other tokens live.
	 */
	unauthorizedRate?: number;
	/** Fraction processed and stored, then answered with an error status (no `Retry-After`). */
	afterWorkErrorRate?: number;
	/** The statuses an after-work error picks from (uniformly, per request); default [503]. */
	afterWorkErrorStatuses?: AfterWorkStatus[];
	/** Fraction processed and stored, then the socket is destroyed without an answer. */
	afterWorkDropRate?: number;
	/** Fraction processed and stored, then answered its status with an envelope without `data` (a creation without its slug). */
	afterWorkNoDataRate?: number;
	/** After N authenticated requests all live session tokens die (once, unless `repeat`). */
	expireTokensAfterRequests?: number;
	/** With `expireTokensAfterRequests`: kill the tokens again after every further N requests. */
	repeat?: boolean;
	/**
	 * A session token dies after this many authenticated requests made with it (the last one is
	 * still answered). A range draws each session's limit (integers, inclusive) with the PRNG.
	 */
	sessionRequestLimit?: number | { min: number; max: number };
	/** How long a hanging request is held (ms); nothing hangs without it. */
	hangMs?: number;
	/** Path prefixes whose requests hang (all of them unless `hangRate` is given). */
	hangPaths?: string[];
	/** Fraction of requests (on `hangPaths` when given) that hang; default 1 with `hangPaths`, else 0. */
	hangRate?: number;
	/** Hold hanging requests after processing instead of before. */
	hangAfterWork?: boolean;
	/** Answers to the next logins, one entry per `POST /v1/login`; then logins behave normally. */
	loginScript?: LoginScriptEntry[];
	/** Seed of the PRNG that decides the random faults (reproducible runs). */
	seed?: number;
	/**
	 * At most this many requests served at once (each for `latencyMs`); the others wait their turn
	 * in arrival order, so latency grows with load (profile `capacity`).
	 */
	capacity?: number;
	/**
	 * At most this many requests per second: a token bucket of this many tokens, refilled at this
	 * rate; a request without a token is answered 429 with `Retry-After` (whole seconds, at least
	 * 1) before any work (profile `rate-limited`).
	 */
	rateLimitPerSecond?: number;
	/**
	 * The window of `rateLimitPerSecond`, in seconds (default 1; issue 48): `rateLimitPerSecond`
	 * requests per this many seconds, counted by `rateLimiter` (a fixed window aligned on the clock,
	 * a sliding one, or a bucket refilled over it). A 429's `Retry-After` counts to when a request
	 * would be accepted (a fixed window: its end).
	 */
	rateLimitWindowS?: number;
	/**
	 * With `rateLimitPerSecond`: every answer announces the bucket (its size, the tokens left, the
	 * seconds until it is full) in one header style: `x` (X-RateLimit-Limit/-Remaining/-Reset, the
	 * reset in seconds), `x-unix` (the same, the reset as a Unix time), `ietf` (the httpapi draft's
	 * RateLimit-Policy `q`, `w` and RateLimit `r`, `t`), `ietf-draft` (its earlier
	 * RateLimit-Limit/-Remaining/-Reset). Default: no header (profile `rate-limited-headers`).
	 */
	rateLimitHeaders?: RateLimitHeaderStyle;
	/**
	 * How the limits are counted (limiter.ts): `bucket` (default; a token bucket refilled
	 * continuously), `fixed` (a fixed window aligned on the clock), `sliding` (a sliding window).
	 */
	rateLimiter?: LimiterKind;
	/**
	 * More policies counted at once beside `rateLimitPerSecond` (which is the policy "default", a
	 * window of 1 s), each `limit` requests per `windowS` seconds: a burst and a daily quota.
	 */
	rateLimitPolicies?: RatePolicy[];
	/** Fraction (0..1) answered 503 before processing, with `Retry-After: retryAfterOn503` when set (profile `flaky`). */
	unavailableRate?: number;
	/** Only apply faults to paths starting with one of these prefixes (`loginScript` excepted). */
	paths?: string[];
}

export const RATE_LIMIT_HEADER_STYLES = ['x', 'x-unix', 'ietf', 'ietf-draft'] as const;

export type RateLimitHeaderStyle = (typeof RATE_LIMIT_HEADER_STYLES)[number];

export type TokenLocation =
	| 'data.token'
	| 'data.user.token'
	| 'data.access_token'
	| 'top.token'
	| 'header.authorization'
	| 'header.x-auth-token'
	| 'none';

export interface SandboxOptions {
	/** Default '127.0.0.1'. */
	host?: string;
	/** Default 0 = a free port. */
	port?: number;
	/** Default: DEFAULT_COMPANIES. */
	companies?: SandboxCompany[];
	/** Optional session token lifetime (expiry simulation); `setTokenLifetime` changes it later. */
	tokenLifetimeMs?: number;
	/** A new session of a user (login or `issueToken`) ends that user's earlier sessions. */
	singleSessionPerUser?: boolean;
	/** Where a successful login puts the session token; default 'data.token'. */
	tokenLocation?: TokenLocation;
	/**
	 * Where the university degrees are served: 'plural' (default, `/v1/general/university-degrees`,
	 * as the service's request examples) or 'singular' (`/v1/general/university-degree`, as one of
	 * its reference texts); the other path is answered 404.
	 */
	universityDegreesPath?: 'plural' | 'singular';
	/**
	 * The service reports its refusals in the body only: every 4xx answer but 401 goes out as
	 * HTTP 200, its body (with `status`: the 4xx) unchanged.
	 */
	refusalsAsHttp200?: boolean;
	/** Request body limit; default 1 MiB, larger bodies are answered 413. */
	bodyLimitBytes?: number;
	/** Enables the `/__sandbox/*` admin routes (404 otherwise). */
	admin?: boolean;
	faults?: FaultConfig;
	/** Restored state (persistence); takes precedence over `companies`. */
	initialState?: SandboxState;
	/** Called with a fresh copy of the state after every mutation. */
	onStateChange?: (state: SandboxState) => void;
	/**
	 * The sub-records the node declares; default: the node's specs (`RECORD_SPECS`). One whose
	 * path is not a route of the service's own gets a route that checks its required fields.
	 */
	recordSpecs?: readonly RecordRouteSpec[];
}

/** What the sandbox reads from a node's sub-record spec. */
export interface RecordRouteSpec {
	path: string;
	type: string;
	label: string;
	fields: ReadonlyArray<{ wire: string; required?: boolean }>;
}

export interface LoggedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	/** Parsed JSON body (undefined when there was none or it was not parsed). */
	body: unknown;
	/** HTTP status answered; 0 for a dropped connection (or while still in flight). */
	status: number;
	/** Injected fault(s), joined with '+' when several hit one request (e.g. 'latency+error500'). */
	fault?: string;
	/** Arrival time, ms since the epoch. */
	at: number;
	/** How the request was authenticated: 'none' when not (no credentials needed or refused). */
	auth: 'none' | 'session' | 'apiKey';
	/** Number of the session whose token authenticated the request (`StoredSession.number`). */
	session?: number;
	/** Number of the session a successful login created. */
	newSession?: number;
	/**
	 * Status the processing produced when the client did not get it: an after-work fault replaced
	 * or withheld it, or the client left during an after-work hang.
	 */
	workStatus?: number;
}

export type FaultName =
	| 'latency'
	| 'error500'
	| 'error503'
	| 'rateLimit'
	| 'rateLimitPerSecond'
	| 'capacityWait'
	| 'drop'
	| 'tokenExpiry'
	| 'unauthorized'
	| 'sessionLimit'
	| 'afterWorkError'
	| 'afterWorkDrop'
	| 'afterWorkNoData'
	| 'hang'
	| 'loginScript';

export interface SandboxCounts {
	/** Successful logins (a session was created). */
	logins: number;
	/** Every `POST /v1/login` that arrived, faulted or refused ones included. */
	loginAttempts: number;
	logouts: number;
	candidatesCreated: number;
	recordsCreated: number;
	/** Injected faults by `FaultName` (all present, 0 when none). */
	faults: Record<string, number>;
}

interface RecordBase {
	id: number;
	createdAt: string;
}

export interface CandidateJob extends RecordBase {
	company_name: string;
	start_date: string;
	end_date?: string;
	city_name?: string;
	job_type_id?: number;
	description?: string;
	job_title?: string;
	business_area_division?: string;
	lang?: string;
}

export interface CandidateUniversity extends RecordBase {
	start_date: string;
	end_date?: string;
	university_name?: string;
	study_name?: string;
	university_degrees_id?: number;
	description?: string;
	grade?: number;
	grading_systems_id?: number;
}

export interface CandidateItSkill extends RecordBase {
	skill_name: string;
	skill_level_id: number;
}

export interface CandidateLanguage extends RecordBase {
	language_id: number;
	language_level_id: number;
}

export interface CandidateAdditionalInfo extends RecordBase {
	title: string;
	description?: string;
	start_date?: string;
	end_date?: string;
}

export interface CandidateRecords {
	jobs: CandidateJob[];
	universities: CandidateUniversity[];
	itSkills: CandidateItSkill[];
	languages: CandidateLanguage[];
	additionalInfo: CandidateAdditionalInfo[];
	/** Records of kinds the sandbox knows only from the node's specs, by type (none while every spec is a service route). */
	other?: Record<string, Array<RecordBase & Record<string, unknown>>>;
}

/** Profile fields as the service names them on the wire; null when never set. */
export interface CandidateProfile {
	slug: string;
	phone: string | null;
	email: string | null;
	source: string | null;
	employee: boolean;
	first_name: string | null;
	last_name: string | null;
	city: string | null;
	street: string | null;
	zip_code: string | null;
	birthday: string | null;
	whatsapp_preference: boolean | null;
	sms_preference: boolean | null;
	email_preference: boolean | null;
}

export interface SandboxCandidate extends CandidateProfile {
	companyId: number;
	createdAt: string;
	updatedAt: string;
	records: CandidateRecords;
}

export interface StoredUser {
	id: number;
	email: string;
	firstName: string;
	lastName: string;
	/** `scrypt$<salt hex>$<key hex>` */
	passwordHash: string;
}

export interface StoredApiKey {
	id: number;
	value: string;
	createdAt: string;
}

export interface StoredCompany {
	id: number;
	name: string;
	users: StoredUser[];
	apiKeys: StoredApiKey[];
	candidates: SandboxCandidate[];
}

export interface StoredSession {
	/** Opaque sequence number (1, 2, …): how the request log names the session. */
	number: number;
	token: string;
	userId: number;
	companyId: number;
	createdAt: number;
	/** ms since the epoch; absent = no lifetime */
	expiresAt?: number;
}

export interface SandboxState {
	version: 1;
	companies: StoredCompany[];
	sessions: StoredSession[];
	/** Number of live session tokens (informational; recomputed on restore). */
	liveTokens: number;
	/** Successful logins since the seed (kept across restore; `issueToken` is not one). */
	logins: number;
	nextIds: { user: number; apiKey: number; record: number; session: number };
}

export interface Sandbox {
	url: string;
	port: number;
	close(): Promise<void>;
	requests: LoggedRequest[];
	clearRequests(): void;
	/** Replaces the fault configuration (and restarts its PRNG, request counters and login script). */
	setFaults(f: FaultConfig): void;
	/** Lifetime of sessions created from now on; undefined = no lifetime. */
	setTokenLifetime(ms: number | undefined): void;
	counts: SandboxCounts;
	/** Deep copy of everything. */
	state(): SandboxState;
	/** Stored candidates of a company (deep copies) with their profile fields and records. */
	candidates(companyId: number): SandboxCandidate[];
	/** A live session token for that user without a login request. */
	issueToken(email: string): string;
	/**
	 * Calls `listener` with each request's log entry (its status set) as its answer is about to go, in
	 * the same turn of the event loop: a test acts at that very answer, not at a later look.
	 * Returns the unsubscribe.
	 */
	onAnswer(listener: (entry: LoggedRequest) => void): () => void;
	/**
	 * Holds the next request to `method` `path` (logged, before any fault or work) until the returned
	 * release is called or the sandbox closes: a test keeps a run busy for as long as it needs, whatever
	 * the machine's speed. Returns the release.
	 */
	holdNext(method: string, path: string): () => void;
	/** Additions: the current fault configuration, and a reset to the seeded companies. */
	faults(): FaultConfig;
	reset(): Promise<void>;
}
