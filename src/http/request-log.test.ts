import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maskQuery } from './request-log.ts';

describe('maskQuery', () => {
  it('hides the value of credential-like query parameters', () => {
    assert.equal(
      maskQuery('/accounts?access_token=eyJabc&page=2&client_secret=s3cr3t'),
      '/accounts?access_token=%5Bredacted%5D&page=2&client_secret=%5Bredacted%5D',
    );
  });

  it('leaves other URLs as they are', () => {
    assert.equal(maskQuery('/transfers?page=1&limit=10'), '/transfers?page=1&limit=10');
    assert.equal(maskQuery('/accounts/abc'), '/accounts/abc');
  });
});
