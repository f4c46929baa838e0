/**
 * The pace each service showed, kept per process so that the next node run against it starts
 * where the last one ended instead of from 10 (Linux keeps each destination's slow-start threshold
 * and round-trip time for its next connections the same way: tcp_metrics). A node run that ends
 * leaves its controller's `Pace` here under its service scope (service address, sign-in mode,
 * login and n8n credential, hashed: `memory/keys.ts` `paceScope`); the next run of any workflow
 * in this process against that scope starts from it.
 *
 * What is kept is not a secret and not about any row: a number of requests in flight, whether slow
 * start was still on, the service's idle latency and, once it throttled, a send rate. Bounded:
 * `MAX_PACES` scopes (the least recently used go), each forgotten `PACE_TTL_MS` after it was left
 * (a service's pace changes; an old one is not trusted). In queue mode each worker keeps its own:
 * a worker that has none starts as before, at 10, and learns.
 */
import type { Controller, Pace } from './controller';

export const MAX_PACES = 64;

export const PACE_TTL_MS = 10 * 60 * 1000;

/** The named exception of `scripts/queue/module-state.mjs`: per process, by service scope. */
const paces = new Map<string, { pace: Pace; at: number }>();

/** Starts `controller` from the pace last left under `scope`, if one was left within `PACE_TTL_MS`. */
export function resumePace(scope: string, controller: Controller, now = Date.now()): boolean {
	const kept = paces.get(scope);
	if (!kept) return false;
	paces.delete(scope);
	if (now - kept.at > PACE_TTL_MS) return false;
	paces.set(scope, kept);
	controller.resume(kept.pace);
	return true;
}

/** Leaves the pace `controller` ended with under `scope` (a fixed controller leaves nothing). */
export function keepPace(scope: string, controller: Controller, now = Date.now()): void {
	const pace = controller.pace();
	if (!pace) return;
	paces.delete(scope);
	paces.set(scope, { pace, at: now });
	for (const oldest of paces.keys()) {
		if (paces.size <= MAX_PACES) break;
		paces.delete(oldest);
	}
}

/** The paces kept now, oldest first (tests: what a run read of its service). */
export function pacesKept(): Pace[] {
	return [...paces.values()].map(({ pace }) => pace);
}

/** Forgets every pace (tests). */
export function forgetPaces(): void {
	paces.clear();
}
