// What bare `hub-mcp` says to a person at a terminal instead of waiting for JSON-RPC.
import { ClientIdSchema } from '../clients/types.js';
import { COMMAND_NAME } from '../core/package-name.js';
import { HUB_VERSION } from '../core/version.js';

/**
 * What bare `hub-mcp` says when a person runs it in a terminal: with no command it is the stdio
 * MCP server, which would wait for JSON-RPC in silence. A client (or a pipe) never has a TTY.
 */
export const terminalIntro = (): string =>
  [
    `${COMMAND_NAME} ${HUB_VERSION} is an MCP server: MCP clients start it and talk to it over stdin and stdout.`,
    '',
    `  Add it to a client:  ${COMMAND_NAME} config <client> --write`,
    `                       (${ClientIdSchema.options.join(', ')})`,
    `  Use it from here:    ${COMMAND_NAME} ps, ${COMMAND_NAME} search <query>, ${COMMAND_NAME} ui ... (${COMMAND_NAME} --help lists all)`,
    '',
    'It did not start, because stdin is a terminal: a client, or JSON-RPC piped into it, starts the server.',
    '',
  ].join('\n');
