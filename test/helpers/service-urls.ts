// Where the tests find PostgreSQL and Redis (README "Tests"). Kept apart from services.ts so that
// test/setup.ts can probe them before services.ts reads the probe's answer.
export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
