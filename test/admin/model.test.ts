// The admin API's request models (README "Admin API"): a new user's email and optional password,
// a key's members (as the console's, plus any rpm and the owner), and the list queries' bounds.
import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { AuditQuery, CreditAdjustment, KeyPatch, NewKey, NewUser, RefundRequest, RoleChange, UsersQuery } from '../../src/admin/model.ts'

describe('admin request models', () => {
  test('NewUser: an email address; a password of 8..200 when given', () => {
    expect(Value.Check(NewUser, { email: 'a@b.co' })).toBe(true)
    expect(Value.Check(NewUser, { email: 'not an email' })).toBe(false)
    expect(Value.Check(NewUser, { email: 'a@b.co', password: 'short' })).toBe(false)
  })
  test('NewKey names its owner; KeyPatch has the same members but the owner', () => {
    expect(Value.Check(NewKey, { userId: 'usr_1', rpm: 1_000_000, limit: null, models: ['acme/*'] })).toBe(true)
    expect(Value.Check(NewKey, {})).toBe(false)
    expect(Value.Check(NewKey, { userId: 'usr_1', rpm: 1_000_001 })).toBe(false)
    expect(Value.Check(NewKey, { userId: 'usr_1', limit: -1 })).toBe(false)
    const { userId: _, ...rest } = NewKey.properties
    expect(Object.keys(KeyPatch.properties).sort()).toEqual(Object.keys(rest).sort())
    expect(Value.Check(KeyPatch, {})).toBe(true)
  })
  test('CreditAdjustment takes any signed amount (bounds are the service’s); RefundRequest a positive one', () => {
    expect(Value.Check(CreditAdjustment, { amount: -5, note: 'x' })).toBe(true)
    expect(Value.Check(CreditAdjustment, { amount: 5, note: 'x'.repeat(501) })).toBe(false)
    expect(Value.Check(RefundRequest, { transactionId: 'txn_1' })).toBe(true)
    expect(Value.Check(RefundRequest, { transactionId: 'txn_1', amount: 0 })).toBe(false)
  })
  test('roles are admin or user; list limits are bounded with a message', () => {
    expect(['admin', 'user', 'root'].map((role) => Value.Check(RoleChange, { role }))).toEqual([true, true, false])
    expect(Value.Check(UsersQuery, { limit: 500 })).toBe(true)
    expect(Value.Check(UsersQuery, { limit: 501 })).toBe(false)
    expect(Value.Check(AuditQuery, { limit: 101 })).toBe(false)
    expect(UsersQuery.properties.limit.error).toBe('limit must be an integer from 1 to 500.')
  })
})
