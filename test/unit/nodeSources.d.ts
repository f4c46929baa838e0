/** Every file ending in `extension` (default .ts) below `folder` (relative to the repository), keyed by its repository path. */
export function sourcesBelow(folder: string, extension?: string): Record<string, string>;
