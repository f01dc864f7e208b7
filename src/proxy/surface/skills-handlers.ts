// hub's side of the Skills extension: skills/list and skills/get from the approved, cached entries.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { RpcError } from '../../wire/rpc-error.js';
import { SKILLS_EXTENSION } from '../listing/skill-names.js';
import type { SkillSurface } from './skills.js';

// hub's side of the Skills extension (SEP-2640, docs/skills.md): declared whether or not a child
// offers skills (an empty list then), as hub declares prompts and resources. `skills/list` and
// `skills/get` answer from the approved, cached entries (surface/skills.ts); skill files are read
// with resources/read. The 2026-07-28 fields are always sent: nothing is cached by the client for long.

/** capabilities.extensions of hub's sessions. */
export const SKILLS_EXTENSIONS = { [SKILLS_EXTENSION]: {} } as const;

const PAGE = 100;
const CACHE = { ttlMs: 0, cacheScope: 'private' } as const;

const ListSkillsRequestSchema = z.object({
  method: z.literal('skills/list'),
  params: z.looseObject({ cursor: z.string().optional() }).optional(),
});
const GetSkillRequestSchema = z.object({
  method: z.literal('skills/get'),
  params: z.looseObject({ uri: z.string() }),
});

export function registerSkills(server: Server, skills: SkillSurface | undefined): void {
  server.setRequestHandler(ListSkillsRequestSchema, request => {
    const all = skills?.list() ?? [];
    const cursor = request.params?.cursor;
    const start = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isInteger(start) || start < 0 || start > all.length)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Field "cursor" ${JSON.stringify(cursor)} is not one hub gave; list again without it.`,
      );
    const next = start + PAGE < all.length ? String(start + PAGE) : undefined;
    return { skills: all.slice(start, start + PAGE), ...CACHE, ...(next !== undefined && { nextCursor: next }) };
  });
  server.setRequestHandler(GetSkillRequestSchema, request => {
    const skill = skills?.get(request.params.uri);
    if (!skill)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `No skill hub lists has its SKILL.md at ${request.params.uri}; skills/list shows the skills (a withheld one is not listed until a person approves it).`,
      );
    return { skill, ...CACHE };
  });
}
