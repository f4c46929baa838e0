/**
 * What the node's own creations leave for n8n's "Retry On Fail". That setting runs the whole
 * node again, with the same input, when a try fails (n8n-core's WorkflowExecute calls runNode
 * once per try with the same run execution data). Everything a try created would be sent
 * again, and the service cannot tell a duplicate. So every creation is written, the moment the
 * service confirms it, into the node's context (`getContext('node')`, which n8n keeps in the
 * run execution data for the whole execution, across tries), and a later try of the same node
 * run finds it there and skips the request, answering with the slug the first try received.
 *
 * An entry is keyed by the node run (`$runIndex`: a node that runs again in a loop starts
 * afresh) and the item index, and holds a fingerprint of the item's input (its JSON and the
 * operation): it counts only for the very same input, never for another item that took its
 * place. It holds slugs and record positions, nothing secret.
 */
import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The message of a record an earlier try added: it is not sent again. */
export const ADDED_BY_EARLIER_TRY = 'Added by an earlier try of this node (Retry On Fail); not sent again';
/** The same, when the earlier try sent the record with other values than this try's (an expression that reads the clock, say). */
export const ADDED_OTHERWISE_BY_EARLIER_TRY =
	'Added by an earlier try of this node (Retry On Fail) with other values than the ones shown here (this try\'s); not sent again, so that the candidate does not get it twice';

/** The key in the node context under which the entries live. */
export const RETRY_MEMORY_KEY = 'recruitingCreations';

/** What an earlier try of this node run created for one item. */
export interface CreatedBefore {
	/** Fingerprint of the item's input: the entry counts only for this input. */
	input: string;
	/** The candidate it created. */
	slug?: string;
	/** Whom it created: the e-mail and phone it sent (an expression may give another person in a later try). */
	whom?: string;
	/** The records it added (Import: "job 2 Acme"; an Add operation: "add <slug> <name>"), see `recordAdded`. */
	records?: string[];
	/** A print of each record's values as it was sent, by its name in `records`. */
	prints?: Record<string, string>;
	/** What it sent without an answer (the service may have stored it), named as in `records`: a later try does not send it again. */
	unanswered?: string[];
	/** Create or Update: what it did to the row (`created`, `updated`), to which candidate, and the fields that say it (see `afterTries`). */
	done?: { action: string; slug: string; updatedFields?: unknown; profileUpdated?: unknown };
}

type Store = Record<string, CreatedBefore>;

const printOf = (values: IDataObject): string => createHash('sha256').update(JSON.stringify(values)).digest('hex').slice(0, 16);

function fingerprint(context: IExecuteFunctions, itemIndex: number): string {
	const item = context.getInputData()[itemIndex];
	const operation = `${String(context.getNodeParameter('resource', 0))}.${String(context.getNodeParameter('operation', 0))}`;
	let input: string;
	try {
		input = JSON.stringify([operation, item?.json ?? null]);
	} catch {
		input = JSON.stringify([operation, 'unreadable input']);
	}
	return createHash('sha256').update(input).digest('hex').slice(0, 32);
}

/** One node run's view of the entries: build once per run (`RunContext.once`), ask per item. */
export class RetryMemory {
	private readonly store: Store;
	private readonly run: string;
	private readonly inputs = new Map<number, string>();

	/** Whether the node has "Retry On Fail": without it nothing runs the node again, and nothing is noted. */
	private readonly active: boolean;

	/** @param readOnly a dry run's: it reads a copy of what earlier tries noted and notes nothing. */
	constructor(
		private readonly context: IExecuteFunctions,
		readOnly = false,
	) {
		const retried = context.getNode().retryOnFail === true;
		this.active = retried && !readOnly;
		const nodeContext = retried ? context.getContext('node') : {};
		const existing = nodeContext[RETRY_MEMORY_KEY] as Store | undefined;
		this.store = readOnly ? (JSON.parse(JSON.stringify(existing ?? {})) as Store) : (existing ?? {});
		if (!existing && !readOnly) nodeContext[RETRY_MEMORY_KEY] = this.store;
		this.run = retried ? String(context.getWorkflowDataProxy(0).$runIndex ?? 0) : '0';
	}

