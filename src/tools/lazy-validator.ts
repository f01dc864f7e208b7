// The SDK's JSON Schema validator, built on first use instead of at start.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

// The SDK's default validator (an Ajv instance, used only for elicitation results) is built on
// first use instead of at start.
export function lazyAjvValidator(): jsonSchemaValidator {
  let ajv: AjvJsonSchemaValidator | undefined;
  return { getValidator: schema => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema) };
}
