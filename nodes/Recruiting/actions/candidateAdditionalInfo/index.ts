import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../context';

export const description: INodeProperties[] = [];

export const operations: Record<string, OperationModule> = {};
