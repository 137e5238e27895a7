import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256Hex } from '../../shared/hashing.ts';
import { identityKey } from './identity-key.ts';
import type { Verification } from './verification.ts';

const person = { kind: 'person' } as Verification['record'];
const company = (companyType: 'RC' | 'BN' | 'IT') =>
  ({ kind: 'company', companyType }) as Verification['record'];
const key = (type: Verification['type'], number: string, record = person) =>
  identityKey({ type, number, record });

describe('identityKey: one key per verified identity, without its number', () => {
  it('is the type and the SHA-256 of the number, never the number itself', () => {
    assert.equal(key('BVN', '22212345671'), `BVN:${sha256Hex('22212345671')}`);
    assert.ok(!key('NIN', '12345678901').includes('12345678901'));
  });

  it('takes a BVN checked by USSD code for that BVN', () => {
    assert.equal(key('BVNUSSD', '22212345671'), key('BVN', '22212345671'));
  });

  it('keeps identities it cannot link apart: a BVN and a NIN, other numbers', () => {
    assert.notEqual(key('BVN', '22212345671'), key('NIN', '22212345671'));
    assert.notEqual(key('BVN', '22212345671'), key('BVN', '22212345682'));
  });

  it('counts a vNIN in upper case', () => {
    assert.equal(key('vNIN', 'yv111111111111fy'), key('vNIN', 'YV111111111111FY'));
  });

  it('takes a company for its registry and number, however the prefix and zeros were typed', () => {
    const rc = key('CAC', 'RC1234567', company('RC'));
    assert.equal(key('CAC', '1234567', company('RC')), rc);
    assert.equal(key('CAC', 'rc01234567', company('RC')), rc);
    assert.notEqual(key('CAC', 'BN1234567', company('BN')), rc);
  });
});
