// The benchmark's workload, shared by every client: per row one candidate creation, one update
// and three sub-records (job, IT skill, additional information), as exact service requests
// (what the node sends for the node parameters below) so that every client sends the same.

export const PHASES = ['create', 'update', 'job', 'itSkill', 'additionalInfo'];

export const rowOf = (index) => ({ email: `bench-${index}@bench.test`, source: 'bench', index });

/** The service request of one phase for one row (`slug` from the creation). */
export function requestOf(phase, row, slug) {
	switch (phase) {
		case 'create':
			return { method: 'POST', path: '/gin/v1/company/candidate', body: { email: row.email, source: row.source } };
		case 'update':
			return { method: 'PUT', path: '/gin/v1/company/candidate', body: { user_slug: slug, city: 'Berlin' } };
		case 'job':
			return {
				method: 'POST',
				path: '/gin/v1/company/candidate/job',
				body: { user_slug: slug, company_name: 'Acme', start_date: '15-01-2020' },
			};
		case 'itSkill':
			return {
				method: 'POST',
				path: '/gin/v1/company/candidate/it-skill',
				body: { user_slug: slug, skill_name: 'TypeScript', skill_level_id: 3 },
			};
		case 'additionalInfo':
			return {
				method: 'POST',
				path: '/gin/v1/company/candidate/additional-information',
				body: { user_slug: slug, title: 'Note' },
			};
		default:
			throw new Error(`unknown phase ${phase}`);
	}
}

/** Node parameters of a phase: every value from the item, by expression, as a workflow would map it. */
export function nodeParametersOf(phase, concurrency) {
	// `concurrency`: a number (Concurrency Mode Fixed) or 'auto' (Concurrency Mode Auto).
	const options = concurrency === 'auto' ? { concurrencyMode: 'auto' } : { concurrencyMode: 'fixed', concurrency };
	switch (phase) {
		case 'create':
			return {
				resource: 'candidate',
				operation: 'create',
				email: '={{ $json.email }}',
				additionalFields: { source: '={{ $json.source }}' },
				options,
			};
		case 'update':
			return {
				resource: 'candidate',
				operation: 'update',
				candidateSlug: '={{ $json.slug }}',
				updateFields: { city: 'Berlin' },
				options,
			};
		case 'job':
			return {
				resource: 'candidateJob',
				operation: 'add',
				candidateSlug: '={{ $json.slug }}',
				companyName: 'Acme',
				startDate: '2020-01-15',
				options,
			};
		case 'itSkill':
			return {
				resource: 'candidateItSkill',
				operation: 'add',
				candidateSlug: '={{ $json.slug }}',
				skillName: 'TypeScript',
				skillLevel: 3,
				options,
			};
		case 'additionalInfo':
			return {
				resource: 'candidateAdditionalInfo',
				operation: 'add',
				candidateSlug: '={{ $json.slug }}',
				title: 'Note',
				options,
			};
		default:
			throw new Error(`unknown phase ${phase}`);
	}
}

/**
 * Candidate → Import doing a row's five requests in one node run (create with the source, the
 * update with the city, then the job, the IT skill and the additional information: the same
 * requests as the five phases above), every value the rows give mapped by expression.
 */
export function importParametersOf(concurrency) {
	const options = concurrency === 'auto' ? { concurrencyMode: 'auto' } : { concurrencyMode: 'fixed', concurrency };
	return {
		resource: 'candidate',
		operation: 'import',
		email: '={{ $json.email }}',
		additionalFields: { source: '={{ $json.source }}', city: 'Berlin' },
		recordInput: 'fields',
		jobs: { job: [{ companyName: 'Acme', startDate: '2020-01-15' }] },
		itSkills: { itSkill: [{ skillName: 'TypeScript', skillLevel: 3 }] },
		additionalInfo: { entry: [{ title: 'Note' }] },
		options,
	};
}
