// A child's requests to the person labelled with its server's name, so none passes for hub.
import type { CreateMessageRequest, ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { forPerson, oneLine } from './person-text.js';

// A child's requests to the person go out under its name, so no child can pass for hub itself
// (for example by copying hub's install-consent prompt word for word). What it wrote is cleaned
// first (person-text.ts): no escape sequence or blank line pushes the label out of sight.

/** What the person reads first: which installed server asks. */
export const serverPrefix = (server: string): string => `[server ${server}]`;

export interface RelayLabels {
  elicitation(params: ElicitRequest['params']): ElicitRequest['params'];
  sampling(params: CreateMessageRequest['params']): CreateMessageRequest['params'];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** Choices' display titles (oneOf / items.anyOf entries), each on one line. */
const titledChoices = (choices: unknown): unknown =>
  Array.isArray(choices)
    ? choices.map(choice =>
        isObject(choice) && typeof choice.title === 'string' ? { ...choice, title: oneLine(choice.title) } : choice,
      )
    : choices;

/** One form field: its title carries the label (the key when it had none); the rest is cleaned. */
function labelField(prefix: string, key: string, field: unknown): unknown {
  if (!isObject(field)) return field;
  const title = oneLine(typeof field.title === 'string' ? field.title : '') || oneLine(key);
  const out: Json = { ...field, title: `${prefix} ${title}` };
  if (typeof field.description === 'string') out.description = forPerson(field.description);
  if (Array.isArray(field.enumNames))
    out.enumNames = field.enumNames.map(name => (typeof name === 'string' ? oneLine(name) : name));
  if ('oneOf' in field) out.oneOf = titledChoices(field.oneOf);
  if (isObject(field.items) && 'anyOf' in field.items)
    out.items = { ...field.items, anyOf: titledChoices(field.items.anyOf) };
  return out;
}

function labelSchema(prefix: string, schema: unknown): unknown {
  if (!isObject(schema) || !isObject(schema.properties)) return schema;
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([key, field]) => [key, labelField(prefix, key, field)]),
  );
  return { ...schema, properties };
}

/** Labels each relayed request; `admit` throws when the request may not be relayed now. */
export function relayLabels(server: string, admit: () => void): RelayLabels {
  const prefix = serverPrefix(server);
  return {
    elicitation(params) {
      admit();
      const message = forPerson(typeof params.message === 'string' ? params.message : '');
      const labelled = { ...params, message: message === '' ? prefix : `${prefix} ${message}` };
      if ('requestedSchema' in params)
        return { ...labelled, requestedSchema: labelSchema(prefix, params.requestedSchema) } as ElicitRequest['params'];
      return labelled;
    },
    sampling(params) {
      admit();
      const origin = `${prefix} This request comes from the MCP server "${server}", relayed by hub.`;
      const own = forPerson(params.systemPrompt ?? '');
      return { ...params, systemPrompt: own ? `${origin}\n\n${own}` : origin };
    },
  };
}