	private input(itemIndex: number): string {
		let known = this.inputs.get(itemIndex);
		if (known === undefined) {
			known = fingerprint(this.context, itemIndex);
			this.inputs.set(itemIndex, known);
		}
		return known;
	}

	private key(itemIndex: number): string {
		return `${this.run}:${itemIndex}`;
	}

	/** The item's entry, when an earlier try of this node run left one for this very input. */
	private entry(itemIndex: number): CreatedBefore | undefined {
		const found = this.store[this.key(itemIndex)];
		return found && found.input === this.input(itemIndex) ? found : undefined;
	}

	/** The item's entry, created (for this input) when missing or left by another input. */
	private own(itemIndex: number): CreatedBefore {
		let found = this.entry(itemIndex);
		if (!found) {
			found = { input: this.input(itemIndex) };
			this.store[this.key(itemIndex)] = found;
		}
		return found;
	}

	/** The slug of the candidate an earlier try created for this item, if any, when it was created for the same e-mail and phone. */
	createdSlug(itemIndex: number, whom: string): string | undefined {
		const entry = this.entry(itemIndex);
		return entry?.whom === undefined || entry.whom === whom ? entry?.slug : undefined;
	}

	/** Notes the candidate this try created for the item, and for whom (`whomOf` its creation's body). */
	created(itemIndex: number, slug: string, whom: string): void {
		if (!this.active) return;
		Object.assign(this.own(itemIndex), { slug, whom });
	}

	/** When an earlier try added the record `record` (e.g. "job 2 Acme <slug>") for this item, the message that says so (with `values`, this try's). */
	recordAdded(itemIndex: number, record: string, values: IDataObject): string | undefined {
		const entry = this.entry(itemIndex);
		if (entry?.records?.includes(record) !== true) return undefined;
		const print = entry.prints?.[record];
		return print === undefined || print === printOf(values) ? ADDED_BY_EARLIER_TRY : ADDED_OTHERWISE_BY_EARLIER_TRY;
	}

	/**
	 * Create or Update's output of a row as this execution's tries left it together. A row an earlier
	 * try created or updated is `unchanged` for the next (n8n reruns the node when its first item
	 * failed, and only the last try's output goes on): it says what the execution did instead.
	 */
	afterTries(itemIndex: number, output: IDataObject): IDataObject {
		const action = String(output.action);
		const slug = typeof output.slug === 'string' ? output.slug : undefined;
		const earlier = this.entry(itemIndex)?.done;
		if (earlier && earlier.slug === slug && (action === 'unchanged' || (action === 'updated' && earlier.action === 'created'))) {
			const then = action === 'unchanged' ? 'nothing more to send' : `then: ${String(output.message)}`;
			const message = `${earlier.action === 'created' ? 'Created' : 'Updated'} by an earlier try of this execution (Retry On Fail ran the node again); ${then}`;
			return { ...output, ...this.earlierFields(earlier, output), action: earlier.action, message };
		}
		if (action === 'failed' || action.startsWith('partly')) {
			const partial = { ...output };
			this.afterFailedTry(itemIndex, partial);
			return partial;
		}
		if (action === 'created' || action === 'updated') this.note(itemIndex, action, output);
		return output;
	}

	private note(itemIndex: number, action: string, output: IDataObject): void {
		if (!this.active || typeof output.slug !== 'string') return;
		this.own(itemIndex).done = { action, slug: output.slug, updatedFields: output.updatedFields, profileUpdated: output.profileUpdated };
	}

