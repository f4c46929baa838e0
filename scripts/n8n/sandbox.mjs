// The recruiting-service sandbox for the scripts (demo, dev, the n8n stack), through the
// sandbox's own JavaScript entry test/sandbox/index.mjs, started in this process so that its
// stored state can be read directly:
//   const sandbox = await startSandbox();   // { url, close(), candidates(companyId), state(), ... }
// SANDBOX_LOGIN is the sandbox's first seeded login (test/sandbox/seed.json) with its company.

export { SEEDED_LOGIN as SANDBOX_LOGIN, startSandbox } from '../../test/sandbox/index.mjs';
