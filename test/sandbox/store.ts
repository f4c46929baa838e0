/**
 * In-memory state of the sandbox: companies, users (scrypt password hashes), API keys,
 * session tokens, candidates and their records.
 */
import { randomBytes, randomUUID, scrypt, timingSafeEqual } from 'crypto';

import type {
	CandidateProfile,
	CandidateRecords,
	SandboxCandidate,
	SandboxCompany,
	SandboxState,
	StoredApiKey,
	StoredCompany,
	StoredSession,
	StoredUser,
} from './types';

const SCRYPT_KEY_LENGTH = 32;
const SALT_BYTES = 16;
const TOKEN_BYTES = 32;

function deriveKey(secret: string, salt: Buffer): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		scrypt(secret, salt, SCRYPT_KEY_LENGTH, (error, key) => (error ? reject(error) : resolve(key)));
	});
}

export async function hashPassword(secret: string): Promise<string> {
	const salt = randomBytes(SALT_BYTES);
	const key = await deriveKey(secret, salt);
	return `scrypt$${salt.toString('hex')}$${key.toString('hex')}`;
}

export async function verifyPassword(secret: string, stored: string): Promise<boolean> {
	const [scheme, saltHex, keyHex] = stored.split('$');
	if (scheme !== 'scrypt' || !saltHex || !keyHex) return false;
	const expected = Buffer.from(keyHex, 'hex');
	const actual = await deriveKey(secret, Buffer.from(saltHex, 'hex'));
	return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export type AuthContext =
	| { kind: 'session'; companyId: number; userId: number; token: string; session: number }
	| { kind: 'apiKey'; companyId: number; apiKeyId: number };

export type RecordKind = keyof CandidateRecords;

export interface StoreOptions {
	/** Lifetime of new sessions; undefined = none. */
	tokenLifetimeMs?: number;
	/** A new session of a user ends that user's earlier sessions. */
	singleSessionPerUser?: boolean;
	/** Called after every mutation. */
	onChange?: () => void;
}

const FIRST_IDS = (): SandboxState['nextIds'] => ({ user: 1, apiKey: 1, record: 1, session: 1 });

const emptyRecords = (): CandidateRecords => ({
	jobs: [],
	universities: [],
	itSkills: [],
	languages: [],
	additionalInfo: [],
});

export class SandboxStore {
	private companies: StoredCompany[] = [];

	private sessions = new Map<string, StoredSession>();

	private nextIds = FIRST_IDS();

	/** Successful logins since the seed. */
	private logins = 0;

	private tokenLifetimeMs: number | undefined;

	/** Used to spend the same scrypt time on unknown logins as on known ones. */
	private decoyHash = '';

	constructor(private readonly options: StoreOptions = {}) {
		this.tokenLifetimeMs = options.tokenLifetimeMs;
	}

	/** Lifetime of sessions created from now on (existing sessions keep theirs). */
	setTokenLifetime(ms: number | undefined): void {
		this.tokenLifetimeMs = ms;
	}

	async seed(companies: SandboxCompany[]): Promise<void> {
		this.nextIds = FIRST_IDS();
		this.logins = 0;
		this.sessions.clear();
		const seeded: StoredCompany[] = [];
		for (const company of companies) {
			const users: StoredUser[] = [];
			for (const user of company.users) {
				users.push({
					id: this.nextIds.user++,
					email: user.email,
					firstName: user.firstName ?? '',
					lastName: user.lastName ?? '',
					passwordHash: await hashPassword(user.password),
				});
			}
			const apiKeys = (company.apiKeys ?? []).map((value) => ({
				id: this.nextIds.apiKey++,
				value,
				createdAt: new Date().toISOString(),
			}));
			seeded.push({ id: company.id, name: company.name, users, apiKeys, candidates: [] });
		}
		this.companies = seeded;
		this.changed();
	}

	/** Takes a saved state; states saved before sessions had numbers get them now. */
	restore(state: SandboxState): void {
		const copy = structuredClone(state);
		this.companies = copy.companies;
		this.nextIds = { ...FIRST_IDS(), ...copy.nextIds };
		this.logins = copy.logins ?? 0;
		this.sessions = new Map();
		for (const session of copy.sessions) {
			session.number ??= this.nextIds.session++;
			this.nextIds.session = Math.max(this.nextIds.session, session.number + 1);
			this.sessions.set(session.token, session);
		}
		this.pruneExpired();
	}

	private async decoy(): Promise<string> {
		if (this.decoyHash === '') this.decoyHash = await hashPassword(randomUUID());
		return this.decoyHash;
	}

	private changed(): void {
		this.options.onChange?.();
	}

	snapshot(): SandboxState {
		this.pruneExpired();
		return structuredClone({
			version: 1 as const,
			companies: this.companies,
			sessions: [...this.sessions.values()],
			liveTokens: this.sessions.size,
			logins: this.logins,
			nextIds: this.nextIds,
		});
	}

	private pruneExpired(now = Date.now()): void {
		for (const [token, session] of this.sessions) {
			if (session.expiresAt !== undefined && session.expiresAt <= now) this.sessions.delete(token);
		}
	}

	private findUser(email: string): { company: StoredCompany; user: StoredUser } | undefined {
		const wanted = email.trim().toLowerCase();
		for (const company of this.companies) {
			const user = company.users.find((candidate) => candidate.email.toLowerCase() === wanted);
			if (user) return { company, user };
		}
		return undefined;
	}

	/** Checks the credentials; on success returns the user and a new session. */
	async login(
		email: string,
		secret: string,
	): Promise<{ user: StoredUser; companyId: number; session: StoredSession } | undefined> {
		const found = this.findUser(email);
		const matches = await verifyPassword(secret, found?.user.passwordHash ?? (await this.decoy()));
		if (!found || !matches) return undefined;
		this.logins += 1;
		const session = this.createSession(found.user.id, found.company.id);
		return { user: found.user, companyId: found.company.id, session };
	}

	issueToken(email: string): string {
		const found = this.findUser(email);
		if (!found) throw new Error(`Sandbox: no user with e-mail ${email}`);
		return this.createSession(found.user.id, found.company.id).token;
	}

	private createSession(userId: number, companyId: number): StoredSession {
		if (this.options.singleSessionPerUser) {
			for (const [token, other] of this.sessions) if (other.userId === userId) this.sessions.delete(token);
		}
		const token = randomBytes(TOKEN_BYTES).toString('hex');
		const createdAt = Date.now();
		const number = this.nextIds.session++;
		const session: StoredSession = { number, token, userId, companyId, createdAt };
		if (this.tokenLifetimeMs !== undefined) session.expiresAt = createdAt + this.tokenLifetimeMs;
		this.sessions.set(token, session);
		this.changed();
		return structuredClone(session);
	}

	/** Resolves a session token, dropping it when its lifetime is over. */
	session(token: string): StoredSession | undefined {
		const session = this.sessions.get(token);
		if (!session) return undefined;
		if (session.expiresAt !== undefined && session.expiresAt <= Date.now()) {
			this.sessions.delete(token);
			this.changed();
			return undefined;
		}
		return session;
	}

	endSession(token: string): boolean {
		const ended = this.sessions.delete(token);
		if (ended) this.changed();
		return ended;
	}

	/** Kills every live session token; returns how many there were. */
	expireAllSessions(): number {
		const count = this.sessions.size;
		this.sessions.clear();
		this.changed();
		return count;
	}

	apiKeyByValue(value: string): { companyId: number; key: StoredApiKey } | undefined {
		for (const company of this.companies) {
			const key = company.apiKeys.find((candidate) => candidate.value === value);
			if (key) return { companyId: company.id, key };
		}
		return undefined;
	}

	private company(companyId: number): StoredCompany {
		const company = this.companies.find((candidate) => candidate.id === companyId);
		if (!company) throw new Error(`Sandbox: unknown company ${companyId}`);
		return company;
	}

	user(companyId: number, userId: number): StoredUser | undefined {
		return this.company(companyId).users.find((user) => user.id === userId);
	}

	listApiKeys(companyId: number): Array<{ id: number; value: string }> {
		return this.company(companyId).apiKeys.map(({ id, value }) => ({ id, value }));
	}

	createApiKey(companyId: number): { id: number; value: string } {
		const key: StoredApiKey = {
			id: this.nextIds.apiKey++,
			value: randomUUID(),
			createdAt: new Date().toISOString(),
		};
		this.company(companyId).apiKeys.push(key);
		this.changed();
		return { id: key.id, value: key.value };
	}

	/** Deletes a key of the company named by its id (or its value); returns its id. */
	deleteApiKey(companyId: number, idOrValue: string): number | undefined {
		const company = this.company(companyId);
		const index = company.apiKeys.findIndex(
			(key) => String(key.id) === idOrValue || key.value === idOrValue,
		);
		if (index < 0) return undefined;
		const [removed] = company.apiKeys.splice(index, 1);
		this.changed();
		return removed.id;
	}

	createCandidate(
		companyId: number,
		fields: { phone?: string; email?: string; source?: string; employee?: boolean },
	): SandboxCandidate {
		const now = new Date().toISOString();
		const candidate: SandboxCandidate = {
			slug: randomUUID(),
			companyId,
			createdAt: now,
			updatedAt: now,
			phone: fields.phone ?? null,
			email: fields.email ?? null,
			source: fields.source ?? null,
			employee: fields.employee ?? false,
			first_name: null,
			last_name: null,
			city: null,
			street: null,
			zip_code: null,
			birthday: null,
			whatsapp_preference: null,
			sms_preference: null,
			email_preference: null,
			records: emptyRecords(),
		};
		this.company(companyId).candidates.push(candidate);
		this.changed();
		return candidate;
	}

	/** The company's candidate with that slug; another company's candidate is not found. */
	candidate(companyId: number, slug: string): SandboxCandidate | undefined {
		return this.company(companyId).candidates.find((candidate) => candidate.slug === slug);
	}

	updateCandidate(
		candidate: SandboxCandidate,
		fields: Partial<Omit<CandidateProfile, 'slug' | 'source' | 'employee'>>,
	): CandidateProfile {
		Object.assign(candidate, fields);
		candidate.updatedAt = new Date().toISOString();
		this.changed();
		return profileOf(candidate);
	}

	addRecord<K extends RecordKind>(
		candidate: SandboxCandidate,
		kind: K,
		fields: Omit<CandidateRecords[K][number], 'id' | 'createdAt'>,
	): CandidateRecords[K][number] {
		const record = {
			id: this.nextIds.record++,
			createdAt: new Date().toISOString(),
			...fields,
		} as CandidateRecords[K][number];
		(candidate.records[kind] as Array<CandidateRecords[K][number]>).push(record);
		candidate.updatedAt = record.createdAt;
		this.changed();
		return record;
	}

	candidates(companyId: number): SandboxCandidate[] {
		const company = this.companies.find((candidate) => candidate.id === companyId);
		return company ? structuredClone(company.candidates) : [];
	}
}

export function profileOf(candidate: SandboxCandidate): CandidateProfile {
	return {
		slug: candidate.slug,
		phone: candidate.phone,
		email: candidate.email,
		source: candidate.source,
		employee: candidate.employee,
		first_name: candidate.first_name,
		last_name: candidate.last_name,
		city: candidate.city,
		street: candidate.street,
		zip_code: candidate.zip_code,
		birthday: candidate.birthday,
		whatsapp_preference: candidate.whatsapp_preference,
		sms_preference: candidate.sms_preference,
		email_preference: candidate.email_preference,
	};
}
