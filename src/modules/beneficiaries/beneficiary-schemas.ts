import { Type } from 'typebox';
import { paginationQuery } from '../../http/common-schemas.ts';

export const BeneficiarySchema = Type.Object({
  _id: Type.String(),
  client: Type.String(),
  bankCode: Type.String(),
  bankName: Type.String(),
  accountNumber: Type.String(),
  accountName: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const BeneficiaryQuery = Type.Object({ ...paginationQuery(25) });
