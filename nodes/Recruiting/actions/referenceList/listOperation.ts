/**
 * Builds a Reference List operation: GET one list (with `lang` where the service takes it)
 * and return one output item per element. The four list operations differ only in the list.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OperationModule, RunContext } from '../context';
import { optionsCollection } from '../shared/options';
import type { ListLanguage, ReferenceListKind } from '../../referenceData/lists';
import { REFERENCE_LISTS, fetchList, languageCode } from '../../referenceData/lists';
import { quote } from '../../referenceData/names';

export const langField = (operation: string): INodeProperties => ({
	displayName: 'Language',
	name: 'lang',
	type: 'options',
	options: [
		{ name: 'German', value: 'de' },
		{ name: 'English', value: 'en' },
	],
	default: 'de',
	description: 'Language of the names in the list',
	displayOptions: { show: { resource: ['referenceList'], operation: [operation] } },
});

export function listOperation(operation: string, kind: ReferenceListKind): OperationModule {
	const description: INodeProperties[] = [];
	if (REFERENCE_LISTS[kind].takesLang) description.push(langField(operation));
	description.push(optionsCollection('referenceList', operation));

	async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<IDataObject[]> {
		let lang: ListLanguage = 'de';
		if (REFERENCE_LISTS[kind].takesLang) {
			const given = this.getNodeParameter('lang', itemIndex, 'de');
			const code = languageCode(given);
			if (code === undefined) {
				throw new NodeOperationError(this.getNode(), `"Language": ${quote(given)} is not a language of the lists: give "de" or "en"`, { itemIndex });
			}
			lang = code;
		}
		return await fetchList(this, run.session, kind, lang, itemIndex);
	}

	return { description, execute };
}
