/**
 * Dropdown loaders, fed by the service's reference lists (through the same transport and
 * list fetchers as the operations). A failure reaches the editor as a readable message.
 */
import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ListLanguage, ReferenceListKind } from '../actions/common/referenceLists';
import { fetchList } from '../actions/common/referenceLists';
import { TransportSession } from '../transport';

async function load(context: ILoadOptionsFunctions, kind: ReferenceListKind, lang: ListLanguage = 'de') {
	try {
		return await fetchList(context, new TransportSession({ maxRetries: 1, initialDelayMs: 500 }), kind, lang);
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		throw new NodeOperationError(context.getNode(), `Could not load the list from the recruiting service: ${message}`);
	}
}

function jobLanguage(context: ILoadOptionsFunctions): ListLanguage {
	const fields = context.getCurrentNodeParameter('additionalFields') as IDataObject | undefined;
	return fields?.lang === 'en' ? 'en' : 'de';
}

export async function getJobTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const list = await load(this, 'jobTypes');
	return list.map((entry) => ({
		name: entry.name_eng === entry.name_ger ? String(entry.name_eng) : `${String(entry.name_eng)} (${String(entry.name_ger)})`,
		value: entry.id as number,
	}));
}

export async function getUniversityDegrees(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const list = await load(this, 'universityDegrees');
	return list.map((entry) => ({ name: String(entry.value), value: entry.id as number }));
}

export async function getLanguages(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const list = await load(this, 'languageSkills');
	return list.map((entry) => ({ name: String(entry.value), value: entry.id as number }));
}

/** Every division and every area; the value is the name, which is what the service takes. */
export async function getBusinessAreas(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const list = await load(this, 'businessAreas', jobLanguage(this));
	const options: INodePropertyOptions[] = [];
	for (const division of list) {
		const name = String(division.name);
		options.push({ name, value: name, description: 'Division' });
		for (const area of (division.area as IDataObject[] | undefined) ?? []) {
			options.push({ name: `${name} › ${String(area.name)}`, value: String(area.name), description: `Area of ${name}` });
		}
	}
	return options;
}
