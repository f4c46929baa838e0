import type {
	IAuthenticate,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import {
	authMode,
	baseUrlProblem,
	extractToken,
	joinUrl,
	openSessionToken,
	sealSessionToken,
	serviceText,
} from '../nodes/Recruiting/transport/login';

export class RecruitingApi implements ICredentialType {
	name = 'recruitingApi';

	displayName = 'Recruiting API';

	icon: Icon = { light: 'file:../icons/recruiting.svg', dark: 'file:../icons/recruiting.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-recruiting/n8n-nodes-recruiting#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description:
				'Address of the recruiting service, without a path. A trailing slash is fine.',
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
			placeholder: 'name@email.com',
			default: '',
			displayOptions: { show: { authentication: ['emailPassword'] } },
			description: 'The e-mail address you sign in to the recruiting service with',
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			displayOptions: { show: { authentication: ['emailPassword'] } },
		},
		{
			displayName: 'Token Path',
			name: 'tokenPath',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			placeholder: 'data.token',
			displayOptions: { show: { authentication: ['emailPassword'] } },
			description:
				'Dotted path of the session token in the login answer. Leave empty to find it automatically (token, access_token, jwt and similar keys in data, data.user or the top level, then the Authorization or X-Auth-Token header).',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			displayOptions: { show: { authentication: ['accessToken'] } },
			description: 'Sent as "Authorization: Bearer &lt;token&gt;" with every request',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			displayOptions: { show: { authentication: ['apiKey'] } },
			description: 'The value of a company API integration (see API Key → Create in the node)',
		},
		{
			displayName: 'API Key Header',
			name: 'apiKeyHeader',
			type: 'string',
			typeOptions: { password: true },
			default: 'Authorization',
			displayOptions: { show: { authentication: ['apiKey'] } },
			description:
				'Header that carries the key. For Authorization the value is "Bearer &lt;key&gt;"; for any other header name, the bare key.',
		},
		{
			displayName:
				'The connection test can only check that the service answers: the service has no read endpoint known to accept API keys, so the key itself is checked on its first use by the node.',
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
	 * E-mail and password mode: log in and store the session token in the hidden, expirable
	 * `sessionToken` field. n8n calls this when that field is empty, on a credential test, and
	 * once after a request answered 401, then saves what it returns with the credential (so the
	 * token is shared by executions and queue-mode workers). Other modes need no login: returning
	 * no `sessionToken` tells n8n there is nothing to store.
	 */
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		if (authMode(credentials) !== 'emailPassword') return {};
		const problem = baseUrlProblem(credentials.baseUrl);
		if (problem) throw new Error(problem);
		const email = typeof credentials.email === 'string' ? credentials.email.trim() : '';
		const password = typeof credentials.password === 'string' ? credentials.password : '';
		if (email === '' || password === '') {
			throw new Error('The Recruiting API credential needs an Email and a Password to log in.');
		}
		const request: IHttpRequestOptions = {
			method: 'POST',
			url: joinUrl(credentials.baseUrl as string, '/v1/login'),
			headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
			body: { user: { login: email, password } },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		};
		let response: { statusCode?: number; body?: unknown; headers?: IDataObject };
		try {
			response = (await this.helpers.httpRequest(request)) as typeof response;
		} catch (error) {
			const reason = error instanceof Error ? error.message : 'no answer';
			throw new Error(
				`Could not reach the recruiting service at ${credentials.baseUrl as string} to log in (${reason}). Check the Base URL.`,
			);
		}
		const status = response.statusCode ?? 0;
		let body = response.body;
		if (typeof body === 'string' && body.trim().startsWith('{')) {
			try {
				body = JSON.parse(body);
			} catch {
				// not JSON: handled as "no token" below
			}
		}
		if (status === 401 || status === 403) {
			throw new Error(
				`Login failed: ${serviceText(body) ?? 'the service rejected the e-mail or password'} (HTTP ${status})`,
			);
		}
		if (status < 200 || status >= 300) {
			throw new Error(
				`Login failed with HTTP ${status}${serviceText(body) ? `: ${serviceText(body)}` : ''}. Check the Base URL.`,
			);
		}
		const tokenPath = typeof credentials.tokenPath === 'string' ? credentials.tokenPath : '';
		return { sessionToken: sealSessionToken(credentials, extractToken(body, response.headers, tokenPath)) };
	}

	authenticate: IAuthenticate = async (credentials, requestOptions) => {
		const headers: IDataObject = { ...(requestOptions.headers ?? {}) };
		const mode = authMode(credentials);
		if (mode === 'apiKey') {
			const header = String(credentials.apiKeyHeader ?? '').trim() || 'Authorization';
			const key = String(credentials.apiKey ?? '');
			headers[header] = header.toLowerCase() === 'authorization' ? `Bearer ${key}` : key;
		} else {
			const token = mode === 'accessToken' ? credentials.accessToken : openSessionToken(credentials);
			headers.Authorization = `Bearer ${String(token ?? '')}`;
		}
		return { ...requestOptions, headers };
	};

	test: ICredentialTestRequest = {
		request: {
			method: 'GET',
			url: '={{ $credentials.baseUrl.trim().replace(/\\/+$/, "") + ($credentials.authentication === "apiKey" ? "/v1/general/job-types" : "/v1/company/api-integrations") }}',
			headers: { Accept: 'application/json' },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The service rejected the token (HTTP 401). For an access token: it may have expired or been logged out. For e-mail and password: check them.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'The service answered 404: the Base URL does not point at the recruiting service (leave out any path).',
				},
			},
		],
	};
}
