/**
 * Every sub-record of a candidate. A new one is a spec file in `specs/` and one line here: its
 * resource and Add operation, its part of Candidate → Import and the sandbox's route follow.
 */
import type { ResourceDefinition } from '../context';
import type { RecordKind } from './addOperation';
import { addOperation, recordResource } from './addOperation';
import type { RecordSpec } from './spec';
import { additionalInfo } from './specs/additionalInfo';
import { itSkill } from './specs/itSkill';
import { job } from './specs/job';
import { language } from './specs/language';
import { university } from './specs/university';

/** In the order of the editor's parameters, of Import's fields and of the records Import adds. */
export const RECORD_SPECS: readonly RecordSpec[] = [
	job,
	university,
	itSkill,
	language,
	additionalInfo,
];

export const RECORD_KINDS: readonly RecordKind[] = RECORD_SPECS.map(addOperation);

export const RECORD_RESOURCES: readonly ResourceDefinition[] = RECORD_KINDS.map(recordResource);

export type { RecordKind } from './addOperation';
export type { RecordField, RecordSpec } from './spec';
