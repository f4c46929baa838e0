/**
 * Node parameters of one item, read once per node run where they cannot differ between items.
 *
 * n8n's `getNodeParameter` costs, on every call, a lookup of the parameter in the node's whole
 * description (with its display rules), a validation and a copy, besides evaluating expressions.
 * A parameter whose stored value holds no expression resolves to the same value for every item,
 * so it is read once per node run (the first successful read) and that value is returned for
 * every further item. Parameters with an expression anywhere inside are read per item as
 * before. A read that fails is never kept: each item then fails with its own error.
 *
 * The values are shared between the items of a run: callers must not modify them (build new
 * objects instead, as `flattenRecord` and `wireInput` do). Kept in a WeakMap keyed by the
 * execution context, so nothing outlives the node run.
 */
import type { IExecuteFunctions, NodeParameterValueType } from 'n8n-workflow';

type Fallback = NodeParameterValueType | object;

/** Per node run: parameter name → its item-independent value, or `undefined` if it has expressions. */
const runs = new WeakMap<IExecuteFunctions, Map<string, { value: unknown } | undefined>>();

/** Whether a stored parameter value contains an expression (text starting with "="), at any depth. */
export function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (typeof value === 'object' && value !== null) return Object.values(value).some(holdsExpression);
	return false;
}

/**
 * `context.getNodeParameter(name, itemIndex, fallback)`, read once per node run when the stored
 * value holds no expression. Read a given name always with the same fallback.
 */
export function itemParameter<T = unknown>(context: IExecuteFunctions, name: string, itemIndex: number, fallback: Fallback): T {
	let known = runs.get(context);
	if (!known) {
		known = new Map();
		runs.set(context, known);
	}
	const cached = known.get(name);
	if (cached) return cached.value as T;
	const read = () => context.getNodeParameter(name, itemIndex, fallback as NodeParameterValueType) as T;
	if (known.has(name)) return read(); // holds an expression: per item
	const raw = context.getNodeParameter(name, itemIndex, fallback as NodeParameterValueType, { rawExpressions: true });
	if (holdsExpression(raw)) {
		known.set(name, undefined);
		return read();
	}
	const value = read();
	known.set(name, { value });
	return value;
}
