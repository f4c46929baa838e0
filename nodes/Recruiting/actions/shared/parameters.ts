/**
 * Node parameters of one item, read once per node run where they cannot differ between items.
 *
 * n8n's `getNodeParameter` costs, on every call, a lookup of the parameter in the node's whole
 * description (with its display rules), a validation and a copy, besides evaluating expressions.
 * A parameter whose stored value holds no expression resolves to the same value for every item,
 * so it is read once per node run (the first successful read) and that value is returned for
 * every further item. A read that fails is never kept: each item then fails with its own error.
 *
 * Expressions that only read a field of the item, the mapping every spreadsheet or form
 * workflow writes (`{{ $json.email }}`, `{{ $json["First name"] }}`, `{{ $json.address.city }}`),
 * are read from the item directly, without n8n's expression engine, whose sandbox, data proxy
 * and Luxon clock cost more per item than the request itself: when the field is the item's own
 * and holds text, a number or a boolean, that is exactly what the engine answers (it returns a
 * whole-expression value as it is, and n8n's clean-up and validation leave such values alone
 * for this node, whose parameters have no `validateType`). Any other expression, or a field that
 * is missing or holds anything else (null, an object, a date), goes through `getNodeParameter`
 * as before. Inside a collection the same holds for each value.
 *
 * The values are shared between the items of a run: callers must not modify them (build new
 * objects instead, as `flattenRecord` and `wireInput` do). Kept in a WeakMap keyed by the
 * execution context, so nothing outlives the node run.
 */
import type { IExecuteFunctions, NodeParameterValueType } from 'n8n-workflow';

type Fallback = NodeParameterValueType | object;

/** Marks a value the direct reading cannot give: n8n's expression engine must evaluate the parameter. */
const ENGINE = Symbol('engine');

/** Reads a parameter's value for an item's json, or answers ENGINE. */
type Reader = (json: unknown) => unknown;

/**
 * Per node run: parameter name → its item-independent value, a direct reader, or the engine (per
 * item); `locators`: whether the stored value holds a resource locator to replace by its value.
 */
type Entry = ({ value: unknown } | { reader: Reader } | { engine: true }) & { locators: boolean };
const runs = new WeakMap<IExecuteFunctions, Map<string, Entry>>();

/** A resource locator's stored form (`{ __rl: true, mode, value }`, node version 1.2's list fields). */
const isLocator = (value: unknown): value is { value: unknown } =>
	typeof value === 'object' && value !== null && (value as { __rl?: unknown }).__rl === true && 'value' in value;

/** Whether a stored value holds a resource locator, at any depth. */
export function holdsLocator(value: unknown): boolean {
	if (isLocator(value)) return true;
	return typeof value === 'object' && value !== null && Object.values(value).some(holdsLocator);
}

/**
 * The value with every resource locator replaced by its value (the ID, the name typed or the
 * entry chosen from the list): the operations read a list field's value as before, and resolve
 * a name at run time as they always did. New objects; the value read is not changed.
 */
export function withoutLocators(value: unknown): unknown {
	if (isLocator(value)) return value.value;
	if (Array.isArray(value)) return value.map(withoutLocators);
	if (typeof value === 'object' && value !== null && holdsLocator(value)) {
		return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, withoutLocators(inner)]));
	}
	return value;
}

/** Whether a stored parameter value contains an expression (text starting with "="), at any depth. */
export function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (typeof value === 'object' && value !== null) return Object.values(value).some(holdsExpression);
	return false;
}

