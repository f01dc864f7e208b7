// Installs, uninstalls, upgrades and settings changes on the audit log, with the questions asked.
import { currentActor } from '../../core/actor.js';
import { errorMessage, isHubError } from '../../core/errors.js';
import type { HubPaths } from '../../core/paths.js';
import { auditLog } from '../../store/audit/log.js';
import type { AuditBy, DecisionRecord, ServerActionRecord } from '../../store/audit/line.js';
import { describePlan, NOT_ASKED, type InstallPlan } from '../decisions/consent.js';
import type { InstallContext } from '../install/context.js';
import { describeUndo, type UndoQuestion } from '../decisions/kept-decisions.js';

type Action = Omit<ServerActionRecord, 't' | 'by' | 'session' | 'outcome' | 'code' | 'error'>;

/**
 * An install, uninstall, upgrade or settings change, on the record with who asked (core/actor.ts)
 * and how it ended; `after` names what the result tells (the version installed).
 */
export async function audited<T>(
  paths: Pick<HubPaths, 'auditDir'>,
  action: Action,
  run: () => Promise<T>,
  after?: (value: T) => Partial<Action>,
): Promise<T> {
  const { by, session } = currentActor();
  const audit = auditLog(paths);
  try {
    const value = await run();
    audit.record({ ...action, ...after?.(value), t: Date.now(), by, session, outcome: 'ok' });
    return value;
  } catch (error) {
    const code = isHubError(error) ? error.code : 'INTERNAL';
    audit.record({ ...action, t: Date.now(), by, session, outcome: 'error', code, error: errorMessage(error) });
    throw error;
  }
}

/**
 * A question put to the person and its answer. `by` is who answered: the person in the client's
 * prompt (elicitation), the CLI or the dashboard; `setting` when config.json answered for them.
 */
export function auditDecision(
  paths: Pick<HubPaths, 'auditDir'>,
  decision: Omit<DecisionRecord, 'kind' | 't' | 'session' | 'by'> & { readonly by?: AuditBy },
): void {
  const { by, session } = currentActor();
  auditLog(paths).record({ kind: 'decision', t: Date.now(), session, by, ...decision });
}

/**
 * A question to the person (a confirm callback), on the record with its answer. Asked during an
 * agent's call, it went to the client's prompt (elicitation); otherwise the CLI or the dashboard
 * asked. Undefined stays undefined: no question is asked (a person's own command is the approval).
 */
export function askOnRecord<A extends unknown[]>(
  paths: Pick<HubPaths, 'auditDir'>,
  describe: (...args: A) => { readonly question: string; readonly server?: string | undefined },
  ask: ((...args: A) => Promise<unknown>) | undefined,
): ((...args: A) => Promise<void>) | undefined {
  if (ask === undefined) return undefined;
  return async (...args: A) => {
    const { question, server } = describe(...args);
    const actor = currentActor();
    const by: AuditBy = actor.by === 'agent' ? 'elicitation' : actor.by;
    try {
      const answer = await ask(...args);
      if (answer === NOT_ASKED) auditDecision(paths, { question, server, answer: 'not asked', by: 'setting' });
      else auditDecision(paths, { question, server, answer: 'approved', by });
    } catch (error) {
      const code = isHubError(error) ? error.code : 'INTERNAL';
      const answer = code === 'CONSENT_DECLINED' ? 'declined' : 'unanswered';
      auditDecision(paths, { question, server, answer, by, code, error: errorMessage(error) });
      throw error;
    }
  };
}

/** An install's or upgrade's context whose questions (consent, undoing kept decisions) go on the record. */
export function withAskedOnRecord<C extends InstallContext>(context: C): C {
  const paths = context.config.paths;
  const confirm = askOnRecord(
    paths,
    (plan: InstallPlan) => ({ question: describePlan(plan), server: plan.name }),
    context.confirm,
  )!;
  const confirmUndo = askOnRecord(
    paths,
    (question: UndoQuestion) => ({ question: describeUndo(question), server: question.name }),
    context.confirmUndo,
  );
  return { ...context, confirm, confirmUndo };
}
