// The console API's shapes as the pages read them (docs/console.md; /api/openapi).
export interface Account {
  balance: number
  reserved: number
  available: number
  currency: 'USD'
  spentThisMonth: number
  pendingTopups: { count: number; amount: number }
  topup: { min: number; max: number; providers: string[] }
}

export interface Key {
  id: string
  name: string
  prefix: string
  status: 'active' | 'revoked' | 'expired'
  limit: number | null
  spent: number
  remaining: number | null
  rpm: number
  expiresAt: string | null
  lastUsedAt: string | null
  createdAt: string
  models: string[] | null
  ipAllowlist: string[] | null
  tpm: number | null
  maxConcurrent: number | null
  limitReset: 'daily' | 'weekly' | 'monthly' | null
  resetsAt: string | null
  /** The limits the operator set: the owner may tighten them, not lift or loosen them. */
  operatorLimits: Partial<Record<OperatorLimit, unknown>> | null
}

export type OperatorLimit = 'limit' | 'limitReset' | 'rpm' | 'tpm' | 'maxConcurrent' | 'models' | 'ipAllowlist' | 'expiresAt'

export interface AutoTopup {
  enabled: boolean
  threshold: number | null
  amount: number | null
  provider: string | null
  paymentMethodSaved: boolean
  inFlight: boolean
  lowBalance: boolean
  lastError: string | null
  setupUrl: string | null
}

export interface Log {
  id: string
  keyId: string
  model: string
  status: number
  errorCode: string | null
  stream: boolean
  inputTokens: number
  outputTokens: number
  cost: number
  latencyMs: number
  createdAt: string
}

export interface Txn {
  id: string
  kind: 'topup' | 'usage' | 'refund' | 'adjustment'
  status: 'pending' | 'completed' | 'failed'
  amount: number
  method: string | null
  reference: string | null
  requestId: string | null
  createdAt: string
  completedAt: string | null
  [more: string]: unknown
}

export interface Model {
  id: string
  name: string
  description: string
  provider: string
  family: string
  contextWindow: number
  capabilities: string[]
  pricing: { input: number; output: number; cacheRead: number | null; cacheWrite: number | null }
}
