import type {
	IAuthenticate,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { authenticateRequest, logIn } from '../nodes/Recruiting/transport/auth';

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
