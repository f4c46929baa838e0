/** Every .ts file below `folder` (relative to the repository), keyed by its repository path. */
export function sourcesBelow(folder: string): Record<string, string>;
