/**
 * A nock service with a login and Update (issue 40, 48): each login issues a new token, `login`
 * may answer instead (a refusal); an update is answered 401 when its token is not live or
 * `refused(slug)` says so, else 200. `issued` counts the logins that issued a token; `kill()` ends
 * every live session.
 */
import nock from 'nock';

type Reply = [number, Record<string, unknown>, Record<string, string>?];

export interface SessionService {
	readonly issued: number;
	readonly served: number;
	kill(): void;
	done(): void;
}

export function sessionService(base: string, email: string, options: { refused?: (slug: string) => boolean; login?: (issued: number) => Reply | undefined; afterServed?: (served: number, service: SessionService) => void } = {}): SessionService {
	const live = new Set<string>();
	const state = { issued: 0, served: 0 };
	const service: SessionService = {
		get issued() {
			return state.issued;
		},
		get served() {
			return state.served;
		},
		kill: () => live.clear(),
		done: () => scope.persist(false),
	};
	const scope = nock(base)
		.persist()
		.post('/v1/login')
		.reply(() => {
			const refusal = options.login?.(state.issued);
			if (refusal) return refusal;
			state.issued += 1;
			const token = `tok-${state.issued}`;
			live.add(token);
			return [200, { message: 'Signed in', status: 200, data: { id: 7, email, token } }];
		})
		.put('/gin/v1/company/candidate')
		.reply(function (_uri, body) {
			const token = String(this.req.headers.authorization).replace(/^Bearer /, '');
			if (!live.has(token) || options.refused?.(String((body as { user_slug?: string }).user_slug)) === true) return [401, { message: 'Not authorized', status: 401 }];
			state.served += 1;
			options.afterServed?.(state.served, service);
			return [200, { message: 'Updated', status: 200 }];
		});
	return service;
}

/** Candidate → Update of `{{ $json.slug }}` (city Berlin), Fixed at `concurrency` requests at once. */
export const updateParameters = (concurrency: number) => ({
	resource: 'candidate',
	operation: 'update',
	candidateSlug: '={{ $json.slug }}',
	updateFields: { city: 'Berlin' },
	options: { retryDelayMs: 1, concurrencyMode: 'fixed', concurrency },
});
