// A service of "this machine" for the sandbox tests: HTTP on 127.0.0.1 answering `reachable`, closed after the test.
import { once } from 'node:events';
import { createServer } from 'node:http';
import { onTestFinished } from 'vitest';

export async function localService(): Promise<{ readonly port: number; readonly url: string }> {
  const server = createServer((_request, response) => response.end('reachable'));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onTestFinished(() => new Promise<void>(resolve => server.close(() => resolve())));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { port, url: `http://127.0.0.1:${port}/` };
}
