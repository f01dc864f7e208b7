// Where `hub serve` listens unless told otherwise, shared by the listener and `hub config --http`.

/** Not one of the usual dev ports (3000, 4200, 5173, 8000, 8080, 9229, ...). */
export const DEFAULT_HTTP_PORT = 7717;
export const DEFAULT_HTTP_HOST = '127.0.0.1';
export const MCP_PATH = '/mcp';

/** http://host:port/mcp, an IPv6 host in brackets. */
export const mcpUrl = (host: string, port: number): string =>
  `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}${MCP_PATH}`;
