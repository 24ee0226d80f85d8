// Auth models (docs/console.md "Sessions", "Password reset"): registration asks 8..200 character
// passwords; a login is loose on purpose (every wrong login is the same 401, not a 422 that tells
// which part failed); reset and verification tokens are bounded.
import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { EmailToken, Login, Me, NewPassword, PendingVerification, Registration, ResetRequested } from '../../../src/console/auth/model.ts'

describe('Registration and Login', () => {
  test('registration: email 3..320, password 8..200', () => {
    expect(Value.Check(Registration, { email: 'a@b.c', password: '12345678' })).toBe(true)
    expect(Value.Check(Registration, { email: 'a@b.c', password: '1234567' })).toBe(false)
    expect(Value.Check(Registration, { email: 'a@b.c', password: 'x'.repeat(201) })).toBe(false)
    expect(Value.Check(Registration, { email: 'a@', password: '12345678' })).toBe(false)
  })
  test('login: any non-empty email and password within the bounds (a short password is a 401, not a 422)', () => {
    expect(Value.Check(Login, { email: 'x', password: 'y' })).toBe(true)
    expect(Value.Check(Login, { email: '', password: 'y' })).toBe(false)
    expect(Value.Check(Login, { email: 'x', password: 'y'.repeat(201) })).toBe(false)
  })
})

describe('answers and tokens', () => {
  test('Me: role user|admin and verified are optional', () => {
    expect(Value.Check(Me, { id: 'u', email: 'e' })).toBe(true)
    expect(Value.Check(Me, { id: 'u', email: 'e', role: 'admin', verified: true })).toBe(true)
    expect(Value.Check(Me, { id: 'u', email: 'e', role: 'root' })).toBe(false)
  })
  test('delivery is email or operator, in both the pending registration and the reset answer', () => {
    expect(Value.Check(PendingVerification, { id: 'u', email: 'e', verification: 'operator' })).toBe(true)
    expect(Value.Check(PendingVerification, { id: 'u', email: 'e', verification: 'sms' })).toBe(false)
    expect(Value.Check(ResetRequested, { delivery: 'email' })).toBe(true)
    expect(Value.Check(ResetRequested, { delivery: 'none' })).toBe(false)
  })
  test('tokens: 1..100 characters; a new password 8..200', () => {
    expect(Value.Check(EmailToken, { token: 't'.repeat(100) })).toBe(true)
    expect(Value.Check(EmailToken, { token: 't'.repeat(101) })).toBe(false)
    expect(Value.Check(NewPassword, { token: 't', password: '1234567' })).toBe(false)
    expect(Value.Check(NewPassword, { token: 't', password: '12345678' })).toBe(true)
  })
})
