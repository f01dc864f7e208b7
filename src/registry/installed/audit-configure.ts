// Settings changes on the audit log: the settings changed, and each question asked on the way.
import { formatCommandLine } from '../../core/shell-quote.js';
import type { ServerRecord } from '../../store/schema.js';
import { askOnRecord, auditDecision, audited } from '../install/audit.js';
import type { HubPaths } from '../../core/paths.js';
import type { ToolChange } from '../decisions/tool-review.js';

/**
 * registry.configure, `hub servers configure|approve`, the dashboard's settings: one configure
 * line naming the settings changed (env by key: values are secrets), and a decision line for each
 * question put to the person on the way (widening settings, new args, changed tools approved).
 */
// What it needs of installed/settings.ts's request, deps and result (named here: that file imports this one).
interface Asks {
  readonly config: { readonly paths: Pick<HubPaths, 'auditDir'> };
  readonly confirmSettings?: (record: ServerRecord, widens: string[]) => Promise<void>;
  readonly confirmArgs?: (record: ServerRecord, args: string[]) => Promise<unknown>;
  readonly confirmApproval?: (server: string, changes: ToolChange[]) => Promise<void>;
}

export function auditedConfigure<
  Q extends { readonly server: string; readonly env?: Readonly<Record<string, string>> | undefined },
  D extends Asks,
  R extends { readonly approved?: readonly string[] | undefined },
>(request: Q, deps: D, run: (request: Q, deps: D) => Promise<R>): Promise<R> {
  const paths = deps.config.paths;
  const { server, env, ...rest } = request;
  const changed = [
    ...Object.keys(rest).filter(key => rest[key as keyof typeof rest] !== undefined),
    ...Object.keys(env ?? {}).map(key => `env.${key}`),
  ];
  const confirmSettings = askOnRecord(
    paths,
    (record: ServerRecord, widens: string[]) => ({ question: `Widen "${record.name}": ${widens.join('; ')}`, server }),
    deps.confirmSettings,
  );
  const confirmArgs = askOnRecord(
    paths,
    (record: ServerRecord, args: string[]) => ({
      question: `Run "${record.name}" as ${formatCommandLine(record.command, args)}`,
      server,
    }),
    deps.confirmArgs,
  );
  const confirmApproval = askOnRecord(
    paths,
    (name: string, changes: ToolChange[]) => ({
      question: `Approve the changed tools of "${name}": ${changes.map(change => change.tool).join(', ')}`,
      server,
    }),
    deps.confirmApproval,
  );
  const asked: D = {
    ...deps,
    ...(confirmSettings && { confirmSettings }),
    ...(confirmArgs && { confirmArgs }),
    ...(confirmApproval && { confirmApproval }),
  };
  return audited(
    paths,
    { kind: 'configure', server, changed },
    () => run(request, asked),
    result => {
      // `hub servers approve`, the dashboard's approve: the person's own command is the decision.
      if (result.approved?.length && deps.confirmApproval === undefined)
        auditDecision(paths, {
          question: `Approve the changed tools of "${server}": ${result.approved.join(', ')}`,
          server,
          answer: 'approved',
        });
      return {};
    },
  );
}
