import type { AuditLog } from '../../audit/index.ts';
import type { OperatorIdentity } from '../../auth/operator-directory.ts';
import { type OperatorRole, rolesAllow } from '../../auth/operator-roles.ts';
import type { Db } from '../../db/db.ts';
import { AppError } from '../../errors/app-error.ts';
import type { Clock } from '../../shared/clock.ts';
import { sha256Hex } from '../../shared/hashing.ts';
import { newOpaqueId, newSecretToken } from '../../shared/ids.ts';
import { withoutSecrets } from '../secret-fields.ts';
import {
  type ApprovalFilter,
  type ApprovalRecord,
  claimApproval,
  findApproval,
  insertApproval,
  listApprovals,
  rejectApproval,
  settleApproval,
  spendExecutionSecret,
} from './approval-repository.ts';

/** An admin request as its route validated it, waiting for a second operator. */
export interface HeldRequest {
  readonly routeKey: string;
  readonly routeRole: OperatorRole;
  readonly params: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
}

/** What the approved request answered when it ran. */
export interface ExecutionOutcome {
  readonly statusCode: number;
  readonly answer: unknown;
}

/** Runs an approved request once, with the one-time secret that lets it past four eyes. */
export type Execute = (approval: ApprovalRecord, secret: string) => Promise<ExecutionOutcome>;

/** The request a decision came in: its source address and id go to the audit trail. */
type From = { readonly ip: string; readonly id: string } | undefined;

export type Approvals = ReturnType<typeof createApprovals>;

/**
 * Four eyes (docs/operators.md): an admin action that needs a second operator is held here,
 * and runs only when an operator other than its requester, holding the action's role, approves
 * it before it expires. The approval is one atomic claim of the row, so of two approvers at once
 * one runs it and the other is told it was decided.
 */
export function createApprovals(deps: {
  readonly db: Db;
  readonly clock: Clock;
  readonly ttlSeconds: number;
  readonly auditLog: AuditLog;
}) {
  const { db, clock } = deps;
  return {
    async hold(request: HeldRequest, by: OperatorIdentity): Promise<ApprovalRecord> {
      const now = clock.now();
      return insertApproval(db, {
        ...request,
        id: `apr_${newOpaqueId(clock, 12)}`,
        requestedByOperatorId: by.operatorId,
        requestedByActor: by.actor,
        requestedAt: now,
        expiresAt: new Date(now.getTime() + deps.ttlSeconds * 1000),
      });
    },
    find: async (id: string) => (await findApproval(db, id)) ?? notFound(),
    list: (query: { status: ApprovalFilter | undefined; limit: number; offset: number }) =>
      listApprovals(db, { ...query, now: clock.now() }),
    /** Whether a request runs now with the secret its approval made (spent as it is matched). */
    letThrough: (execution: {
      id: string;
      routeKey: string;
      secret: string;
      operatorId: string | null;
    }) => spendExecutionSecret(db, { ...execution, secretHash: sha256Hex(execution.secret) }),
    approve,
    reject,
    statusOf: (approval: ApprovalRecord) => statusOf(approval, clock.now()),
  };

  async function approve(id: string, approver: OperatorIdentity, execute: Execute, from?: From) {
    const held = await findApproval(db, id);
    mayDecide(held, approver, 'approve');
    const secret = newSecretToken();
    const claimed = await claimApproval(db, id, decision(approver), sha256Hex(secret));
    if (claimed === undefined) {
      // Decided or expired between the read and the claim (another approver was first).
      return refuseDecided(await findApproval(db, id));
    }
    await recordDecision('approval.approved', claimed, approver, from);
    const outcome = await execute(claimed, secret);
    // The stored result is read later by any operator: what the action answered whole (an
    // issued key, a setup link) goes to the approver alone, in this answer.
    const settled = await settleApproval(db, id, {
      statusCode: outcome.statusCode,
      answer: withoutSecrets(outcome.answer),
    });
    return settled === undefined ? claimed : { ...settled, resultAnswer: outcome.answer };
  }

  async function reject(id: string, by: OperatorIdentity, from?: From) {
    const held = await findApproval(db, id);
    mayDecide(held, by, 'reject');
    const rejected = await rejectApproval(db, id, decision(by));
    if (rejected === undefined) {
      return refuseDecided(await findApproval(db, id));
    }
    await recordDecision('approval.rejected', rejected, by, from);
    return rejected;
  }

  /**
   * Approving needs a named operator other than the requester, with the action's role.
   * Rejecting: the same, or the requester withdrawing their own request.
   */
  function mayDecide(
    held: ApprovalRecord | undefined,
    by: OperatorIdentity,
    decisionKind: 'approve' | 'reject',
  ): asserts held is ApprovalRecord {
    if (held === undefined) {
      notFound();
    }
    if (by.kind !== 'operator' || by.operatorId === null) {
      throw new AppError('APPROVAL_NEEDS_OPERATOR');
    }
    const own = held.requestedByOperatorId === by.operatorId;
    if (own && decisionKind === 'approve') {
      throw new AppError('APPROVAL_OWN_REQUEST');
    }
    if (!own && !rolesAllow(by.roles, held.routeRole as OperatorRole)) {
      throw new AppError(
        'ROLE_REQUIRED',
        `Deciding on this request needs the ${held.routeRole} role.`,
      );
    }
    refuseUnlessPending(held);
  }

  function refuseUnlessPending(held: ApprovalRecord): void {
    const status = statusOf(held, clock.now());
    if (status === 'expired') {
      throw new AppError('APPROVAL_EXPIRED');
    }
    if (status !== 'pending') {
      throw new AppError('APPROVAL_NOT_PENDING', `This request was decided already: ${status}.`);
    }
  }

  function refuseDecided(held: ApprovalRecord | undefined): never {
    if (held === undefined) {
      notFound();
    }
    refuseUnlessPending(held);
    throw new AppError('APPROVAL_NOT_PENDING');
  }

  function decision(by: OperatorIdentity) {
    return { operatorId: by.operatorId, actor: by.actor, now: clock.now() };
  }

  /** The decision names both operators: who decided (the actor) and who asked (details). */
  function recordDecision(
    action: string,
    approval: ApprovalRecord,
    by: OperatorIdentity,
    from: From,
  ) {
    return deps.auditLog.recordOrRefuse({
      actor: by.actor,
      operatorId: by.operatorId,
      sessionId: by.sessionId,
      action,
      target: approval.id,
      outcome: approval.status,
      details: {
        approvalId: approval.id,
        action: approval.routeKey,
        requestedBy: approval.requestedByActor,
        requestedByOperatorId: approval.requestedByOperatorId,
      },
      request: from,
    });
  }
}

export type ApprovalStatus = ApprovalRecord['status'] | 'expired';

/** A pending request past its expiry reads as expired (nothing writes that). */
function statusOf(approval: ApprovalRecord, now: Date): ApprovalStatus {
  return approval.status === 'pending' && approval.expiresAt.getTime() <= now.getTime()
    ? 'expired'
    : approval.status;
}

function notFound(): never {
  throw new AppError('APPROVAL_NOT_FOUND');
}
