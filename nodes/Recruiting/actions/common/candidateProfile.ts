/**
 * The candidate's own fields, described once and shared by every operation that sends them:
 * `candidate.create` (email, phone as parameters; source, employee in "Additional Fields"),
 * `candidate.update` (all of them in "Update Fields") and `candidate.import`. Each operation
 * picks a layout (which fields are top-level parameters, which sit in which collection); the
 * same layout gives its parameters, reads one item's values and validates them into the wire
 * body.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { BIRTHDAY_ORDER } from './dates';
import { itemParameter } from './parameters';
import { DATE_FORMS, DATE_PLACEHOLDER } from './recordFields';
import { boolean, date, email, isEmpty, phone, text } from './validation';

interface CandidateFieldSpec {
	/** Field name in the service's request body. */
	wire: string;
	/** The field's validation and conversion to the wire value. */
	schema: () => z.ZodTypeAny;
	/** The parameter, without displayOptions. */
	property: INodeProperties;
}

const CANDIDATE_FIELDS = {
	birthday: {
		wire: 'birthday',
		schema: () => date(BIRTHDAY_ORDER),
		property: {
			displayName: 'Birthday',
			name: 'birthday',
			type: 'string',
			default: '',
			placeholder: DATE_PLACEHOLDER,
			description: `Date of birth. ${DATE_FORMS} Always sent as DD-MM-YYYY.`,
		},
	},
	city: {
		wire: 'city',
		schema: () => text(),
		property: { displayName: 'City', name: 'city', type: 'string', default: '', description: 'City the candidate lives in' },
	},
	email: {
		wire: 'email',
		schema: () => email(),
		property: {
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			description:
				'E-mail address of the candidate. Creating a candidate needs an e-mail address or a phone number (or both).',
		},
	},
	emailPreference: {
		wire: 'email_preference',
		schema: () => boolean(),
		property: {
			displayName: 'Email Preference',
			name: 'emailPreference',
			type: 'boolean',
			default: false,
			description: 'Whether the candidate agrees to be contacted by e-mail',
		},
	},
	employee: {
		wire: 'employee',
		schema: () => boolean(),
		property: {
			displayName: 'Employee',
			name: 'employee',
			type: 'boolean',
			default: false,
			description: 'Whether the person is an employee of the company rather than a candidate',
		},
	},
	firstName: {
		wire: 'first_name',
		schema: () => text(),
		property: { displayName: 'First Name', name: 'firstName', type: 'string', default: '', description: 'Given name of the candidate' },
	},
	lastName: {
		wire: 'last_name',
		schema: () => text(),
		property: { displayName: 'Last Name', name: 'lastName', type: 'string', default: '', description: 'Family name of the candidate' },
	},
	phone: {
		wire: 'phone',
		schema: () => phone(),
		property: {
			displayName: 'Phone',
			name: 'phone',
			type: 'string',
			default: '',
			placeholder: 'e.g. +49 151 23456789',
			description:
				'Phone number of the candidate, national or international. Creating a candidate needs a phone number or an e-mail address (or both).',
		},
	},
	smsPreference: {
		wire: 'sms_preference',
		schema: () => boolean(),
		property: {
			displayName: 'SMS Preference',
			name: 'smsPreference',
			type: 'boolean',
			default: false,
			description: 'Whether the candidate agrees to be contacted by SMS',
		},
	},
	source: {
		wire: 'source',
		schema: () => text(),
		property: {
			displayName: 'Source',
			name: 'source',
			type: 'string',
			default: '',
			description: 'Where the candidate comes from, as free text (e.g. "Careers page form", "Job fair")',
		},
	},
	street: {
		wire: 'street',
		schema: () => text(),
		property: {
			displayName: 'Street',
			name: 'street',
			type: 'string',
			default: '',
			description: 'Street and house number of the candidate\'s address',
		},
	},
	whatsappPreference: {
		wire: 'whatsapp_preference',
		schema: () => boolean(),
		property: {
			displayName: 'WhatsApp Preference',
			name: 'whatsappPreference',
			type: 'boolean',
			default: false,
			description: 'Whether the candidate agrees to be contacted on WhatsApp',
		},
	},
	zipCode: {
		wire: 'zip_code',
		schema: () => text(),
		property: {
			displayName: 'Zip Code',
			name: 'zipCode',
			type: 'string',
			default: '',
			description: 'Postal code of the candidate\'s address; always sent as text (a number such as 10119 becomes "10119")',
		},
	},
} satisfies Record<string, CandidateFieldSpec>;

