// The balance rule of admission (docs/operations.md "Overdraft"), kept by both stores: a call is
// admitted when the balance covers its own reservation and, twice over, every reservation already
// in flight. Alone, a call needs only its reservation; as calls pile up on a small balance, fewer
// are admitted at once, so calls billed up to twice what they reserved overdraw the account by at
// most one reservation, however many run together. lua/admit.lua applies the same inequality.

/** Whether `balance` (micro-USD) admits a call reserving `reserve` while `reserved` is in flight. */
export const balanceCovers = (balance: bigint, reserved: bigint, reserve: bigint): boolean => balance - 2n * reserved >= reserve
