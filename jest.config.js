/** Jest runs the TypeScript tests through ts-jest (transpile only; `tsc --noEmit` checks types). */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	setupFiles: ['<rootDir>/test/setup-env.js'],
	setupFilesAfterEnv: ['<rootDir>/test/setup-pace.ts'],
	testTimeout: 60000,
	maxWorkers: 2,
	reporters: ['default', '<rootDir>/test/summary-reporter.js'],
};
