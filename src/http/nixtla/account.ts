import { Type } from '@fastify/type-provider-typebox';
import type { App } from '../app-types.ts';
import { jsonResponse, problemResponses } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import { accountOverviewById } from '../../store/accounts.ts';
import { quotaWindows } from '../../store/quota.ts';
import type { NixtlaContext } from './common.ts';

const Window = Type.Object({
  limit: Type.Integer({ description: 'quota units of the window; 0 = unlimited' }),
  used: Type.Integer({ description: 'units charged in the current window' }),
  remaining: Type.Optional(Type.Integer({ description: 'units left (absent when unlimited)' })),
  reset: Type.Integer({ description: 'epoch seconds when the window starts over' }),
});
const Usage = Type.Object({
  daily: Window,
  weekly: Window,
}, { description: 'the account\'s quota counters: the UTC day and the ISO week (Monday 00:00 UTC), as X-RateLimit-* count them' });

export function accountRoutes(app: App, ctx: NixtlaContext): void {
  // GET /nixtla/validate_api_key — NixtlaClient.validate_api_key(): the auth hook has checked the key (401 otherwise)
  app.get('/validate_api_key', {
    schema: {
      summary: 'Nixtla SDK: validate_api_key', tags: ['nixtla'],
      response: { 200: jsonResponse(Type.Object({ detail: Type.String() }), 'The key is valid'), ...problemResponses(401, 403) },
    },
  }, async () => ({ detail: 'API key is valid' }));

  // GET /nixtla/usage — NixtlaClient.usage(): the quota counters of the key's account (not charged)
  app.get('/usage', {
    schema: {
      summary: 'Nixtla SDK: usage (the account\'s quota counters)', tags: ['nixtla'],
      response: { 200: jsonResponse(Usage, 'Used and left in the current day and week'), ...problemResponses(401, 403) },
    },
  }, async (request) => {
    const now = new Date();
    const account = await accountOverviewById(ctx.database.db, ownerOf(request).accountId, now);
    if (!account) throw new HorizonError('unauthorized', 'the account of this API key no longer exists');
    const windows = quotaWindows(now);
    const window = (
      limit: number, used: number, reset: number,
    ) => (limit === 0 ? { limit, used, reset } : { limit, used, remaining: Math.max(0, limit - used), reset });
    return {
      daily: window(account.daily_quota, account.used_today, windows.dayResetsAt),
      weekly: window(account.weekly_quota, account.used_this_week, windows.weekResetsAt),
    };
  });
}
