/**
 * What one execution's requests share: the credential (read once), the owner of its session
 * token, the retry policy, the request timeout, the rate cap, and whether the run is stopping.
 * Created per execution (or per dropdown load), never kept at module level, so it holds
 * nothing between executions or across queue-mode workers.
 */
import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

import { CREDENTIAL_TYPE, credentialProblem } from './auth';
import { Controller } from './controller';
import type { Waiter } from './pacer';
import { Pacer, cancellableWait } from './pacer';
import type { ServiceResponse } from './http';
import { SessionOwner } from './session';
import { secretList } from './errors';
import { credentialSecrets } from './token';

export type RequestContext = IExecuteFunctions | ILoadOptionsFunctions;

/** What `TransportSession.intercept` is shown of a request (never its headers or the credential). */
export interface InterceptedRequest {
	method: string;
	path: string;
	body?: IDataObject;
	itemIndex?: number;
}

export interface RetryPolicy {
	/** How many times one request may be retried (0 = never). */
	maxRetries: number;
	/** First backoff delay; doubles with each retry. */
	initialDelayMs: number;
	/** Upper bound of one wait, Retry-After included. */
	maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, initialDelayMs: 1000, maxDelayMs: 30000 };

const DEFAULT_TIMEOUT_MS = 60000;

export function cancelled(context: RequestContext): boolean {
	const signal = 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal?.() : undefined;
	return signal?.aborted === true;
}

export class TransportSession {
	readonly retry: RetryPolicy;

	readonly pacer: Pacer;

	private credentials?: Promise<ICredentialDataDecryptedObject>;

	private owner?: SessionOwner;

	private stopping = false;

	private problem?: { text: string | undefined };

	/**
	 * A dry run's answer to a request instead of sending it (Create or Update's Dry Run,
	 * `actions/candidate/upsert/plan.ts`: it answers the writes); undefined: the request is sent.
	 */
	intercept?: (request: InterceptedRequest) => ServiceResponse | undefined;

	constructor(
		retry: Partial<RetryPolicy> = {},
		requestsPerSecond = 0,
		readonly timeoutMs = DEFAULT_TIMEOUT_MS,
		/** The node run's controller (its run context owns it); a dropdown load has a fixed one that learns nothing. */
		readonly controller: Controller = new Controller({ mode: 'fixed', concurrency: 1, maxConcurrency: 1 }),
	) {
		this.retry = { ...DEFAULT_RETRY, ...retry };
		// One bound for every wait: a retry's, and the run's holds.
		controller.maxHoldMs = this.retry.maxDelayMs;
		this.pacer = new Pacer(requestsPerSecond > 0 ? 1000 / requestsPerSecond : 0);
	}

	/** The id of the n8n credential the node uses (its logins are shared with the other executions of the process: session.ts). */
	private credentialId?: string;

	/** The decrypted credential, read once per execution (a copy: the stored one is never changed here). */
	async getCredentials(context: RequestContext): Promise<ICredentialDataDecryptedObject> {
		if (!this.credentials) {
			this.credentialId = context.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? undefined;
			this.credentials = context.getCredentials(CREDENTIAL_TYPE).then((data) => ({ ...data }));
			this.credentials.catch(() => {
				this.credentials = undefined;
			});
		}
		return await this.credentials;
	}

	/** What stops the credential from being used (checked once per execution), or undefined. */
	problemOf(credentials: ICredentialDataDecryptedObject): string | undefined {
		if (this.problem === undefined) this.problem = { text: credentialProblem(credentials) };
		return this.problem.text;
	}

	/** The owner of the session token (Email and Password). */
	session(credentials: ICredentialDataDecryptedObject): SessionOwner {
		this.owner ??= new SessionOwner(credentials, this.credentialId);
		return this.owner;
	}

	/** After a failure under "Stop Workflow": requests in flight finish, no new request starts. */
	stop(): void {
		this.stopping = true;
		this.controller.close();
	}

	get stopped(): boolean {
		return this.stopping;
	}

	/** How this execution waits: in short steps, ending early when it is cancelled or the run is stopping. */
	waiter(context: RequestContext): Waiter {
		return cancellableWait(() => this.stopping || cancelled(context));
	}

	/** The last list `secrets()` built, and how many session tokens the owner had seen then. */
	private secretList?: { seen: number; list: readonly string[] };

	/**
	 * Every secret value this execution knows, for redaction; frozen. Given the node's context, the credential is read if no
	 * request read it yet (an item that failed on its input before anything was sent may still carry a secret mapped into a
	 * field); without it, nothing when the credential was never read.
	 */
	async secrets(context?: RequestContext): Promise<readonly string[]> {
		if (context && !this.credentials) await this.getCredentials(context).catch(() => undefined);
		const credentials = await this.credentials?.catch(() => undefined);
		if (!credentials) return [];
		// Asked for every output item: built again only when a new session token was seen (the
		// same frozen list meanwhile, whose written forms the redaction works out once).
		const seen = this.owner?.seen.size ?? 0;
		if (this.secretList?.seen !== seen) this.secretList = { seen, list: secretList(this.secretsFor(credentials)) };
		return this.secretList.list;
	}

	secretsFor(credentials: ICredentialDataDecryptedObject): string[] {
		return [...new Set([...(this.owner?.seen ?? []), ...credentialSecrets(credentials)])];
	}
}
