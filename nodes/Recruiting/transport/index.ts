/**
 * The only code that speaks HTTP to the recruiting service.
 *
 * - `request.ts`: `apiRequest`, the loop of send → classify → decide; `attempt.ts`: one attempt;
 * - `pages.ts`: `apiList`, a list over every page the service says it has;
 * - `execution.ts`: what one execution's requests share (`TransportSession`);
 * - `session.ts`: the one owner of the session token; `pacer.ts`: the rate cap and waits;
 * - `controller.ts`: how many items are in flight and how fast requests start (Concurrency Mode),
 *   from `law.ts` (the limit), `sendRate.ts` (the rate learned from 429s), `rateHeaders.ts` (the
 *   limits a service announces in its headers) and `quota.ts` (every announced policy, kept by a log of the requests sent);
 * - `pace.ts`: the pace each service showed, kept per process for the next node run;
 * - `auth.ts`: the credential's checks, `authenticate` and the one login request;
 * - `token.ts`: finding and sealing the session token; `http.ts`: bodies, headers, error codes;
 * - `errors.ts`: every message, and the one redaction.
 */
export { CREDENTIAL_TYPE } from './auth';
export type { ConcurrencyMode, ControllerSettings, Pace } from './controller';
export { forgetPaces, keepPace, pacesKept, resumePace } from './pace';
export { Controller } from './controller';
export type { RequestContext } from './execution';
export { TransportSession } from './execution';
export { fitMessage, redact, redactAndCut, redactValues } from './errors';
export type { ServiceResponse } from './http';
export { retryAfterMs } from './http';
export { apiRequest, notSentStopping } from './request';
export { apiList } from './pages';
