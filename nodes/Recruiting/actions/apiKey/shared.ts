import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** One API integration as output: its `id` and its `value` (the key itself, a secret). */
export function toApiKey(this: IExecuteFunctions, entry: unknown, what: string, itemIndex: number): IDataObject {
	if (typeof entry !== 'object' || entry === null || Array.isArray(entry) || (entry as IDataObject).id === undefined) {
		throw new NodeApiError(
			this.getNode(),
			{ message: `The service answered ${what} without an API integration` },
			{ message: `The service answered ${what} without an API integration ({ id, value }) in "data"`, itemIndex },
		);
	}
	const { id, value } = entry as IDataObject;
	return { id, value };
}