/** A candidate field, by its parameter name. */
export type CandidateField = keyof typeof CANDIDATE_FIELDS;

/** The fields `candidate.create` sends. */
export const CANDIDATE_CREATE_FIELDS: CandidateField[] = ['email', 'phone', 'source', 'employee'];

/** The fields `candidate.update` sends (besides `user_slug`). */
export const CANDIDATE_UPDATE_FIELDS: CandidateField[] = [
	'email',
	'firstName',
	'lastName',
	'city',
	'street',
	'zipCode',
	'phone',
	'birthday',
	'whatsappPreference',
	'smsPreference',
	'emailPreference',
];

/** Where an operation puts the candidate fields it offers. */
export interface CandidateFieldLayout {
	/** Fields that are top-level parameters, in this order. */
	topLevel?: CandidateField[];
	/** Fields inside one collection (sorted by display name in the editor). */
	collection?: {
		name: string;
		displayName: string;
		placeholder?: string;
		fields: CandidateField[];
	};
}

/** Every field of a layout, top-level first. */
export function layoutFields(layout: CandidateFieldLayout): CandidateField[] {
	return [...(layout.topLevel ?? []), ...(layout.collection?.fields ?? [])];
}

/** The parameters of a layout, shown for `resource` / `operation`. */
export function candidateFieldProperties(
	resource: string,
	operation: string,
	layout: CandidateFieldLayout,
): INodeProperties[] {
	const displayOptions = { show: { resource: [resource], operation: [operation] } };
	const properties: INodeProperties[] = (layout.topLevel ?? []).map((name) => ({
		...CANDIDATE_FIELDS[name].property,
		displayOptions,
	}));
	if (layout.collection) {
		const { name, displayName, placeholder, fields } = layout.collection;
		properties.push({
			displayName,
			name,
			type: 'collection',
			placeholder: placeholder ?? 'Add Field',
			default: {},
			displayOptions,
			options: fields
				.map((field) => CANDIDATE_FIELDS[field].property)
				.sort((a, b) => a.displayName.localeCompare(b.displayName)),
		});
	}
	return properties;
}

/** The zod shape of a layout's fields, keyed by wire field: raw value → wire value (or left out). */
export function candidateShape(fields: CandidateField[]): Record<string, z.ZodTypeAny> {
	return Object.fromEntries(fields.map((field) => [CANDIDATE_FIELDS[field].wire, CANDIDATE_FIELDS[field].schema()]));
}

/** Wire field → display name, for error messages. */
export function candidateLabels(fields: CandidateField[]): Record<string, string> {
	return Object.fromEntries(
		fields.map((field) => [CANDIDATE_FIELDS[field].wire, CANDIDATE_FIELDS[field].property.displayName]),
	);
}

/** Wire field name of a candidate field. */
export function candidateWireName(field: CandidateField): string {
	return CANDIDATE_FIELDS[field].wire;
}

/**
 * One item's raw values of a layout's fields, keyed by wire field: top-level parameters
 * always, collection fields only when the user added them. Validate with `candidateShape`.
 * Parameters without an expression are read once per node run (`itemParameter`).
 */
export function readCandidateFields(context: IExecuteFunctions, itemIndex: number, layout: CandidateFieldLayout): IDataObject {
	const input: IDataObject = {};
	for (const field of layout.topLevel ?? []) {
		input[CANDIDATE_FIELDS[field].wire] = itemParameter<IDataObject[string]>(context, field, itemIndex, '');
	}
	if (layout.collection) {
		const values = itemParameter<IDataObject>(context, layout.collection.name, itemIndex, {});
		for (const field of layout.collection.fields) {
			if (field in values) input[CANDIDATE_FIELDS[field].wire] = values[field];
		}
	}
	return input;
}

/**
 * Refinement of a creation body: at least one of e-mail and phone (the service's rule).
 * Use as `z.object(candidateShape(fields)).superRefine(requirePhoneOrEmail)`.
 */
export function requirePhoneOrEmail(body: { email?: unknown; phone?: unknown }, ctx: z.RefinementCtx): void {
	if (isEmpty(body.email) && isEmpty(body.phone)) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['email'],
			message: 'or "Phone" is required: give at least one of them',
		});
	}
}
