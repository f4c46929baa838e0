/**
 * Every test starts with no pace kept (transport/pace.ts keeps one per service in the process, so
 * a run after another against the same service starts where it ended): tests that run the node
 * twice against one service see the second start warm, as in n8n; tests never see another test's.
 */
import { forgetPaces } from '../nodes/Recruiting/transport/pace';

beforeEach(() => forgetPaces());
