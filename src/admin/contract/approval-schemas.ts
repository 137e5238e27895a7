import { Type } from 'typebox';
import { envelopeSchema, paginationQuery } from '../../http/common-schemas.ts';

/** Wire shapes of four eyes (docs/operators.md, "Four eyes"): held requests and decisions. */

export const APPROVAL_STATUSES = [
  'pending',
  'expired',
  'approved',
  'rejected',
  'applied',
  'failed',
] as const;

/** What an action under four eyes answers instead of running: 202, held for approval. */
export const PendingApprovalSchema = Type.Object({
  approvalId: Type.String(),
  status: Type.Literal('pending'),
  expiresAt: Type.String({ format: 'date-time' }),
  action: Type.String({ description: 'The admin route held: `POST /admin/liens/:id/release`.' }),
});

export const PendingApprovalAnswer = envelopeSchema(PendingApprovalSchema);

export const ApprovalSchema = Type.Object({
  _id: Type.String(),
  action: Type.String({ description: 'The admin route held, by method and path.' }),
  role: Type.String({ description: 'The role the action needs, which its approver must hold.' }),
  params: Type.Record(Type.String(), Type.Unknown()),
  query: Type.Record(Type.String(), Type.Unknown()),
  body: Type.Unknown({ description: 'The body as the route validated it (null: none).' }),
  requestedBy: Type.String({ description: 'The requester, as the audit trail names them.' }),
  requestedByOperatorId: Type.Union([Type.String(), Type.Null()]),
  requestedAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time' }),
  status: Type.Enum([...APPROVAL_STATUSES]),
  decidedBy: Type.Union([Type.String(), Type.Null()]),
  decidedByOperatorId: Type.Union([Type.String(), Type.Null()]),
  decidedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  result: Type.Union([
    Type.Object({
      statusCode: Type.Integer(),
      answer: Type.Unknown({ description: "The action's own answer when it ran." }),
    }),
    Type.Null(),
  ]),
});

export const ApprovalsQuery = Type.Object({
  status: Type.Optional(Type.Enum([...APPROVAL_STATUSES])),
  ...paginationQuery(25),
});