	/** Whether an earlier try of this node run created or updated the item's row. */
	didEarlier(itemIndex: number): boolean {
		return this.entry(itemIndex)?.done !== undefined;
	}

	/** The same for a row that failed in this try: its partial output says what an earlier try did (`partly created`, `partly updated`). */
	afterFailedTry(itemIndex: number, partial: IDataObject | undefined): void {
		const earlier = this.entry(itemIndex)?.done;
		if (!earlier && partial && typeof partial.slug === 'string' && (partial.action === 'partly created' || partial.action === 'partly updated')) {
			this.note(itemIndex, partial.action === 'partly created' ? 'created' : 'updated', partial);
		}
		if (!earlier || !partial || (partial.slug !== undefined && partial.slug !== earlier.slug)) return;
		const action = String(partial.action);
		if (earlier.action === 'created' && (action === 'failed' || action === 'partly updated')) partial.action = 'partly created';
		else if (earlier.action === 'updated' && action === 'failed') partial.action = 'partly updated';
		else return;
		Object.assign(partial, this.earlierFields(earlier, partial), { slug: earlier.slug });
	}

	private earlierFields(earlier: NonNullable<CreatedBefore['done']>, output: IDataObject): IDataObject {
		const fields = [...new Set([...(Array.isArray(earlier.updatedFields) ? earlier.updatedFields : []), ...(Array.isArray(output.updatedFields) ? output.updatedFields : [])])];
		return {
			...(earlier.action === 'created' ? { created: true } : {}),
			...(earlier.profileUpdated === true || output.profileUpdated === true ? { profileUpdated: true } : {}),
			...(fields.length > 0 ? { updatedFields: fields } : {}),
		};
	}

	/**
	 * Sends a creation (`note` names it as in `records`) at most once across the tries of the node run: one an earlier try
	 * sent without an answer (`context.mayExist`) fails again, not sent, since the service may have stored it. A record
	 * (`record`: the values sent) is noted as added once the service confirms it (see `recordAdded`).
	 */
	async sendOnce<T>(itemIndex: number, note: string, send: () => Promise<T>, record?: IDataObject): Promise<T> {
		if (this.entry(itemIndex)?.unanswered?.includes(note) === true) throw sentWithoutAnswer(this.context, itemIndex);
		// The send's own error goes on as it is (the transport's NodeApiError); only its outcome is noted.
		const sent = await send().catch((error: unknown) => {
			if (this.active && (error as { context?: IDataObject }).context?.mayExist === true) {
				const entry = this.own(itemIndex);
				entry.unanswered = [...(entry.unanswered ?? []), note];
			}
			throw error;
		});
		if (record !== undefined && this.active) {
			const entry = this.own(itemIndex);
			entry.records = [...(entry.records ?? []), note];
			entry.prints = { ...entry.prints, [note]: printOf(record) };
		}
		return sent;
	}
}

function sentWithoutAnswer(context: IExecuteFunctions, itemIndex: number): NodeOperationError {
	const error = new NodeOperationError(context.getNode(), 'An earlier try of this node (Retry On Fail) sent this and got no answer: the service may or may not have stored it', {
		itemIndex,
		description: 'Not sent again, so that it cannot be created twice. Check whether it exists before running the item again.',
	});
	error.context.mayExist = true;
	return error;
}

/** A node run's RetryMemory, built once per run. */
export async function retryMemory(
	context: IExecuteFunctions,
	run: { once<T>(key: string, work: () => Promise<T>): Promise<T> },
): Promise<RetryMemory> {
	return await run.once('retryMemory', async () => new RetryMemory(context));
}

/** A dry run's RetryMemory (read-only), in the run's slot, so that the operation asks this one. */
export async function readOnlyRetryMemory(
	context: IExecuteFunctions,
	run: { once<T>(key: string, work: () => Promise<T>): Promise<T> },
): Promise<RetryMemory> {
	return await run.once('retryMemory', async () => new RetryMemory(context, true));
}
