export declare function setting(name: 'CLAIMS_SEEDS' | 'CLAIMS_SEED' | 'CLAIMS_SCENARIO' | 'CLAIMS_TRACE'): string | undefined;
export declare function print(line: string): void;
export declare function settled(): Promise<void>;
