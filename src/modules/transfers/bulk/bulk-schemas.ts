import { Type } from 'typebox';
import { paginationQuery } from '../../../http/common-schemas.ts';
import { CreateTransferBody } from '../transfer-schemas.ts';

/** The most transfers one bulk request carries. */
export const MAX_BULK_ITEMS = 1000;

/**
 * One transfer of a bulk request: the body of POST /transfers, with its own paymentReference
 * (required here: it is how the item is found again), and the nameEnquiryReference optional:
 * without one, the batch makes the name enquiry itself when it places the item.
 */
export const BulkTransferItem = Type.Object({
  ...CreateTransferBody.properties,
  nameEnquiryReference: Type.Optional(CreateTransferBody.properties.nameEnquiryReference),
  saveBeneficiary: Type.Optional(Type.Boolean({ default: false })),
  paymentReference: Type.String({ minLength: 1, maxLength: 64 }),
});

/**
 * The body of POST /transfers/bulk. Items are checked one by one by the service, not by the
 * route's schema: an invalid item is refused alone (or refuses the batch under allOrNothing).
 */
export const CreateBulkBody = Type.Object({
  transfers: Type.Array(Type.Unknown({ description: 'The body of POST /transfers, each.' }), {
    minItems: 1,
    maxItems: MAX_BULK_ITEMS,
  }),
  allOrNothing: Type.Optional(Type.Boolean({ default: false })),
});

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const BulkItemSchema = Type.Object({
  index: Type.Integer({ description: "The item's position in the request, from 0." }),
  paymentReference: NullableString,
  status: Type.Enum(['Pending', 'Placed', 'Refused']),
  transferId: NullableString,
  errorCode: NullableString,
  errorMessage: NullableString,
});

export const BulkBatchSchema = Type.Object({
  _id: Type.String(),
  status: Type.Enum(['Processing', 'Completed']),
  allOrNothing: Type.Boolean(),
  total: Type.Integer(),
  placed: Type.Integer(),
  refused: Type.Integer(),
  pending: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
  completedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const BulkBatchWithItemsSchema = Type.Object({
  ...BulkBatchSchema.properties,
  items: Type.Array(BulkItemSchema),
});

export const BulkBatchParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const ListBulkQuery = Type.Object({ ...paginationQuery(25) });
