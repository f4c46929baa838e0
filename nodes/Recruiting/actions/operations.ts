/** Every resource and its operations, as the router finds them. */
import type { OperationModule } from './context';
import * as apiKey from './apiKey';
import * as candidate from './candidate';
import * as candidateAdditionalInfo from './candidateAdditionalInfo';
import * as candidateItSkill from './candidateItSkill';
import * as candidateJob from './candidateJob';
import * as candidateLanguage from './candidateLanguage';
import * as candidateUniversity from './candidateUniversity';
import * as referenceList from './referenceList';
import * as session from './session';

export const resources = {
	candidate,
	candidateJob,
	candidateUniversity,
	candidateItSkill,
	candidateLanguage,
	candidateAdditionalInfo,
	apiKey,
	referenceList,
	session,
};

export const operations: Record<string, Record<string, OperationModule>> = Object.fromEntries(
	Object.entries(resources).map(([name, resource]) => [name, resource.operations]),
);
