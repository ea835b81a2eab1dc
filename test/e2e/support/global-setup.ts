import type { TestProject } from 'vitest/node';
import { startServer, type RunningServer } from './server.ts';

/** One server process for the whole run (tests that need other settings start their own). */
let server: RunningServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  server = await startServer();
  project.provide('server', { baseUrl: server.baseUrl, publishableKey: server.publishableKey, secretKey: server.secretKey });
}

export async function teardown(): Promise<void> {
  await server?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    server: { baseUrl: string; publishableKey: string; secretKey: string };
  }
}
