/**
 * The credential's connection test, run the way n8n's server runs a declarative test
 * (packages/cli/src/services/credentials-tester.service.ts): the test request becomes the
 * routing of a temporary node, n8n-core's RoutingNode sends it through
 * httpRequestWithAuthentication (so preAuthentication and authenticate apply), a thrown HTTP
 * error is matched against the `responseCode` rules, any other error fails, and anything else
 * passes. Used against the sandbox (test/service/credentialTest.test.ts) and nock.
 */
import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestRequest,
	INode,
	INodeCredentialTestResult,
	INodeType,
	INodeTypes,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import get from 'lodash/get';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { TestCredentialsHelper } from './harness';

const credentialType = new RecruitingApi();

/** n8n's CredentialsTester.testCredentials for a declarative test, step by step. */
export async function testCredential(
	data: ICredentialDataDecryptedObject,
	testRequest: ICredentialTestRequest = credentialType.test,
): Promise<INodeCredentialTestResult> {
	const helper = new TestCredentialsHelper();
	helper.setCredential('cred-test', data);
	const nodeType: INodeType = {
		description: {
			displayName: 'Temp',
			name: 'temp',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: [],
			outputs: [],
			credentials: [{ name: 'recruitingApi', required: true }],
			properties: [{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: testRequest.request }, default: '' }],
		},
	};
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType as INodeType | IVersionedNodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'temp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { recruitingApi: { id: 'cred-test', name: 'Recruiting API' } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = { credentialsHelper: helper, variables: {} } as unknown as IWorkflowExecuteAdditionalData;
	const runExecutionData = { resultData: { runData: {} } } as unknown as IRunExecutionData;
	const context = new ExecuteContext(workflow, node, additionalData, 'internal', runExecutionData, 0, [], { main: [[{ json: {} }]] }, { node, data: {}, source: null }, []);
	const decrypted: ICredentialsDecrypted = {
		id: 'cred-test',
		name: 'Recruiting API',
		type: 'recruitingApi',
		data: await helper.getDecrypted(additionalData, { id: 'cred-test', name: 'Recruiting API' }, 'recruitingApi'),
	};
	let response: Awaited<ReturnType<RoutingNode['runNode']>>;
	try {
		response = await new RoutingNode(context, nodeType, decrypted).runNode();
	} catch (error) {
		// n8n reads the status from the axios error in `error.cause`. Under jest, n8n-workflow's
		// `instanceof Error` check misses the axios error (it comes from another realm), so the
		// NodeApiError carries no cause; its httpCode holds the same status.
		type Failure = { response?: { status: number; statusText?: string }; code?: string };
		const failed = error as { cause?: Failure; httpCode?: string | null };
		const cause = failed.cause;
		const status = cause?.response?.status ?? (failed.httpCode ? Number(failed.httpCode) : undefined);
		if (status !== undefined) {
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			return { status: 'Error', message: cause?.response?.statusText || `Received HTTP status code: ${status}` };
		}
		if (cause?.code) return { status: 'Error', message: cause.code };
		return { status: 'Error', message: (error as Error).message };
	}
	for (const rule of testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody' && get(response?.[0]?.[0]?.json, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
