import { Type } from 'typebox';
import { LienSchema } from '../../modules/accounts/index.ts';
import { TransferSchema } from '../../modules/transfers/index.ts';

/** Why an operator acts: kept on the statement lines and the lien it makes. */
const Reason = (description: string) =>
  Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description });

export const NipRecallBody = Type.Object({
  sessionId: Type.String({
    pattern: '^[0-9]{30}$',
    description: 'The session id of a Completed credit another bank sent, which it recalls.',
  }),
  reason: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: "Why the sending bank recalls it; 'Credit sent in error' unless given.",
    }),
  ),
});

export const RecallOutcomeSchema = Type.Object({
  transfer: TransferSchema,
  lien: Type.Union([LienSchema, Type.Null()], {
    description: 'What the account lacked, owed as a lien; null when it held the whole credit.',
  }),
});

export const ReversalBody = Type.Object({
  reason: Reason('Why the transfer is reversed (the error it was): on both statement lines.'),
});

export const ReversalOutcomeSchema = Type.Object({
  outward: TransferSchema,
  inward: TransferSchema,
  lien: Type.Union([LienSchema, Type.Null()], {
    description: 'What the beneficiary lacked, owed as a lien; null when it held it all.',
  }),
});

export const LienReleaseBody = Type.Object({
  reason: Reason('Why the bank gives up what is still owed.'),
});

export const LiensSchema = Type.Array(LienSchema);
export { LienSchema };
