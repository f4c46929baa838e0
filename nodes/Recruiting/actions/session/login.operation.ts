/**
 * Session → Log In: logs in with the e-mail and password of the Recruiting API credential
 * (never with secrets typed into node parameters) and returns the user object the service
 * answers with, every token and password removed unless Include Token is on.
 *
 * The login request is the credential's own (transport/auth.ts), sent through the transport
 * without a session (one login, no automatic login before it). The session it opens is this
 * operation's output; the node's own requests keep using the session stored in the credential.
 */
import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ServiceResponse } from '../../transport';
import { apiRequest, fitMessage, redact } from '../../transport';
import { loginRequest, loginStatusMessage } from '../../transport/auth';
import { TOKEN_KEYS, TokenNotFoundError, extractToken } from '../../transport/token';
import { optionsCollection } from '../shared/options';
import type { RunContext } from '../context';
import { MODE_NAMES, authMode, oncePerRun } from './shared';

export const description: INodeProperties[] = [
	{
		displayName:
			'Works only with Email and Password credentials. The node already logs in by itself when needed; without a stored session, this logs in twice (once for the session, once for the profile).',
		name: 'loginNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: ['session'], operation: ['login'] } },
	},
	optionsCollection('session', 'login', [
		{
			displayName: 'Include Token',
			name: 'includeToken',
			type: 'boolean',
			default: false,
			description:
				'Whether to add the new session token to the output as "token". It is a secret: whoever has it acts as this user until it is logged out.',
		},
	]),
];

/** The output is the user, already without secrets; with Include Token its token is a secret the user asked for. */
export const outputIsSecret = true;

const TOKEN_KEY_SET = new Set<string>(TOKEN_KEYS.map((key) => key.toLowerCase()));

/** Whether a field name names a secret: the contract's token keys, or token / password / secret / API key in the name. */
export function isSecretKey(key: string): boolean {
	return TOKEN_KEY_SET.has(key.toLowerCase()) || /token|passw(or)?d|secret|api_?key/i.test(key);
}

/**
 * A copy of `value` without secret fields (at any depth), without any string equal to one of
 * `secrets` (a token found through Token Path may sit under an innocent-looking key), and with
 * every other string that contains one redacted (`"authorization": "Bearer <token>"`, `"cookie":
 * "sid=<token>"`).
 */
export function withoutSecrets(value: unknown, secrets: string[] = []): unknown {
	const isSecret = (entry: unknown) => typeof entry === 'string' && secrets.includes(entry);
	if (Array.isArray(value)) return value.filter((entry) => !isSecret(entry)).map((entry) => withoutSecrets(entry, secrets));
	if (typeof value === 'object' && value !== null) {
		const out: IDataObject = {};
		for (const [key, entry] of Object.entries(value as IDataObject)) {
			if (!isSecretKey(key) && !isSecret(entry)) out[key] = withoutSecrets(entry, secrets) as IDataObject;
		}
		return out;
	}
	return typeof value === 'string' ? redact(value, secrets) : value;
}

/** Fails the item unless the credential logs in with e-mail and password. */
function requireEmailPassword(context: IExecuteFunctions, itemIndex: number, credentials: ICredentialDataDecryptedObject): void {
	const mode = authMode(credentials);
	if (mode === 'emailPassword') return;
	throw new NodeOperationError(
		context.getNode(),
		`Log In needs a Recruiting API credential with Email and Password authentication; this credential uses ${MODE_NAMES[mode]}`,
		{
			itemIndex,
			description:
				mode === 'accessToken'
					? 'With an access token the node is already signed in: skip Log In, or switch the credential to Email and Password to log in with them.'
					: 'An API key is not a login session: skip Log In, or use a credential with Email and Password authentication.',
		},
	);
}

/** The session token of a login answer, or why none was found (the keys it saw, never values). */
function tokenOf(response: ServiceResponse, credentials: ICredentialDataDecryptedObject): { token?: string; problem?: string } {
	const tokenPath = typeof credentials.tokenPath === 'string' ? credentials.tokenPath : '';
	try {
		return { token: extractToken(response.body, response.headers, tokenPath) };
	} catch (error) {
		// extractToken only throws TokenNotFoundError: its message names the keys, never values.
		return { problem: error instanceof TokenNotFoundError ? error.message : 'Logged in, but found no session token' };
	}
}

async function logIn(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<IDataObject> {
	const credentials = await run.session.getCredentials(this);
	requireEmailPassword(this, itemIndex, credentials);
	const response = await apiRequest.call(
		this,
		{
			method: 'POST',
			path: '/v1/login',
			body: loginRequest(credentials).body,
			itemIndex,
			auth: 'none',
			repeatable: true,
			accept: [400, 401, 403, 404, 422],
		},
		run.session,
	);
	if (response.httpStatus >= 300) {
		throw new NodeApiError(
			this.getNode(),
			{ message: 'Login failed', httpCode: String(response.httpStatus) },
			{ message: fitMessage(loginStatusMessage(response.httpStatus, response.body), run.session.secretsFor(credentials)), httpCode: String(response.httpStatus), itemIndex },
		);
	}
	const { token, problem } = tokenOf(response, credentials);
	const data = response.data;
	if (typeof data !== 'object' || data === null || Array.isArray(data)) {
		throw new NodeApiError(
			this.getNode(),
			{ message: 'The login answer carried no user object' },
			{ message: 'Logged in, but the service answered without a user object in "data"', itemIndex },
		);
	}
	const secrets = [...(token === undefined ? [] : [token]), ...(await run.session.secrets())];
	const user = withoutSecrets(data, secrets) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	if (options.includeToken === true) {
		if (token === undefined) {
			throw new NodeOperationError(this.getNode(), problem ?? 'Logged in, but found no session token', { itemIndex });
		}
		user.token = token;
	}
	return user;
}

export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<IDataObject> {
	return await oncePerRun(run, 'login', async () => await logIn.call(this, itemIndex, run));
}
