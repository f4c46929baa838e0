/**
 * The rows forgotten in one process while its executions run (journal.ts): an execution still running that remembers one of
 * them (it knew the row before the Forget) does not claim it again. A row asked afresh since is no longer dropped, and nor are
 * its other keys once a row is remembered under them with it (`Journal.follow`: its slug is then a new candidate's; seed
 * 71021 of the whole-memory simulation's "Match By switched" created a row again after a switch, its other key never claimed).
 */
export class Dropped {
	/** Forget All Rows: every row. */
	private all = false;
	private readonly keys = new Set<string>();
	/** Rows no longer dropped although every row is (`all`). */
	private readonly revived = new Set<string>();

	has(key: string): boolean {
		return (this.all || this.keys.has(key)) && !this.revived.has(key);
	}

	/** Forget Each Input Row of this row in this process. */
	add(key: string): void {
		this.keys.add(key);
		this.revived.delete(key);
	}

	/** Forget All Rows in this process. */
	addAll(): void {
		this.all = true;
		this.keys.clear();
		this.revived.clear();
	}

	/** Asked afresh, or the other key of a row asked afresh: claimed again as any row. */
	revive(key: string): void {
		if (this.all) this.revived.add(key);
		else this.keys.delete(key);
	}

	/** No execution of the process runs: none knew a row before its Forget. */
	reset(): void {
		this.all = false;
		this.keys.clear();
		this.revived.clear();
	}
}
