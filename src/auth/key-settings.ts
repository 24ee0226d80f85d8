// A key's access settings (docs/api.md "Key settings"): the model allowlist, the network
// allowlist, tokens per minute, calls in flight, and the period its spend limit resets on. The
// one check of their values for every path that writes them (the admin API, the console,
// creation and PATCH): a bad value is a 422 naming the field and changes nothing.
import { GatewayError } from '../core/errors.ts'
import type { LimitReset } from '../billing/spend-period.ts'
import { parseIpBlock } from '../lib/ip.ts'
import { unmatchedPatterns } from './model-globs.ts'

export interface KeySettings {
  models: string[] | null
  ipAllowlist: string[] | null
  tpm: number | null
  maxConcurrent: number | null
  limitReset: LimitReset | null
}

/** The settings as a body may carry them: absent = unchanged (PATCH) or none (creation). */
export type KeySettingsInput = { [K in keyof KeySettings]?: KeySettings[K] }

const invalid = (field: string, message: string) => new GatewayError('VALIDATION_FAILED', `${field}: ${message}`, { param: field })

/**
 * The settings of `input` that were given, checked against the catalog's slugs (a pattern must
 * match some model) and normalised: blocks as written but trimmed, duplicates dropped. The
 * schema (console/keys/settings-model.ts) has already checked types and integer ranges.
 */
export function checkKeySettings(input: KeySettingsInput, slugs: readonly string[]): KeySettingsInput {
  const out: KeySettingsInput = {}
  if (input.models !== undefined) out.models = input.models === null ? null : checkModels(input.models, slugs)
  if (input.ipAllowlist !== undefined) out.ipAllowlist = input.ipAllowlist === null ? null : checkBlocks(input.ipAllowlist)
  if (input.tpm !== undefined) out.tpm = input.tpm
  if (input.maxConcurrent !== undefined) out.maxConcurrent = input.maxConcurrent
  if (input.limitReset !== undefined) out.limitReset = input.limitReset
  return out
}

function checkModels(patterns: string[], slugs: readonly string[]): string[] {
  const unique = [...new Set(patterns.map((p) => p.trim()))]
  if (unique.length === 0) throw invalid('models', 'must name at least one model or pattern; null allows every model.')
  const empty = unique.indexOf('')
  if (empty !== -1) throw invalid(`models[${empty}]`, 'must not be empty.')
  const [nothing] = unmatchedPatterns(unique, slugs)
  if (nothing !== undefined) throw invalid(`models[${patterns.indexOf(nothing)}]`, `'${nothing}' matches no model of the catalog.`)
  return unique
}

function checkBlocks(blocks: string[]): string[] {
  const trimmed = blocks.map((b) => b.trim())
  if (trimmed.length === 0) throw invalid('ipAllowlist', 'must hold at least one block; null allows every address.')
  const bad = trimmed.findIndex((b) => parseIpBlock(b) === undefined)
  if (bad !== -1) throw invalid(`ipAllowlist[${bad}]`, `'${trimmed[bad]}' is not an IPv4 or IPv6 address or CIDR block.`)
  return [...new Set(trimmed)]
}
