import { Type } from 'typebox';
import { DateQuery } from '../../http/common-schemas.ts';

/** Wire shapes of the audit chain's routes: verification and the auditor's export. */

export const AuditVerifyQuery = Type.Object({
  head: Type.Optional(
    Type.String({
      pattern: '^[1-9][0-9]{0,18}:[0-9a-f]{64}$',
      description:
        'A head copied out earlier (`<id>:<hash>`, as a verification answers it): it must still be in the chain, with that hash.',
    }),
  ),
});

const ChainHeadSchema = Type.Object({ _id: Type.String(), hash: Type.String() });

export const AuditVerifySchema = Type.Object({
  ok: Type.Boolean(),
  /** Rows checked before the break (all of them when ok). */
  rows: Type.Integer(),
  head: Type.Union([ChainHeadSchema, Type.Null()]),
  broken: Type.Union([
    Type.Object({
      row: Type.String(),
      kind: Type.Enum(['edited', 'deleted', 'inserted', 'rewritten', 'truncated']),
      message: Type.String(),
    }),
    Type.Null(),
  ]),
});

export const AuditExportQuery = Type.Object({
  format: Type.Optional(Type.Enum(['csv', 'json'], { default: 'json' })),
  from: Type.Optional(DateQuery),
  to: Type.Optional(DateQuery),
});

const Text = Type.String();
const TextOrNull = Type.Union([Type.String(), Type.Null()]);

/** One exported row: every field as its hash covers it (docs/security.md, "The hash chain"). */
export const AuditExportRowSchema = Type.Object({
  id: Text,
  at: Text,
  actor: Text,
  action: Text,
  target: TextOrNull,
  outcome: Text,
  sourceIp: TextOrNull,
  requestId: TextOrNull,
  details: Text,
  operatorId: TextOrNull,
  sessionId: TextOrNull,
  before: TextOrNull,
  after: TextOrNull,
  prevHash: Text,
  hash: Text,
});