/** `={{ $json.a }}`, `={{ $json["a b"] }}`, `={{ $json.a['b'] }}`: a whole expression that reads a path of the item's json. */
// A quoted key holds no line terminator (LF, CR, U+2028, U+2029): n8n's engine refuses them as invalid syntax.
const FIELD_EXPRESSION = /^=\{\{\s*\$json((?:\.[A-Za-z_$][\w$]*|\[\s*(?:'[^'\\{}\n\r\u2028\u2029]*'|"[^"\\{}\n\r\u2028\u2029]*")\s*\])+)\s*\}\}$/;
const PATH_STEP = /\.([A-Za-z_$][\w$]*)|\[\s*(?:'([^']*)'|"([^"]*)")\s*\]/g;

/**
 * Names n8n's expression sandbox refuses to read (n8n-workflow's `isSafeObjectProperty`, and the
 * `.constructor` check), plus every name of Object.prototype and every name starting with "__":
 * such a path goes to the engine, which answers (or refuses) as it does.
 */
const SANDBOXED = new Set([
	'prototype',
	'constructor',
	'getPrototypeOf',
	'mainModule',
	'binding',
	'_linkedBinding',
	'_load',
	'prepareStackTrace',
	'caller',
	'arguments',
	'getBuiltinModule',
	'dlopen',
	'execve',
	'loadEnvFile',
]);
const plainKey = (key: string): boolean => !SANDBOXED.has(key) && !key.startsWith('__') && !(key in Object.prototype);

/** The path a field expression reads, or undefined for any other expression. */
export function fieldPath(expression: string): string[] | undefined {
	const match = FIELD_EXPRESSION.exec(expression);
	if (!match) return undefined;
	const path = [...match[1].matchAll(PATH_STEP)].map((step) => step[1] ?? step[2] ?? step[3]);
	return path.every(plainKey) ? path : undefined;
}

const own = (value: unknown, key: string): boolean => typeof value === 'object' && value !== null && Object.prototype.hasOwnProperty.call(value, key);

/** The item's own field at `path` when it holds text, a number or a boolean; else ENGINE. */
function readField(json: unknown, path: string[]): unknown {
	let value = json;
	for (const key of path) {
		if (!own(value, key)) return ENGINE;
		value = (value as Record<string, unknown>)[key];
	}
	return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : ENGINE;
}

/** A direct reader of a stored value (undefined when an expression in it needs the engine). */
export function directReader(stored: unknown): Reader | undefined {
	if (typeof stored === 'string' && stored.startsWith('=')) {
		const path = fieldPath(stored);
		return path ? (json) => readField(json, path) : undefined;
	}
	if (typeof stored !== 'object' || stored === null) return () => stored;
	const entries = Object.entries(stored).map(([key, inner]) => [key, directReader(inner)] as const);
	if (entries.some(([, reader]) => reader === undefined)) return undefined;
	const list = Array.isArray(stored);
	return (json) => {
		const out: Record<string, unknown> | unknown[] = list ? [] : {};
		for (const [key, reader] of entries) {
			const value = reader!(json);
			if (value === ENGINE) return ENGINE;
			if (list) (out as unknown[]).push(value);
			else (out as Record<string, unknown>)[key] = value;
		}
		return out;
	};
}

/**
 * `context.getNodeParameter(name, itemIndex, fallback)`, read once per node run when the stored
 * value holds no expression, and read from the item when its expressions only read fields of
 * the item. Read a given name always with the same fallback.
 */
export function itemParameter<T = unknown>(context: IExecuteFunctions, name: string, itemIndex: number, fallback: Fallback): T {
	let known = runs.get(context);
	if (!known) {
		known = new Map();
		runs.set(context, known);
	}
	let entry = known.get(name);
	if (entry === undefined) {
		const raw = context.getNodeParameter(name, itemIndex, fallback as NodeParameterValueType, { rawExpressions: true });
		const locators = holdsLocator(raw);
		const reader = holdsExpression(raw) ? directReader(raw) : undefined;
		if (!holdsExpression(raw)) entry = { value: undefined, locators };
		else entry = reader ? { reader, locators } : { engine: true, locators };
		if ('value' in entry) entry.value = plain(context.getNodeParameter(name, itemIndex, fallback as NodeParameterValueType), locators);
		known.set(name, entry);
	}
	if ('value' in entry) return entry.value as T;
	const read = () => plain(context.getNodeParameter(name, itemIndex, fallback as NodeParameterValueType), entry.locators) as T;
	if ('engine' in entry) return read(); // expressions the engine evaluates, per item
	const value = entry.reader(context.getInputData()[itemIndex]?.json);
	return value === ENGINE ? read() : (plain(value, entry.locators) as T);
}

const plain = (value: unknown, locators: boolean): unknown => (locators ? withoutLocators(value) : value);
