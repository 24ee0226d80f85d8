// Strict ISO 8601 date-times, as a table: impossible dates and offsets are refused, not rolled over.
import { describe, expect, test } from 'bun:test'
import { parseIsoDateTime } from '../../src/lib/dates.ts'

describe('strict ISO dates', () => {
  test.each([
    ['2099-02-28T00:00:00Z', '2099-02-28T00:00:00.000Z'],
    ['2096-02-29T23:59:59.5+02:00', '2096-02-29T21:59:59.500Z'],
    ['2030-01-31T10:00Z', '2030-01-31T10:00:00.000Z'],
    ['2099-02-31T00:00:00Z', undefined],
    ['2097-02-29T00:00:00Z', undefined],
    ['2099-04-31T00:00:00Z', undefined],
    ['2099-13-01T00:00:00Z', undefined],
    ['2099-01-01T24:00:00Z', undefined],
    ['2099-01-01T00:60:00Z', undefined],
    ['2099-01-01T00:00:00', undefined],
    ['2099-01-01T00:00:00+25:00', undefined],
    ['2099-01-01', undefined],
    ['1969-12-31T23:59:59Z', undefined],
    ['tomorrow', undefined],
  ] as const)('%s', (text, iso) => expect(parseIsoDateTime(text)?.toISOString()).toBe(iso))
})
