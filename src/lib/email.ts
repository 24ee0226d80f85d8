// One spelling per mailbox: emails are stored and looked up trimmed and lowercased (admin API
// and console sign-up / sign-in alike).
export const normalizeEmail = (email: string): string => email.trim().toLowerCase()
